/**
 * npm run crash-trial: proves the billing run charges each period exactly once when its process dies at any moment.
 *
 * On a throwaway PostgreSQL database beside DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * CRASH_SUBSCRIPTIONS weekly members (default 3,000), a third paying by card (Stripe), a third by direct debit
 * (GoCardless, settled over business days) and a third from their bank (Akahu), are billed over CRASH_WEEKS weeks
 * by a child process running the billing run day by day: most pay, some decline softly and are retried, some
 * decline for good and their grace period runs out. The child is killed with SIGKILL at a random moment CRASH_KILLS
 * times (default 100) and started again each time; then it runs once to the end, undisturbed. Our payments are
 * then compared with the sandbox providers' own ledger (sandbox_ledger), as each provider would answer on the last
 * day: periods paid twice, periods skipped, provider payments we have no record of or hold in another state, and
 * payments we hold as paid that the provider never took. Any count above 0 fails (exit 1).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { BillingFrequency } from "../domain/billing";
import { addCalendarDays, startOfLocalDay } from "../domain/dates";
import { chargesDue } from "../domain/schedule";
import { billingRunUntil } from "../server/billing/run";
import { openDatabase } from "../server/db/client";
import { bank_connections, destination_accounts, gyms, offerings, organisation_users, organisations, payment_types, prices, sandbox_ledger, subscriptions, users } from "../server/db/schema";
import { insertAll, insertReturningIds } from "../server/db/bulk";
import { rowsOf } from "../server/db/values";
import { sandboxProviders } from "../server/providers/registry";
import { bankPaymentResult } from "../server/providers/bank/bank-provider";
import { sandboxBankPaymentAt } from "../server/providers/bank/sandbox";
import type { ChargeResult } from "../server/providers/charge-result";
import { directDebitResult } from "../server/providers/direct-debit/direct-debit-provider";
import { sandboxDirectDebitAt } from "../server/providers/direct-debit/sandbox";
import { simulatedClock } from "../server/providers/clock";

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
  await billingRunUntil(database.db, sandboxProviders(database.db, simulatedClock()), FIRST_DAY, until);
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
  await db.insert(destination_accounts).values({ organisation_id: org.id, gym_id: gym.id, name: "Trial Ltd", bank_account_number: "01-0123-0456789-00" });
  // Most pay; one in twenty is short of funds (retried), one in fifty declines for good (its grace period runs out).
  const outcome = (i: number) => (i % 20 === 7 ? "short" : i % 50 === 13 ? "gone" : "pays");
  const card = { pays: "pm_card_visa", short: "pm_card_chargeDeclinedInsufficientFunds", gone: "pm_card_chargeDeclinedLostCard" };
  const account = (i: number) => `12-3456-0${{ pays: String(100_000 + i).slice(-6), short: "009995", gone: "009987" }[outcome(i)]}-00`;
  const typeOf = (i: number): { type: "stripe_card" | "gocardless_bank_account" | "bank_account"; details: Record<string, string> } => {
    if (i % 3 === 0) return { type: "stripe_card", details: { payment_method: card[outcome(i)] } };
    if (i % 3 === 1) return { type: "gocardless_bank_account", details: { name: `trial ${i}`, account_number: account(i), mandate_id: `MDTRIAL${i}` } };
    return { type: "bank_account", details: { name: `trial ${i}`, account_number: account(i), status: "active", akahu_account_id: `acc_trial_${i}` } };
  };
  const userIds = await insertReturningIds(db, users, Array.from({ length: count }, (_, i) => ({ name: `trial ${i}`, email: `trial${i}@example.com` })));
  const typeIds = await insertReturningIds(
    db,
    payment_types,
    userIds.map((id, i) => ({ organisation_id: org.id, user_id: id, ...typeOf(i) })),
  );
  await insertAll(
    db,
    bank_connections,
    userIds.filter((_, i) => i % 3 === 2).map((id) => ({ organisation_id: org.id, user_id: id, access_token: `user_token_trial_${id}` })),
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

  // The reckoning, from our payments and the providers' books, as each provider would answer at the last run.
  const check = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "", migrate: false });
  const rows = async <T>(text: string) => rowsOf<T>(await check.db.execute(text));
  const endedAt = new Date(startOfLocalDay(lastDay).getTime() + 10 * 3_600_000);
  const ledger = await check.db.select().from(sandbox_ledger);
  const answerOf = (l: typeof sandbox_ledger.$inferSelect): ChargeResult => {
    if (l.provider === "gocardless") return directDebitResult(sandboxDirectDebitAt(l, endedAt));
    if (l.provider === "akahu") return bankPaymentResult(sandboxBankPaymentAt(l, endedAt));
    return l.status === "succeeded" ? { status: "succeeded", id: l.object_id } : { status: "declined", id: l.object_id, declineCode: l.decline_code ?? "", message: "" };
  };
  const OURS: Record<ChargeResult["status"], string> = { succeeded: "sent", declined: "failed", processing: "pending", awaiting_approval: "awaiting_payment" };
  const ourStatus = new Map(
    (await rows<{ idempotency_key: string; status: string }>(`select idempotency_key, status from payments where idempotency_key is not null`)).map((p) => [p.idempotency_key, p.status]),
  );
  const paidPeriods = new Map<string, number>();
  let unknown = 0;
  let unpaid = 0;
  for (const l of ledger) {
    const answer = answerOf(l);
    if (answer.status === "succeeded") {
      const period = l.idempotency_key.split(":").slice(1, 3).join(":");
      paidPeriods.set(period, (paidPeriods.get(period) ?? 0) + 1);
    }
    if (ourStatus.get(l.idempotency_key) !== OURS[answer.status]) unknown++;
  }
  const twice = [...paidPeriods.values()].filter((n) => n > 1).length;
  const taken = new Set(ledger.filter((l) => answerOf(l).status === "succeeded").map((l) => l.idempotency_key));
  for (const [key, status] of ourStatus) if (status === "sent" && !taken.has(key)) unpaid++;
  // Left pending with nothing under way at its provider: a charge the run never made.
  const underWay = new Set(ledger.filter((l) => ["processing", "awaiting_approval"].includes(answerOf(l).status)).map((l) => l.idempotency_key));
  const pending = [...ourStatus].filter(([key, status]) => (status === "pending" || status === "awaiting_payment") && !underWay.has(key)).length;
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
      `  periods paid twice: ${twice}\n  periods skipped: ${skipped}\n  provider payments we have no record of, or hold in another state: ${unknown}\n` +
      `  payments we hold as paid that the provider never took: ${unpaid}\n  payments left pending with nothing under way at the provider: ${pending}\n` +
      `  (under way at the end, as a direct debit before its confirmation is: ${underWay.size})`,
  );
  failed = twice + skipped + unknown + unpaid + pending > 0 || killed < kills;
  if (killed < kills) console.log(`  only ${killed} of ${kills} kills landed: the runs finished too fast`);
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
console.log(failed ? "crash trial: FAILED" : "crash trial: OK (exactly once)");
process.exit(failed ? 1 : 0);
