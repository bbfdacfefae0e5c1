/**
 * npm run billing -- --until 2027-01-01: runs the billing engine once a day from today to that day, with the
 * sandbox providers (cards, direct debit, bank payments, doors) living on those days, on DATABASE_URL (PostgreSQL)
 * when set, else PGLITE_DIR (./data/pglite). The demo's members are charged as if those days had passed: due
 * periods, direct debits collected over business days, declines, retries and grace periods appear.
 * --from 2026-11-01 starts on another day (the engine charges only what is due, so a day run twice adds nothing).
 */
import { localDay } from "../domain/dates";
import { billingRunUntil } from "../server/billing/run";
import { openDatabase } from "../server/core/db/client";
import { sandboxProviders } from "../server/core/providers/registry";
import { simulatedClock } from "../server/core/providers/clock";
import { applyDueCancellations } from "../server/subscriptions/scheduled-cancel";
import { eventResourcesFor } from "../server/api/event-resources";
import { config } from "../server/core/config";
import { provideEventResources } from "../server/outgoing-webhooks/events";

const USAGE = "Usage: npm run billing -- --until yyyy-MM-dd [--from yyyy-MM-dd]";
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function arg(name: string): string | undefined {
  const argv = process.argv.slice(2);
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes("=") ? argv[i].slice(argv[i].indexOf("=") + 1) : argv[i + 1];
}

const until = arg("until");
const from = arg("from") ?? localDay(new Date());
if (!until || !DAY.test(until) || !DAY.test(from) || from > until) {
  console.error(`${USAGE}\n(--until must be a day on or after --from, written yyyy-MM-dd)`);
  process.exit(2);
}
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, pgliteDir: process.env.PGLITE_DIR || "./data/pglite" });
try {
  const started = performance.now();
  let cancelled = 0;
  // As the scheduler does: a cancellation that waited for its notice ends first, then the day's billing.
  // Payments the run settles are outgoing webhook events (delivered by the server's job): their payloads' readers.
  provideEventResources(eventResourcesFor(config()));
  const r = await billingRunUntil(database.db, sandboxProviders(database.db, simulatedClock()), from, until, undefined, async (at) => (cancelled += await applyDueCancellations(database.db, at)));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${r.days} days (${from} to ${until}) in ${seconds} s: ${r.started} subscriptions started, ${r.planned} charges planned, ${r.charged} paid, ${r.declined} declined, ` +
      `${r.lapsed} grace periods ran out (access stopped; ${r.doors.suspended} switched off at the door, ${r.doors.restored} back on), ` +
      `${cancelled} cancellations that waited for their notice ended, ${r.leftPending} still under way at the end (direct debits before their confirmation, bank payments awaiting the member's approval).`,
  );
} finally {
  await database.close();
}
