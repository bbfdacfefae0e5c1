/**
 * npm run crash-trial: proves the billing run charges each period exactly once when its process dies at any moment.
 *
 * On a throwaway PostgreSQL database beside DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * CRASH_SUBSCRIPTIONS weekly card members (default 3,000: most cards succeed, some decline softly and are retried,
 * some are lost cards whose grace period runs out) are billed over CRASH_WEEKS weeks by a child process running the
 * billing run day by day. The child is killed with SIGKILL at a random moment CRASH_KILLS times (default 100) and
 * started again each time; then it runs once to the end, undisturbed. Our payments are then compared with the
 * sandbox provider's own ledger (sandbox_ledger): periods charged twice, periods skipped, ledger charges we have no
 * record of, and payments we hold as paid that the provider never charged. Any count above 0 fails (exit 1).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { BillingFrequency } from "../domain/billing";
import { addCalendarDays, startOfLocalDay } from "../domain/dates";
import { chargesDue } from "../domain/schedule";
import { billingRunUntil } from "../server/billing/run";
import { openDatabase } from "../server/db/client";
import { gyms, offerings, organisation_users, organisations, payment_types, prices, subscriptions, users } from "../server/db/schema";
import { insertAll, insertReturningIds } from "../server/db/bulk";
import { rowsOf } from "../server/db/values";
import { sandboxCards } from "../server/providers/cards/sandbox";

const FIRST_DAY = "2026-01-12";
const int = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number`);
  return v;
};

if (process.argv[2] === "--child") {
  // The billing process: the run once a day from the first day to the last, from the beginning each time (a day
  // already billed costs a query or two), so progress made before a kill is kept and the rest is done now.
  const [, , , url, until] = process.argv;
  const database = await openDatabase({ databaseUrl: url, pgliteDir: "", migrate: false });
  process.stdout.write("ready\n");
  await billingRunUntil(database.db, sandboxCards(database.db), FIRST_DAY, until);
  await database.close();
  process.stdout.write("done\n");
  process.exit(0);
}

const kills = int("CRASH_KILLS", 100);
const count = int("CRASH_SUBSCRIPTIONS", 3_000);
const weeks = int("CRASH_WEEKS", 10);
const lastDay = addCalendarDays(FIRST_DAY, weeks * 7 - 1);
const base = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const name = `gym_crash_${process.pid}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const started = performance.now();
let failed = true;
try {
  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" });
  const { db } = database;
  const [org] = await db.insert(organisations).values({ name: "Crash Trial" }).returning();
  const [gym] = await db.insert(gyms).values({ organisation_id: org.id, name: "Trial" }).returning();
  const [offering] = await db.insert(offerings).values({ organisation_id: org.id, name: "Anytime", type: "24_7" }).returning();
  const [price] = await db.insert(prices).values({ organisation_id: org.id, offering_id: offering.id, amount: 2_000, billing_frequency: "weekly" }).returning();
  const card = (i: number) => (i % 20 === 7 ? "pm_card_chargeDeclinedInsufficientFunds" : i % 50 === 13 ? "pm_card_chargeDeclinedLostCard" : "pm_card_visa");
  const userIds = await insertReturningIds(db, users, Array.from({ length: count }, (_, i) => ({ name: `trial ${i}`, email: `trial${i}@example.com` })));
  const typeIds = await insertReturningIds(
    db,
    payment_types,
    userIds.map((id, i) => ({ organisation_id: org.id, user_id: id, type: "stripe_card" as const, details: { payment_method: card(i) } })),
  );
  await insertAll(
    db,
    organisation_users,
    userIds.map((id, i) => ({ organisation_id: org.id, user_id: id, role: "member", home_gym_id: gym.id, default_payment_type_id: typeIds[i] })),
  );
  await insertAll(
    db,
    subscriptions,
    userIds.map((id) => ({
      organisation_id: org.id,
      user_id: id,
      gym_id: gym.id,
      price_id: price.id,
      billing_anchor: "2026-01-05",
      current_period_start: startOfLocalDay("2026-01-05"),
      current_period_end: startOfLocalDay(FIRST_DAY),
    })),
  );
  await database.close();
  console.log(`crash trial: ${count.toLocaleString("en")} weekly subscriptions, billed ${FIRST_DAY} to ${lastDay}, ${kills} kills`);

  const script = fileURLToPath(import.meta.url);
  const child = () => spawn(process.execPath, ["--import", "tsx", script, "--child", url.toString(), lastDay], { stdio: ["ignore", "pipe", "inherit"] });
  let killed = 0;
  let finishedEarly = 0;
  let window = 1_500;
  while (killed < kills) {
    const proc = child();
    const outcome = await new Promise<"killed" | "done">((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let readyAt = 0;
      proc.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready") && !timer) {
          readyAt = performance.now();
          // Anywhere in the run: between the planning transactions, mid-batch, between a charge and its record.
          timer = setTimeout(() => proc.kill("SIGKILL"), Math.random() * window);
        }
      });
      proc.on("exit", (code, signal) => {
        clearTimeout(timer);
        if (signal === "SIGKILL") return resolve("killed");
        if (code !== 0) throw new Error(`the billing process failed (exit ${code})`);
        // It finished before its kill: the rest of the run is shorter now, so aim the kills sooner.
        window = Math.max(50, Math.min(window, performance.now() - readyAt));
        resolve("done");
      });
    });
    if (outcome === "killed") killed++;
    else finishedEarly++;
    if (finishedEarly > kills * 3) break;
  }
  const last = child();
  await new Promise<void>((resolve, reject) => last.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the last billing run failed (exit ${code})`)))));

  // The reckoning, from our payments and the provider's books.
  const check = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "", migrate: false });
  const rows = async <T>(text: string) => rowsOf<T>(await check.db.execute(text));
  const [{ twice }] = await rows<{ twice: number }>(`
    select count(*)::int as twice from (
      select split_part(idempotency_key, ':', 2) as s, split_part(idempotency_key, ':', 3) as period from sandbox_ledger
      where status = 'succeeded' group by 1, 2 having count(*) > 1) t`);
  const [{ unknown }] = await rows<{ unknown: number }>(`
    select count(*)::int as unknown from sandbox_ledger l
    where not exists (select 1 from payments p where p.idempotency_key = l.idempotency_key and p.status = (case when l.status = 'succeeded' then 'sent' else 'failed' end))`);
  const [{ unpaid }] = await rows<{ unpaid: number }>(`
    select count(*)::int as unpaid from payments p
    where p.status = 'sent' and not exists (select 1 from sandbox_ledger l where l.idempotency_key = p.idempotency_key and l.status = 'succeeded')`);
  const [{ pending }] = await rows<{ pending: number }>(`select count(*)::int as pending from payments where status = 'pending'`);
  // Skipped: a period the schedule says was due (up to the last day, or up to the last period planned for a
  // member whose access stopped) with no payment at all.
  const subs = await rows<{ id: number; billing_anchor: string; upcoming_state: string | null; planned: string[] | null }>(`
    select s.id, s.billing_anchor::text, s.upcoming_state,
      array_agg(distinct to_char(p.period_start_at at time zone 'Pacific/Auckland', 'YYYY-MM-DD')) filter (where p.id is not null) as planned
    from subscriptions s left join payments p on p.subscription_id = s.id group by s.id`);
  let skipped = 0;
  for (const s of subs) {
    const planned = new Set(s.planned ?? []);
    const until = s.upcoming_state === "failed" ? [...planned].sort().at(-1)! : lastDay;
    const due = chargesDue({ frequency: "weekly" as BillingFrequency, anchor: s.billing_anchor, paidUntil: FIRST_DAY, amount: 2_000 }, until);
    skipped += due.filter((d) => !planned.has(d.period.start)).length;
  }
  const [{ charges }] = await rows<{ charges: number }>(`select count(*)::int as charges from sandbox_ledger`);
  await check.close();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `crash trial: ${killed} kills (${finishedEarly} runs finished before their kill), ${charges.toLocaleString("en")} provider charges, in ${seconds} s\n` +
      `  periods charged twice: ${twice}\n  periods skipped: ${skipped}\n  provider charges we have no record of: ${unknown}\n` +
      `  payments we hold as paid that the provider never charged: ${unpaid}\n  payments left pending: ${pending}`,
  );
  failed = twice + skipped + unknown + unpaid + pending > 0 || killed < kills;
  if (killed < kills) console.log(`  only ${killed} of ${kills} kills landed: the runs finished too fast`);
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
console.log(failed ? "crash trial: FAILED" : "crash trial: OK (exactly once)");
process.exit(failed ? 1 : 0);
