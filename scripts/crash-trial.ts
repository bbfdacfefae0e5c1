/**
 * npm run crash-trial: proves the billing run charges each period exactly once, for the right amount, on the right
 * days, when its process dies at any moment of any day (decision 0043).
 *
 * - **Members**: on a throwaway PostgreSQL database beside DATABASE_URL (default
 *   postgres://postgres@127.0.0.1:5432/postgres), CRASH_SUBSCRIPTIONS weekly members (default 3,000): a third pay by
 *   card (Stripe, with the gym's 1.5 % + 30 c surcharge), a third by direct debit (GoCardless, settled over business
 *   days), a third from their bank (Akahu); at two prices. Most pay, one in twenty is short of funds (retried until
 *   access stops), one in fifty declines for good. They are billed over CRASH_WEEKS weeks (default 10).
 * - **Kills spread over the whole range**: a child process runs the billing run day by day and prints each step of
 *   each day as it begins ("day 2026-01-14 step charge": lapse, start, plan, charge, refunds, doors). Each of the
 *   CRASH_KILLS kills (default 100) has a target: a day (spread evenly over the simulated days) and a step (the six
 *   in turn, shuffled); when the child reaches it, it is killed with SIGKILL after a random delay of up to that
 *   step's usual length, so kills land anywhere inside it (mid-batch, between a charge and its record). Where each
 *   one landed (the last step the child announced) is reported as a histogram by week and by step. The child is
 *   started again at the day it died on (as the daily job would run that day's run again), and at last runs
 *   undisturbed to the end. Midway, a few refunds of paid payments are written down for the run to pursue.
 * - **The providers' books kept apart**: the sandboxes keep their ledger (`sandbox_ledger`) in a second throwaway
 *   database, on their own connection (`createProviders(ledgerDb, …)`), so no transaction of the billing run can
 *   write or roll back the providers' books, and our reckoning reads them from there. The sandboxes still run in
 *   the billing process (a separate provider process is not done: decision 0043).
 * - **An independent reference** (./crash-trial/reference.ts) works out, without the engine's code, each member's
 *   periods, tries (day and amount), outcome and the day access stops.
 * - **The reckoning** (./crash-trial/compare.ts, each counter shown to fail by tests/unit/crash-trial-compare.test.ts):
 *   periods paid twice; skipped; charged after access stopped; retries that never reached a provider; paid without
 *   a provider payment; provider payments we have no record of or hold in another state; amounts that differ from
 *   the reference; tries that differ from it; refunds missing. Any count above 0 fails (exit 1).
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { addCalendarDays, startOfLocalDay } from "../domain/dates";
import { billingRunUntil, RUN_STEPS, type RunStep } from "../server/billing/run";
import { openDatabase } from "../server/db/client";
import {
  bank_connections,
  destination_accounts,
  gyms,
  offerings,
  organisation_users,
  organisations,
  payment_adjustments,
  payment_types,
  prices,
  sandbox_ledger,
  subscriptions,
  users,
} from "../server/db/schema";
import { insertAll, insertReturningIds } from "../server/db/bulk";
import { rowsOf } from "../server/db/values";
import { createProviders } from "../server/providers/registry";
import { bankPaymentResult } from "../server/providers/bank/bank-provider";
import { sandboxBankPaymentAt } from "../server/providers/bank/sandbox";
import type { ChargeResult } from "../server/providers/charge-result";
import { directDebitResult } from "../server/providers/direct-debit/direct-debit-provider";
import { sandboxDirectDebitAt } from "../server/providers/direct-debit/sandbox";
import { simulatedClock } from "../server/providers/clock";
import { compare, COUNTER_LABELS, total, type ExpectedSubscription, type LedgerCharge, type LedgerRefund, type OurPayment, type OurRefund } from "./crash-trial/compare";
import { expectedMember, type Outcome, type Rail } from "./crash-trial/reference";

const FIRST_DAY = "2026-01-12";
const LINK_BASE = "http://signup.localhost:3000/";
const int = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number`);
  return v;
};

if (process.argv[2] === "--child") {
  // The billing process: the run once a day from `from` to `until`, each step announced as it begins. The
  // providers' sandboxes keep their books on their own connection to their own database.
  const [, , , url, ledgerUrl, from, until] = process.argv;
  const database = await openDatabase({ databaseUrl: url, pgliteDir: "", migrate: false });
  const ledger = await openDatabase({ databaseUrl: ledgerUrl, pgliteDir: "", migrate: false });
  const providers = createProviders(ledger.db, { sandboxAllowed: true, linkBase: LINK_BASE }, simulatedClock());
  await billingRunUntil(database.db, providers, from, until, (day, step) => process.stdout.write(`day ${day} step ${step}\n`));
  process.stdout.write("done\n");
  await database.close();
  await ledger.close();
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
await admin.query(`create database ${name}_ledger`);
const urlOf = (db: string) => {
  const u = new URL(base);
  u.pathname = `/${db}`;
  return u.toString();
};
const url = urlOf(name);
const ledgerUrl = urlOf(`${name}_ledger`);
const started = performance.now();
let failed = true;

// The members, by their place i: the rail, how their bank answers, and their price.
const railOf = (i: number): Rail => (["card", "direct_debit", "bank"] as const)[i % 3];
const outcomeOf = (i: number): Outcome => (i % 20 === 7 ? "short" : i % 50 === 13 ? "gone" : "pays");
const priceOf = (i: number) => (Math.floor(i / 3) % 2 === 0 ? 2_000 : 1_750);

try {
  const database = await openDatabase({ databaseUrl: url, pgliteDir: "" });
  // The providers' database: the same schema (the sandboxes' tables), none of our rows.
  const ledgerDatabase = await openDatabase({ databaseUrl: ledgerUrl, pgliteDir: "" });
  await ledgerDatabase.close();
  const { db } = database;
  const [org] = await db.insert(organisations).values({ name: "Crash Trial" }).returning();
  const [gym] = await db
    .insert(gyms)
    .values({ organisation_id: org.id, name: "Trial", card_surcharge_basis_points: 150, card_surcharge_fixed: 30 })
    .returning();
  const [offering] = await db.insert(offerings).values({ organisation_id: org.id, name: "Anytime", type: "24_7" }).returning();
  const priceIds = new Map<number, number>();
  for (const amount of [2_000, 1_750]) {
    const [price] = await db
      .insert(prices)
      .values({ organisation_id: org.id, offering_id: offering.id, amount, billing_frequency: "weekly" })
      .returning();
    priceIds.set(amount, price.id);
  }
  await db.insert(destination_accounts).values({ organisation_id: org.id, gym_id: gym.id, name: "Trial Ltd", bank_account_number: "01-0123-0456789-00" });
  const card = { pays: "pm_card_visa", short: "pm_card_chargeDeclinedInsufficientFunds", gone: "pm_card_chargeDeclinedLostCard" };
  // The sandboxes' test accounts behave by their last four digits (9995 short, 9987 closed); one that pays ends 1234.
  const account = (i: number) => `12-3456-0${String(i % 1_000).padStart(3, "0")}${{ pays: "1234", short: "9995", gone: "9987" }[outcomeOf(i)]}-00`;
  const typeOf = (i: number): {
    type: "stripe_card" | "gocardless_bank_account" | "bank_account";
    details: Record<string, string>;
  } => {
    if (railOf(i) === "card")
      return { type: "stripe_card", details: { payment_method: card[outcomeOf(i)] } };
    if (railOf(i) === "direct_debit")
      return { type: "gocardless_bank_account", details: { name: `trial ${i}`, account_number: account(i), mandate_id: `MDTRIAL${i}` } };
    return { type: "bank_account", details: { name: `trial ${i}`, account_number: account(i), status: "active", akahu_account_id: `acc_trial_${i}` } };
  };
  const userIds = await insertReturningIds(db, users, Array.from({ length: count }, (_, i) => ({ name: `trial ${i}`, email: `trial${i}@example.com` })));
  const typeIds = await insertReturningIds(db, payment_types, userIds.map((id, i) => ({ organisation_id: org.id, user_id: id, ...typeOf(i) })));
  await insertAll(
    db,
    bank_connections,
    userIds
      .filter((_, i) => railOf(i) === "bank")
      .map((id) => ({ organisation_id: org.id, user_id: id, access_token: `user_token_trial_${id}` }))
  );
  await insertAll(
    db,
    organisation_users,
    userIds.map((id, i) => ({ organisation_id: org.id, user_id: id, role: "member", home_gym_id: gym.id, default_payment_type_id: typeIds[i] }))
  );
  await insertAll(
    db,
    subscriptions,
    userIds.map((id, i) => ({
      organisation_id: org.id,
      user_id: id,
      gym_id: gym.id,
      price_id: priceIds.get(priceOf(i))!,
      billing_anchor: "2026-01-05",
      current_period_start: startOfLocalDay("2026-01-05"),
      current_period_end: startOfLocalDay(FIRST_DAY),
    }))
  );
  console.log(
    `crash trial: ${count.toLocaleString("en")} weekly subscriptions, billed ${FIRST_DAY} to ${lastDay}, ${kills} kills; the providers' books in ${name}_ledger`
  );

  // The kills' targets: days spread evenly over the range (with at least as many kills as days, every day has one;
  // with fewer, one at a random day of each slice), the six steps in turn (shuffled), in the order they come.
  const days: string[] = [];
  for (let d = FIRST_DAY; d <= lastDay; d = addCalendarDays(d, 1)) days.push(d);
  const steps = [...RUN_STEPS].sort(() => Math.random() - 0.5);
  const targets = Array.from({ length: kills }, (_, k) => ({
    day: days[Math.min(days.length - 1, Math.floor(((k + (kills >= days.length ? 0 : Math.random())) * days.length) / Math.max(kills, 1)))],
    step: steps[k % steps.length],
  }));
  const order = (day: string, step: RunStep) => `${day}:${RUN_STEPS.indexOf(step)}`;
  targets.sort((a, b) => (order(a.day, a.step) < order(b.day, b.step) ? -1 : 1));
  // Each step's usual length (ms), learned as the children announce them: a kill waits a random part of it.
  const usual = new Map<RunStep, number>(RUN_STEPS.map((s) => [s, 20]));

  const script = fileURLToPath(import.meta.url);
  const child = (from: string) =>
    spawn(process.execPath, ["--import", "tsx", script, "--child", url, ledgerUrl, from, lastDay], { stdio: ["ignore", "pipe", "inherit"] });
  const landed: { day: string; step: RunStep }[] = [];
  let finishedEarly = 0;
  let resumeFrom = FIRST_DAY;
  const asked: OurRefund[] = [];
  for (const [k, target] of targets.entries()) {
    // Midway, refunds are written down as staff's are (pending, with their key), for the runs to come to pursue.
    if (k === Math.floor(kills / 2)) asked.push(...(await askRefunds(db, org.id)));
    // A child that finishes before its kill lands (the target was the last moments of the range) is started again
    // from the target's day, up to five times.
    for (let attempt = 0; attempt < 5; attempt++) {
      const proc = child(resumeFrom);
      const result = await new Promise<{ day: string; step: RunStep } | null>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        let current: { day: string; step: RunStep; at: number } | null = null;
        createInterface({ input: proc.stdout }).on("line", (line) => {
          const m = /^day (\S+) step (\S+)$/.exec(line);
          if (!m) return;
          const now = performance.now();
          if (current) usual.set(current.step, Math.max(usual.get(current.step)! * 0.9, now - current.at));
          current = { day: m[1], step: m[2] as RunStep, at: now };
          if (!timer && order(current.day, current.step) >= order(target.day, target.step)) {
            timer = setTimeout(() => proc.kill("SIGKILL"), Math.random() * usual.get(current.step)!);
          }
        });
        proc.on("exit", (code, signal) => {
          clearTimeout(timer);
          if (signal === "SIGKILL") return resolve(current && { day: current.day, step: current.step });
          if (code !== 0) return reject(new Error(`the billing process failed (exit ${code})`));
          resolve(null);
        });
      });
      if (result) {
        landed.push(result);
        resumeFrom = result.day;
        if (landed.length % 10 === 0) console.log(`  ${landed.length} kills, the last at ${result.day} ${result.step}, ${((performance.now() - started) / 1000).toFixed(0)} s`);
        break;
      }
      finishedEarly++;
      resumeFrom = target.day;
    }
  }
  const last = child(resumeFrom);
  last.stdout.resume();
  await new Promise<void>((resolve, reject) => last.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the last billing run failed (exit ${code})`)))));

  // The reckoning: our payments, the providers' books as each would answer at the last run, and the reference.
  const rows = async <T>(text: string) => rowsOf<T>(await db.execute(text));
  const ours = (
    await rows<OurPayment & { subscriptionId: number }>(`
    select idempotency_key as key, subscription_id as "subscriptionId", attempt,
      to_char(period_start_at at time zone 'Pacific/Auckland', 'YYYY-MM-DD') as "periodStart",
      to_char(created_at at time zone 'Pacific/Auckland', 'YYYY-MM-DD') as day,
      amount + surcharge as amount, status, coalesce(stripe_id, gocardless_payment_id, akahu_payment_id) as "providerId"
    from payments where idempotency_key is not null`)
  ).map((p) => ({ ...p, subscriptionId: Number(p.subscriptionId), attempt: Number(p.attempt), amount: Number(p.amount) }));
  const ledgerDb = await openDatabase({ databaseUrl: ledgerUrl, pgliteDir: "", migrate: false });
  const books = await ledgerDb.db.select().from(sandbox_ledger);
  await ledgerDb.close();
  const endedAt = new Date(startOfLocalDay(lastDay).getTime() + 10 * 3_600_000);
  const answerOf = (l: typeof sandbox_ledger.$inferSelect): ChargeResult => {
    if (l.provider === "gocardless") return directDebitResult(sandboxDirectDebitAt(l, endedAt));
    if (l.provider === "akahu") return bankPaymentResult(sandboxBankPaymentAt(l, endedAt));
    return l.status === "succeeded"
      ? { status: "succeeded", id: l.object_id }
      : {
          status: "declined",
          id: l.object_id,
          declineCode: l.decline_code ?? "",
          message: "",
        };
  };
  const charges: LedgerCharge[] = books
    .filter((l) => ["stripe", "gocardless", "akahu"].includes(l.provider))
    .map((l) => ({ provider: l.provider, key: l.idempotency_key, objectId: l.object_id, amount: l.amount, answer: answerOf(l).status }));
  const ledgerRefunds: LedgerRefund[] = books
    .filter((l) => l.provider === "stripe_refund" || l.provider === "gocardless_refund")
    .map((l) => ({
      provider: l.provider,
      key: l.idempotency_key,
      objectId: l.object_id,
      amount: l.amount,
      answer: l.provider === "stripe_refund" || endedAt.getTime() >= l.created_at.getTime() + 86_400_000 ? "succeeded" : "pending",
    }));
  const ourRefunds: OurRefund[] = (await db.select().from(payment_adjustments))
    .filter((a) => a.kind === "refund")
    .map((a) => ({ providerId: a.provider_id, key: a.idempotency_key, amount: a.amount, status: a.status }));
  const subs = await db.select({ id: subscriptions.id, user_id: subscriptions.user_id }).from(subscriptions);
  const place = new Map(userIds.map((id, i) => [id, i]));
  const profiles = new Map<string, ReturnType<typeof expectedMember>>();
  const expected: ExpectedSubscription[] = subs.map((s) => {
    const i = place.get(s.user_id)!;
    const profile = `${railOf(i)}:${outcomeOf(i)}:${priceOf(i)}`;
    if (!profiles.has(profile)) profiles.set(profile, expectedMember(railOf(i), outcomeOf(i), priceOf(i), FIRST_DAY, lastDay));
    return { subscriptionId: s.id, ...profiles.get(profile)! };
  });
  const counters = compare(ours, charges, expected, { ours: ourRefunds, ledger: ledgerRefunds, asked });
  const expectedCents = expected.reduce((sum, e) => sum + e.periods.reduce((s, p) => s + p.attempts.reduce((a, t) => a + t.amount, 0), 0), 0);
  const chargedCents = charges.reduce((sum, c) => sum + c.amount, 0);
  await database.close();

  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const byWeek = new Map<number, number>();
  const byStep = new Map<string, number>(RUN_STEPS.map((s) => [s, 0]));
  for (const l of landed) {
    const week = Math.floor(days.indexOf(l.day) / 7) + 1;
    byWeek.set(week, (byWeek.get(week) ?? 0) + 1);
    byStep.set(l.step, (byStep.get(l.step) ?? 0) + 1);
  }
  const daysHit = new Set(landed.map((l) => l.day)).size;
  console.log(
    `crash trial: ${landed.length} kills (${finishedEarly} runs finished before their kill), ${charges.length.toLocaleString("en")} provider charges ` +
      `(${(chargedCents / 100).toLocaleString("en")} $ asked; the reference expects ${(expectedCents / 100).toLocaleString("en")} $), ` +
      `${ledgerRefunds.length} provider refunds, in ${seconds} s\n` +
      `  kills by week: ${[...Array(weeks).keys()].map((w) => `${w + 1}:${byWeek.get(w + 1) ?? 0}`).join(" ")} (${daysHit} of ${days.length} days)\n` +
      `  kills by step: ${[...byStep].map(([s, n]) => `${s} ${n}`).join(", ")}\n` +
      Object.entries(counters)
        .map(([k, n]) => `  ${COUNTER_LABELS[k as keyof typeof COUNTER_LABELS]}: ${n}`)
        .join("\n")
  );
  failed = total(counters) > 0 || landed.length < kills || expectedCents !== chargedCents;
  if (landed.length < kills) console.log(`  only ${landed.length} of ${kills} kills landed: the runs finished too fast`);
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`drop database if exists ${name}_ledger with (force)`);
  await admin.end();
}
console.log(failed ? "crash trial: FAILED" : "crash trial: OK (exactly once, as the reference expects)");
process.exit(failed ? 1 : 0);

/**
 * A few refunds written down as staff's are (decision 0041: pending, with their key, before the provider is asked):
 * part of six paid card payments and six paid direct debits. The billing runs to come ask the providers.
 */
