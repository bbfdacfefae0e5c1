/**
 * tsx bench/imports.ts (part of npm run bench): a 100,000-row member file imported on PostgreSQL (issue 15).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/imports.ts [--rows 100000]
 *
 * Builds its own throwaway database next to DATABASE_URL's (dropped at the end): one organisation with a gym and a
 * price, and a Glofox-style export (first and last name, e-mail, mobile, date of birth day-first, plan, joined date)
 * with 1 % bad rows. Then, as staff would: the file read (POST …/imports), the dry run (PUT …/imports/{id}), and the
 * import job, timed, with the process's resident memory sampled every 50 ms from just before the file is read; then
 * the same file imported again, which must create nothing. Budget: the import of 100,000 rows in at most 60 s, with
 * memory growth at most 100 MB.
 */
import pg from "pg";
import { openDatabase } from "../server/core/db/client";
import { withTenant } from "../server/core/db/tenant";
import { gyms, offerings, organisations, prices, users } from "../server/core/db/schema";
import { confirmImport, createImport, findImport, updateImport } from "../server/imports/manage";
import { runImports } from "../server/imports/run";
import type { Mailer } from "../server/core/mail/mailer";

const BUDGET_SECONDS = 60;
const BUDGET_MB = 100;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A Glofox-style export: 1 row in 100 has a bad e-mail or an impossible date. */
function exportFile(rows: number, domain = "bench.example.com") {
  const lines = ["First Name,Last Name,Email,Mobile,DOB,Membership Title,Joined Date"];
  for (let i = 0; i < rows; i++) {
    const bad = i % 100 === 57;
    const email = bad && i % 200 === 57 ? `member${i}.example.com` : `member${i}@${domain}`;
    const dob = bad && i % 200 !== 57 ? "31/02/1990" : `${pad(1 + (i % 28))}/${pad(1 + (i % 12))}/${1960 + (i % 45)}`;
    lines.push(`first${i},last${i},${email},021 ${String(1_000_000 + i).slice(-7)},${dob},${i % 3 ? "Anytime" : "Off Peak"},${pad(1 + (i % 28))}/${pad(1 + (i % 12))}/2023`);
  }
  return lines.join("\n");
}

const mb = (bytes: number) => Math.round(bytes / 1_048_576);

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base) {
    console.log("bench/imports.ts: skipped. It needs PostgreSQL: set DATABASE_URL (a throwaway database is made beside it).");
    return;
  }
  const count = arg("rows", 100_000);
  const name = `gym_bench_imports_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" });
  const { db } = database;
  const mailer: Mailer = { send: async () => undefined } as unknown as Mailer;
  try {
    const [org] = await db.insert(organisations).values({ name: "Bench Imports" }).returning();
    const [gym] = await db.insert(gyms).values({ organisation_id: org.id, name: "Bench" }).returning();
    const [offering] = await db.insert(offerings).values({ organisation_id: org.id, name: "Anytime", type: "24_7" }).returning();
    const [price] = await db.insert(prices).values({ organisation_id: org.id, offering_id: offering.id, amount: 2_500, billing_frequency: "weekly" }).returning();
    const [staff] = await db.insert(users).values({ name: "Bench Admin", email: "bench.admin@example.com" }).returning();
    const plans = { Anytime: price.id, "Off Peak": 0 };
    const inOrg = <T>(work: Parameters<typeof withTenant<T>>[3]) => withTenant(db, org.id, gym.id, work, { atomic: true });

    const importOnce = async (label: string, file: string) => {
      global.gc?.();
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
      const t0 = performance.now();
      const created = await inOrg((t) => createImport(t, gym.id, staff.id, "bench.csv", file, new Date()));
      const t1 = performance.now();
      const checked = await inOrg(async (t) => updateImport(t, await findImport(t, created.id), { mapping: created.mapping, date_order: created.date_order, plans, import_errors: true, invite: false }, new Date()));
      const t2 = performance.now();
      await inOrg(async (t) => confirmImport(t, await findImport(t, created.id), new Date()));
      await runImports(db, mailer, { setPassword: () => "", invitation: () => "" });
      const t3 = performance.now();
      clearInterval(sampler);
      const done = await inOrg((t) => findImport(t, created.id));
      const seconds = (t3 - t2) / 1000;
      const growth = mb(peak - baseline);
      const ok = seconds <= BUDGET_SECONDS && growth <= BUDGET_MB;
      console.log(
        `imports (${label}): ${(file.split("\n").length - 1).toLocaleString("en-NZ")} rows, ${mb(Buffer.byteLength(file))} MB · read ${((t1 - t0) / 1000).toFixed(1)} s · dry run ${((t2 - t1) / 1000).toFixed(1)} s ` +
          `(create ${checked.summary!.create}, update ${checked.summary!.update}, unchanged ${checked.summary!.unchanged}, errors ${checked.summary!.errors}) · ` +
          `import ${seconds.toFixed(1)} s (${Math.round((file.split("\n").length - 1) / seconds).toLocaleString("en-NZ")} rows/s; created ${done.created_count}, updated ${done.updated_count}, unchanged ${done.unchanged_count}, rejected ${done.rejected_count}) · ` +
          `memory growth ${growth} MB (peak RSS ${mb(peak)} MB) · budget ${BUDGET_SECONDS} s and ${BUDGET_MB} MB: ${ok ? "OK" : "OVER BUDGET"}`,
      );
      return done;
    };
    // A small file first, so the figures are of an import, not of loading the code and opening connections.
    await importOnce("warm-up", exportFile(500, "warm-up.example.com"));
    const file = exportFile(count);
    const first = await importOnce("first", file);
    const again = await importOnce("same file again", file);
    if (again.created_count !== 0 || again.unchanged_count !== first.created_count) console.log(`imports: the second import was expected to create nothing and find ${first.created_count} unchanged`);
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
