/**
 * Seeds the demo data set.
 *
 *   npm run seed                          300 members into ./data/pglite (or PGLITE_DIR)
 *   npm run seed -- --members 100000      a large demo (use PostgreSQL: DATABASE_URL=postgres://…)
 *   npm run seed -- --reset               empties every table first
 *
 * Uses DATABASE_URL when set, else the embedded PGlite in PGLITE_DIR (default ./data/pglite).
 * Migrations run on open. Refuses to seed a database that already has data unless --reset is given.
 */
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { openDatabase, type Db } from "../server/core/db/client";
import * as schema from "../server/core/db/schema";
import { DEFAULT_DEMO_MEMBERS, DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "../server/seed/demo-data";

const USAGE = `Usage: npm run seed -- [--members N] [--reset]

  --members N   members to create besides the three demo accounts (default ${DEFAULT_DEMO_MEMBERS})
  --reset       empty every table first (TRUNCATE … RESTART IDENTITY CASCADE)

Writes to DATABASE_URL (PostgreSQL) when set, else to PGLITE_DIR (default ./data/pglite).`;

class UsageError extends Error {}

function parseArgs(argv: string[]): { members: number; reset: boolean; help: boolean } {
  let members = DEFAULT_DEMO_MEMBERS;
  let reset = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--reset") reset = true;
    else if (arg === "--help" || arg === "-h") help = true;
    else if (arg === "--members" || arg.startsWith("--members=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (value === undefined || !/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
        throw new UsageError(`--members must be a positive whole number, such as --members 1000 (got ${value === undefined ? "nothing" : JSON.stringify(value)}).`);
      }
      members = Number(value);
    } else throw new UsageError(`Unknown argument ${JSON.stringify(arg)}.`);
  }
  return { members, reset, help };
}

const tableNames = () =>
  Object.values(schema as Record<string, unknown>)
    .filter((v): v is PgTable => is(v, PgTable))
    .map((t) => getTableName(t));

async function truncateAll(db: Db) {
  const list = tableNames().map((name) => `"${name}"`).join(", ");
  await db.execute(sql.raw(`TRUNCATE ${list} RESTART IDENTITY CASCADE`));
}

async function main() {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw err;
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }

  const databaseUrl = process.env.DATABASE_URL || undefined;
  const pgliteDir = process.env.PGLITE_DIR || "./data/pglite";
  const where = databaseUrl ? `PostgreSQL (${new URL(databaseUrl).pathname.slice(1) || "default database"})` : `PGlite in ${pgliteDir}`;
  console.log(`Opening ${where} …`);
  const database = await openDatabase({ databaseUrl, pgliteDir });
  try {
    if (args.reset) {
      console.log("Emptying every table …");
      await truncateAll(database.db);
    } else {
      const found = await counts(database.db);
      if (found.organisations > 0 || found.users > 0) {
        console.error(
          `${where} already has data (${found.organisations} organisations, ${found.users} users). ` +
            `Nothing was changed. To wipe it and seed again run: npm run seed -- --reset${args.members !== DEFAULT_DEMO_MEMBERS ? ` --members ${args.members}` : ""}`,
        );
        process.exitCode = 1;
        return;
      }
    }

    console.log(`Seeding the demo with ${args.members.toLocaleString("en-NZ")} members …`);
    const started = performance.now();
    const summary = await seedDemo(database.db, { members: args.members });
    // Statistics for the planner, and the visibility map that lets index-only scans skip the table: a
    // freshly written table has none until autovacuum comes round, and every benchmark would pay for it.
    // (No VACUUM FULL: the seed writes each rollup and membership row once, leaving no old versions behind.)
    await database.db.execute(sql`vacuum analyze`);
    const seconds = (performance.now() - started) / 1000;

    const { subscription_states: states, ...totals } = summary;
    const width = Math.max(...Object.keys(totals).map((k) => k.length));
    for (const [key, value] of Object.entries(totals)) console.log(`  ${key.padEnd(width)}  ${value.toLocaleString("en-NZ")}`);
    console.log(`  ${"states".padEnd(width)}  ${Object.entries(states).map(([k, v]) => `${k} ${v}`).join(", ")}`);
    console.log(`Seeded in ${seconds.toFixed(1)} s.`);
    console.log(`Sign in as ${DEMO_ACCOUNTS.admin}, ${DEMO_ACCOUNTS.trainer} or ${DEMO_ACCOUNTS.member} with the password "${DEMO_PASSWORD}".`);
  } finally {
    await database.close();
  }
}

async function counts(db: Db): Promise<{ organisations: number; users: number }> {
  const result = (await db.execute(
    sql`select (select count(*) from organisations)::int as organisations, (select count(*) from users)::int as users`,
  )) as unknown as { rows: { organisations: number; users: number }[] };
  return result.rows[0];
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
