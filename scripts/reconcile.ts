/**
 * npm run reconcile -- --from 2026-11-20 --until 2026-11-22: compares our payments with each provider's own books for
 * those Auckland days (both included), as the daily job does for the last three (server/reconciliation/reconcile.ts),
 * on DATABASE_URL (PostgreSQL) when set, else PGLITE_DIR (./data/pglite), with the providers the environment
 * configures, as the server does (live Stripe, GoCardless and Akahu where their keys are set; the sandboxes
 * otherwise, outside production), and its mailer (SMTP_URL, else the outbox) to tell members of what it writes
 * through. Prints which adapters it asked, what it checked and the differences by kind; exits 1 when any difference
 * is left open for a person or a provider could not be asked.
 */
import { mailSite } from "../server/member-mail/brand";
import { pathToFileURL } from "node:url";
import { defaultWindow, reconcile } from "../server/reconciliation/reconcile";
import { openDatabase, type Database } from "../server/core/db/client";
import { configuredProviders } from "../server/core/providers/registry";
import { simulatedClock } from "../server/core/providers/clock";
import { startOfLocalDay, addCalendarDays } from "../domain/dates";
import { parseConfig } from "../server/core/config";
import { outboxMailer, smtpMailer } from "../server/core/mail/mailer";
import { eventResourcesFor } from "../server/api/event-resources";
import { provideEventResources } from "../server/outgoing-webhooks/events";

const USAGE = "Usage: npm run reconcile -- [--from yyyy-MM-dd] [--until yyyy-MM-dd]";
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function arg(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes("=") ? argv[i].slice(argv[i].indexOf("=") + 1) : argv[i + 1];
}

/** Runs it and answers the exit code: 0 when nothing is left open, 1 when something is, 2 for a bad command line. */
export async function main(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  print: (line: string) => void = console.log,
  open: () => Promise<Pick<Database, "db" | "close">> = () => openDatabase({ databaseUrl: env.DATABASE_URL || undefined, pgliteDir: env.PGLITE_DIR || "./data/pglite" }),
): Promise<number> {
  const fallback = defaultWindow(new Date());
  const from = arg(argv, "from") ?? fallback.from;
  const until = arg(argv, "until") ?? fallback.until;
  if (!DAY.test(from) || !DAY.test(until) || from > until) {
    print(`${USAGE}\n(--until must be a day on or after --from, written yyyy-MM-dd)`);
    return 2;
  }
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(env);
  } catch (err) {
    print(`The environment is not a valid configuration: ${(err as Error).message}`);
    return 2;
  }
  const database = await open();
  try {
    // The sandboxes (where no keys are set) live on the day after the window, as the daily job would see them.
    const now = startOfLocalDay(addCalendarDays(until, 1));
    const providers = configuredProviders(database.db, config, simulatedClock(now));
    const mailer = config.SMTP_URL ? await smtpMailer(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(database.db);
    print(`Providers: cards ${providers.cards.mode}, direct debits ${providers.directDebit({ id: 0, stripe_id: null, gocardless_organisation_id: null, integrations: null }).mode} (the deployment's; a gym's own connection is used for its payments).`);
    provideEventResources(eventResourcesFor(config));
    const r = await reconcile(database.db, providers, { from, until }, now, { mailer, site: mailSite(config) });
    print(`Reconciled ${from} to ${until}: ${r.checked} checked, ${r.corrected} corrected, ${r.open} new open, ${r.stillOpen} open in all.`);
    for (const [kind, c] of Object.entries(r.byKind)) print(`  ${kind}: ${c.corrected} corrected, ${c.open} open`);
    for (const e of r.errors) print(`  not compared: ${e}`);
    return r.stillOpen > 0 || r.errors.length > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await main(process.argv.slice(2));
}