async function askRefunds(db: Awaited<ReturnType<typeof openDatabase>>["db"], organisationId: number): Promise<OurRefund[]> {
  const paid = rowsOf<{
    id: number;
    gym_id: number;
    user_id: number;
    type: string;
  }>(
    await db.execute(`
      (select p.id, p.gym_id, p.user_id, t.type from payments p join payment_types t on t.id = p.payment_type_id
        where p.status = 'sent' and t.type = 'stripe_card' order by p.id limit 6)
      union all
      (select p.id, p.gym_id, p.user_id, t.type from payments p join payment_types t on t.id = p.payment_type_id
        where p.status = 'sent' and t.type = 'gocardless_bank_account' order by p.id limit 6)`)
  );
  const refunds = paid.map((p) => ({
    organisation_id: organisationId,
    gym_id: p.gym_id,
    user_id: p.user_id,
    payment_id: p.id,
    kind: "refund" as const,
    status: "pending" as const,
    amount: 500,
    source: "staff" as const,
    method: p.type === "stripe_card" ? "stripe" : "gocardless",
    idempotency_key: `trial-refund:${p.id}`,
  }));
  if (refunds.length) await db.insert(payment_adjustments).values(refunds);
  return refunds.map((r) => ({ providerId: null, key: r.idempotency_key, amount: r.amount, status: "pending" }));
}
