/**
 * Backups (issue 19): `npm run backup` writes a pg_dump of DATABASE_URL (custom format, compressed) to BACKUP_DIR
 * (default ./backups), named by the time it was taken; `npm run backup -- --check` also proves it restores: it
 * restores the dump into a fresh database beside DATABASE_URL, compares every table's row count with the source's
 * at the moment of the dump (the same snapshot, so a live server's writes meanwhile do not count), prints both, and
 * drops the copy. `npm run backup -- --check --file <dump>` checks an existing dump against the
 * database as it is now (counts may differ by what was written since; the check says which tables).
 *
 * Needs PostgreSQL's client tools (pg_dump, pg_restore) of the server's major version or newer.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const source = process.env.DATABASE_URL;
if (!source) throw new Error("DATABASE_URL is needed: the database to back up");
const args = process.argv.slice(2);
const check = args.includes("--check");
const given = args.includes("--file") ? args[args.indexOf("--file") + 1] : undefined;

/** Every table's row count as `client` sees it (in its transaction's snapshot, when it has one). */
async function countRows(client: pg.Client): Promise<Map<string, number>> {
  const tables = (await client.query<{ name: string }>(`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname in ('public', 'drizzle', 'pgboss') order by 1`)).rows;
  const counts = new Map<string, number>();
  for (const { name } of tables) counts.set(name, Number((await client.query<{ n: string }>(`select count(*) as n from ${name}`)).rows[0].n));
  return counts;
}

async function rowCounts(url: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await countRows(client);
  } finally {
    await client.end();
  }
}

/**
 * pg_dump of the source, and the row counts of the very snapshot it dumped (an exported snapshot shared with
 * pg_dump), so a running server writing sessions, jobs and payments meanwhile cannot make the check fail.
 */
async function dump(to: string): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: source });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const { snapshot } = (await client.query<{ snapshot: string }>("select pg_export_snapshot() as snapshot")).rows[0];
    const counts = await countRows(client);
    execFileSync("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", "--snapshot", snapshot, "--file", to, source!], { stdio: "inherit" });
    await client.query("commit");
    return counts;
  } finally {
    await client.end();
  }
}

let file = given;
let dumped: Map<string, number> | undefined;
if (!file) {
  const dir = process.env.BACKUP_DIR ?? "backups";
  mkdirSync(dir, { recursive: true });
  file = path.join(dir, `gym-${new Date().toISOString().replace(/[:.]/g, "-")}.dump`);
  const started = performance.now();
  dumped = await dump(file);
  console.log(`backup: ${file} (${(statSync(file).size / 1e6).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

if (check) {
  const admin = new pg.Client({ connectionString: source });
  await admin.connect();
  const name = `gym_restore_check_${process.pid}`;
  await admin.query(`create database ${name}`);
  const copy = new URL(source);
  copy.pathname = `/${name}`;
  let failed = true;
  try {
    const started = performance.now();
    // The roles the dump's row-level security policies name (gym_tenant) exist on the server already: it is the same one.
    execFileSync("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--dbname", copy.toString(), file], { stdio: "inherit" });
    const restoreSeconds = (performance.now() - started) / 1000;
    const [before, after] = [dumped ?? (await rowCounts(source)), await rowCounts(copy.toString())];
    const differ = [...new Set([...before.keys(), ...after.keys()])].filter((t) => before.get(t) !== after.get(t));
    const rows = [...after.values()].reduce((a, b) => a + b, 0);
    console.log(`restored into ${name} in ${restoreSeconds.toFixed(1)} s: ${after.size} tables, ${rows} rows`);
    for (const t of differ) console.log(`  ${t}: ${before.get(t) ?? "missing"} in the database, ${after.get(t) ?? "missing"} restored`);
    failed = differ.length > 0 && !given;
    console.log(differ.length ? (given ? `${differ.length} tables differ (written since the dump was taken?)` : "RESTORE CHECK FAILED: row counts differ") : "restore check passed: every table's row count matches");
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    process.exitCode = failed ? 1 : 0;
  }
}
