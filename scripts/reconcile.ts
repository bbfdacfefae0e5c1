/**
 * npm run reconcile -- --from 2026-11-20 --until 2026-11-22: compares our payments with each provider's own books for
 * those Auckland days (both included), as the daily job does for the last three (server/reconciliation/reconcile.ts),
 * on DATABASE_URL (PostgreSQL) when set, else PGLITE_DIR (./data/pglite), with the sandbox providers. Prints what it
 * checked and the differences by kind; exits 1 when any difference is left open for a person.
 */
import { pathToFileURL } from "node:url";
import { defaultWindow, reconcile } from "../server/reconciliation/reconcile";
import { openDatabase, type Database } from "../server/db/client";
import { sandboxProviders } from "../server/providers/registry";
import { simulatedClock } from "../server/providers/clock";
import { startOfLocalDay, addCalendarDays } from "../domain/dates";

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
  const database = await open();
  try {
    // The sandboxes live on the day after the window, as the daily job would see them.
    const now = startOfLocalDay(addCalendarDays(until, 1));
    const r = await reconcile(database.db, sandboxProviders(database.db, simulatedClock(now)), { from, until }, now);
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
