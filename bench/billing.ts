/**
 * tsx bench/billing.ts (part of npm run bench): one billing run over 100,000 due subscriptions on PostgreSQL,
 * with the sandbox card provider (its ledger written for every charge, as the real one keeps books).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/billing.ts [--subscriptions 100000]
 *
 * Builds its own throwaway database next to DATABASE_URL's (dropped at the end): one organisation, 100,000
 * weekly members on cards (95 % that succeed, 3 % insufficient funds, 2 % lost), each one period due. Then the
 * run's steps, timed: planning (pending payments written), charging (every provider call and its outcome), and
 * the whole run as charges a second, with the process's peak resident memory sampled every 50 ms.
 * Budget (issue 11): at least 2,000 charges a second, with memory bounded.
 */
import pg from "pg";
import { startOfLocalDay } from "../domain/dates";
import { billingRun } from "../server/billing/run";
import { openDatabase } from "../server/db/client";
import { gyms, offerings, organisation_users, organisations, payment_types, prices, subscriptions, users } from "../server/db/schema";
import { insertAll, insertReturningIds } from "../server/seed/bulk-insert";
import { sandboxCards } from "../server/providers/cards/sandbox";

const BUDGET_PER_SECOND = 2_000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base) {
    console.log("bench/billing.ts: skipped. It needs PostgreSQL: set DATABASE_URL (a throwaway database is made beside it).");
    return;
  }
  const count = arg("subscriptions", 100_000);
  const name = `gym_bench_billing_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" });
  const { db } = database;
  try {
    const loadStarted = performance.now();
    const [org] = await db.insert(organisations).values({ name: "Bench Billing" }).returning();
    const [gym] = await db.insert(gyms).values({ organisation_id: org.id, name: "Bench", card_surcharge_basis_points: 150 }).returning();
    const [offering] = await db.insert(offerings).values({ organisation_id: org.id, name: "Anytime", type: "24_7" }).returning();
    const [price] = await db.insert(prices).values({ organisation_id: org.id, offering_id: offering.id, amount: 2_500, billing_frequency: "weekly" }).returning();
    const card = (i: number) => (i % 100 < 95 ? "pm_card_visa" : i % 100 < 98 ? "pm_card_chargeDeclinedInsufficientFunds" : "pm_card_chargeDeclinedLostCard");
    const userIds = await insertReturningIds(
      db,
      users,
      Array.from({ length: count }, (_, i) => ({ name: `bench member ${i}`, email: `bench${i}@example.com` })),
    );
    const typeIds = await insertReturningIds(
      db,
      payment_types,
      userIds.map((id, i) => ({ organisation_id: org.id, user_id: id, type: "stripe_card" as const, details: { last_four: "4242", payment_method: card(i) } })),
    );
    await insertAll(
      db,
      organisation_users,
      userIds.map((id, i) => ({ organisation_id: org.id, user_id: id, role: "member", home_gym_id: gym.id, default_payment_type_id: typeIds[i] })),
    );
    // Paid until Monday 2 November 2026 and run on Monday 9 November: each has two weeks due.
    await insertAll(
      db,
      subscriptions,
      userIds.map((id) => ({
        organisation_id: org.id,
        user_id: id,
        gym_id: gym.id,
        price_id: price.id,
        billing_anchor: "2026-01-05",
        current_period_start: startOfLocalDay("2026-10-26"),
        current_period_end: startOfLocalDay("2026-11-02"),
      })),
    );
    await db.execute(`analyze`);
    console.log(`billing: ${count.toLocaleString("en")} due subscriptions loaded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const now = new Date(startOfLocalDay("2026-11-09").getTime() + 10 * 3_600_000);
    const t0 = performance.now();
    const report = await billingRun(db, sandboxCards(db), now);
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const perSecond = Math.round((report.charged + report.declined) / seconds);
    console.log(
      `billing: planned ${report.planned.toLocaleString("en")} payments in ${(report.ms.plan / 1000).toFixed(1)} s; ` +
        `charged ${report.charged.toLocaleString("en")} and declined ${report.declined.toLocaleString("en")} in ${(report.ms.charge / 1000).toFixed(1)} s`,
    );
    console.log(
      `billing: whole run ${seconds.toFixed(1)} s = ${perSecond.toLocaleString("en")} charges/s (budget ≥ ${BUDGET_PER_SECOND.toLocaleString("en")}) ` +
        `${perSecond >= BUDGET_PER_SECOND ? "OK" : "OVER BUDGET"}; peak RSS ${Math.round(peakRss / 1_048_576)} MB`,
    );
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
