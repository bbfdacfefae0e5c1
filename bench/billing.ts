/**
 * tsx bench/billing.ts (part of npm run bench): one billing run over 100,000 due subscriptions on PostgreSQL,
 * with the sandbox providers (their ledger written for every charge, as the real ones keep books).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/billing.ts [--subscriptions 100000] [--cards-only]
 *
 * Builds its own throwaway database next to DATABASE_URL's (dropped at the end): one organisation, 100,000
 * weekly members, a third each paying by card (Stripe), direct debit (GoCardless) and from their bank (Akahu)
 * (--cards-only: all by card, as the first figures were taken); 95 % pay, 3 % are short of funds, 2 % decline for
 * good; each has two weeks due. Then the run's steps, timed: planning (pending payments written), charging (every
 * provider call and its outcome: a card settles at once, a direct debit or bank payment is accepted and settles
 * later), and the whole run as charges sent a second, with the process's peak resident memory sampled every 50 ms.
 * Budget (issue 11): at least 2,000 charges a second, with memory bounded.
 */
import pg from "pg";
import { startOfLocalDay } from "../domain/dates";
import { billingRun } from "../server/billing/run";
import { openDatabase } from "../server/core/db/client";
import { bank_connections, destination_accounts, gyms, offerings, organisation_users, organisations, payment_types, prices, subscriptions, users } from "../server/core/db/schema";
import { insertAll, insertReturningIds } from "../server/seed/bulk-insert";
import { sandboxProviders } from "../server/core/providers/registry";
import { simulatedClock } from "../server/core/providers/clock";

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
    await db.insert(destination_accounts).values({ organisation_id: org.id, gym_id: gym.id, name: "Bench Ltd", bank_account_number: "01-0123-0456789-00" });
    const cardsOnly = process.argv.includes("--cards-only");
    const outcome = (i: number) => (i % 100 < 95 ? "pays" : i % 100 < 98 ? "short" : "gone");
    const card = { pays: "pm_card_visa", short: "pm_card_chargeDeclinedInsufficientFunds", gone: "pm_card_chargeDeclinedLostCard" };
    const account = (i: number) => `12-3456-0${{ pays: String(100_000 + (i % 900_000)).slice(-6), short: "009995", gone: "009987" }[outcome(i)]}-00`;
    const typeOf = (i: number): { type: "stripe_card" | "gocardless_bank_account" | "bank_account"; details: Record<string, string> } => {
      if (cardsOnly || i % 3 === 0) return { type: "stripe_card", details: { last_four: "4242", payment_method: card[outcome(i)] } };
      if (i % 3 === 1) return { type: "gocardless_bank_account", details: { name: `bench ${i}`, account_number: account(i), mandate_id: `MDBENCH${i}` } };
      return { type: "bank_account", details: { name: `bench ${i}`, account_number: account(i), status: "active", akahu_account_id: `acc_bench_${i}` } };
    };
    const userIds = await insertReturningIds(
      db,
      users,
      Array.from({ length: count }, (_, i) => ({ name: `bench member ${i}`, email: `bench${i}@example.com` })),
    );
    const typeIds = await insertReturningIds(
      db,
      payment_types,
      userIds.map((id, i) => ({ organisation_id: org.id, user_id: id, ...typeOf(i) })),
    );
    await insertAll(
      db,
      bank_connections,
      userIds.filter((_, i) => typeOf(i).type === "bank_account").map((id) => ({ organisation_id: org.id, user_id: id, access_token: `user_token_bench_${id}` })),
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
    const report = await billingRun(db, sandboxProviders(db, simulatedClock()), now);
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const sent = report.charged + report.declined + report.leftPending + report.awaiting;
    const perSecond = Math.round(sent / seconds);
    console.log(
      `billing${cardsOnly ? " (cards only)" : " (cards, direct debits, bank payments)"}: planned ${report.planned.toLocaleString("en")} payments in ${(report.ms.plan / 1000).toFixed(1)} s; ` +
        `sent ${sent.toLocaleString("en")} in ${(report.ms.charge / 1000).toFixed(1)} s: ${report.charged.toLocaleString("en")} paid, ${report.declined.toLocaleString("en")} declined, ` +
        `${(report.leftPending + report.awaiting).toLocaleString("en")} accepted and settling`,
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
