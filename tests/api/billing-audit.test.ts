import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay, startOfLocalDay } from "../../domain/dates";
import { sendBillingNotices } from "../../server/billing/notices";
import { recordOutcomes } from "../../server/billing/outcomes";
import { billingRun, billingRunUntil, planRetries } from "../../server/billing/run";
import { bank_connections, destination_accounts, mail_outbox, organisations, payment_types, payments, sandbox_ledger, subscriptions, users } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { simulatedClock, systemClock } from "../../server/core/providers/clock";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addMember, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup } from "./harness";

/**
 * The money audit's findings on the billing run (issue 28), each played as the auditor found it. Every test here
 * failed before its fix: the run charged a day whose access had stopped, bank retries never reached the bank,
 * failures with an old row were never retried, and retries were planned past the grace period's end.
 */
let env: Awaited<ReturnType<typeof setup>>;
let n = 0;
const clock = simulatedClock(new Date("2026-01-12T00:00:00Z"));
let providers: ReturnType<typeof sandboxProviders>;

beforeAll(async () => {
  env = await setup();
  providers = sandboxProviders(env.db, clock);
});
afterAll(() => env.close());

const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);

/** An organisation with one gym and a weekly price, its failed-payment grace period `graceDays` long. */
async function gymWith(graceDays: number) {
  const org = await makeOrganisation(env.db, { name: `Audit Gyms ${++n}` });
  await env.db.update(organisations).set({ failed_payment_grace_period: graceDays, failed_payment_grace_period_unit: "day" }).where(eq(organisations.id, org.id));
  const gym = await makeGym(env.db, org.id, `Audit ${n}`);
  await env.db.insert(destination_accounts).values({ organisation_id: org.id, gym_id: gym.id, name: "Audit Ltd", bank_account_number: "01-0123-0456789-00" });
  const weekly = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_500, billing_frequency: "weekly" });
  return { org, gym, weekly };
}

/** A weekly member since Monday 5 January 2026 (first week paid), paying by card or from their bank. */
async function member(g: Awaited<ReturnType<typeof gymWith>>, pay: { card: string } | { bank: string }, extra: Partial<typeof subscriptions.$inferInsert> = {}) {
  const user = await makeUser(env.db, { name: `audit member ${++n}`, email: `audit${n}@example.com` });
  const [pt] = await env.db
    .insert(payment_types)
    .values(
      "card" in pay
        ? { organisation_id: g.org.id, user_id: user.id, type: "stripe_card", details: { type: "visa", last_four: pay.card.slice(-4), payment_method: pay.card } }
        : { organisation_id: g.org.id, user_id: user.id, type: "bank_account", details: { name: "Audit Member", account_number: pay.bank, status: "active", akahu_account_id: `acc_sandbox_${n}` } },
    )
    .returning();
  await addMember(env.db, user.id, g.org.id, g.gym.id, { default_payment_type_id: pt.id });
  if ("bank" in pay) await env.db.insert(bank_connections).values({ organisation_id: g.org.id, user_id: user.id, access_token: `user_token_sandbox_${n}` });
  const s = await makeSubscription(env.db, g.weekly, user.id, g.gym.id, {
    billing_anchor: "2026-01-05",
    current_period_start: startOfLocalDay("2026-01-05"),
    current_period_end: startOfLocalDay("2026-01-12"),
    ...extra,
  });
  await makePayment(env.db, s, { amount: 2_500, period_start_at: startOfLocalDay("2026-01-05"), period_end_at: startOfLocalDay("2026-01-12"), status: "sent" });
  return s;
}

const rowsOf = async (subscriptionId: number) =>
  (await env.db.select().from(payments).where(eq(payments.subscription_id, subscriptionId))).sort(
    (a, b) => a.period_start_at!.getTime() - b.period_start_at!.getTime() || a.attempt - b.attempt,
  );
const summary = async (subscriptionId: number) =>
  (await rowsOf(subscriptionId)).filter((p) => p.idempotency_key).map((p) => [localDay(p.period_start_at!), p.attempt, p.status, p.expected_charge_date]);
const subscription = async (id: number) => (await env.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];

describe("finding 1: no day is charged after access stopped", () => {
  it("stops access that ends when the day begins before that day's period is planned or charged", async () => {
    const g = await gymWith(7);
    // Week of 12 January failed for good (a lost card, no retries); the grace period ends when Monday 19 begins,
    // the very day the next week starts. The card on file would pay it now, which is the danger.
    const s = await member(g, { card: "pm_card_visa" }, { current_period_start: startOfLocalDay("2026-01-12"), current_period_end: startOfLocalDay("2026-01-19"), grace_period_ends_at: startOfLocalDay("2026-01-19") });
    await makePayment(env.db, s, {
      amount: 2_500,
      status: "failed",
      error_status: "lost_card",
      period_start_at: startOfLocalDay("2026-01-12"),
      period_end_at: startOfLocalDay("2026-01-19"),
      idempotency_key: `charge:${s.id}:2026-01-12:0`,
      created_at: at("2026-01-12"),
    });
    const report = await billingRun(env.db, providers, at("2026-01-19"));
    expect(report.lapsed).toBe(1);
    expect((await subscription(s.id)).upcoming_state).toBe("failed");
    // Nothing for the week of 19 January: not planned, not charged, nothing at the provider.
    expect((await rowsOf(s.id)).map((p) => localDay(p.period_start_at!))).toEqual(["2026-01-05", "2026-01-12"]);
    const ledger = (await env.db.select().from(sandbox_ledger)).filter((r) => r.idempotency_key.startsWith(`charge:${s.id}:2026-01-19`));
    expect(ledger).toEqual([]);
  });
});

describe("finding 3: a bank payment's retry reaches the bank", () => {
  it("makes a new bank payment for each retry instead of asking after the declined one", async () => {
    const g = await gymWith(14);
    // An account part ending 0002: the bank refuses (a soft decline, retried).
    const s = await member(g, { bank: "12-3456-0000002-00" });
    // The bank answers two minutes after each payment is made, so each run learns of the try the run before made.
    await billingRunUntil(env.db, providers, "2026-01-12", "2026-01-15");
    const rows = (await rowsOf(s.id)).filter((p) => p.idempotency_key);
    expect(rows.map((p) => [p.attempt, p.status, p.expected_charge_date])).toEqual([
      [0, "failed", "2026-01-12"],
      [1, "failed", "2026-01-14"],
    ]);
    // Each try is its own payment at the bank, with its own key: two in the sandbox's ledger, two different ids.
    expect(new Set(rows.map((p) => p.akahu_payment_id)).size).toBe(2);
    const ledger = (await env.db.select().from(sandbox_ledger).where(eq(sandbox_ledger.provider, "akahu"))).filter((r) => r.idempotency_key.startsWith(`charge:${s.id}:`));
    expect(ledger.map((r) => r.idempotency_key).sort()).toEqual([`charge:${s.id}:2026-01-12:0`, `charge:${s.id}:2026-01-12:1`]);
  });
});

describe("a day's run done twice makes no try a single run did not (the crash trial, decision 0043)", () => {
  it("makes the try an answer heard while charging made due, in the same run", async () => {
    const g = await gymWith(7);
    // Short of funds at the bank: each try's answer is heard at the next day's run. The first failure is heard on
    // the 13th: tries on the 14th, 16th, 18th and the last day of access, the 19th, when the 18th's answer comes.
    const s = await member(g, { bank: "12-3456-0009995-00" });
    const expected = [
      ["2026-01-12", 0, "failed", "2026-01-12"],
      ["2026-01-12", 1, "failed", "2026-01-14"],
      ["2026-01-12", 2, "failed", "2026-01-16"],
      ["2026-01-12", 3, "failed", "2026-01-18"],
      ["2026-01-12", 4, "pending", "2026-01-19"],
      ["2026-01-19", 0, "pending", "2026-01-19"],
    ];
    await billingRunUntil(env.db, providers, "2026-01-12", "2026-01-19");
    // One run on the 19th made the last try (before, only a second run that day did).
    expect(await summary(s.id)).toEqual(expected);
    // The 19th's run again (after a crash, or from a second server): nothing more.
    await billingRun(env.db, providers, at("2026-01-19"));
    expect(await summary(s.id)).toEqual(expected);
    await billingRunUntil(env.db, providers, "2026-01-20", "2026-01-25");
    expect(await summary(s.id)).toEqual(expected.map(([period, attempt, , day]) => [period, attempt, "failed", day]));
    expect((await subscription(s.id)).upcoming_state).toBe("failed");
  });
});

describe("finding 4: every soft decline is retried, whatever its row's history", () => {
  it("retries a first charge converted from an `upcoming` row made weeks before", async () => {
    const g = await gymWith(14);
    const s = await member(g, { card: "pm_card_chargeDeclinedInsufficientFunds" });
    // Shown to staff as upcoming since 20 December; it becomes the charge on 12 January and is declined.
    await makePayment(env.db, s, {
      amount: 2_500,
      status: "upcoming",
      period_start_at: startOfLocalDay("2026-01-12"),
      period_end_at: startOfLocalDay("2026-01-19"),
      created_at: at("2025-12-20"),
    });
    await billingRun(env.db, providers, at("2026-01-12"));
    await billingRun(env.db, providers, at("2026-01-13"));
    expect((await summary(s.id)).slice(0, 2)).toEqual([
      ["2026-01-12", 0, "failed", "2026-01-12"],
      ["2026-01-12", 1, "failed", "2026-01-13"],
    ]);
  });

  it("retries a failure written before the engine (no idempotency key), counted from when it failed", async () => {
    const g = await gymWith(14);
    const s = await member(g, { card: "pm_card_visa" }, { current_period_start: startOfLocalDay("2026-01-12"), current_period_end: startOfLocalDay("2026-01-19"), grace_period_ends_at: startOfLocalDay("2026-01-26") });
    await makePayment(env.db, s, {
      amount: 2_500,
      status: "failed",
      error_status: "insufficient_funds",
      period_start_at: startOfLocalDay("2026-01-12"),
      period_end_at: startOfLocalDay("2026-01-19"),
      created_at: at("2026-01-02"),
      failed_at: at("2026-01-12"),
    });
    expect(await planRetries(env.db, at("2026-01-13"))).toBe(1);
    await billingRun(env.db, providers, at("2026-01-13"));
    const retry = (await rowsOf(s.id)).find((p) => p.attempt === 1)!;
    expect([retry.status, retry.idempotency_key, retry.expected_charge_date]).toEqual(["sent", `charge:${s.id}:2026-01-12:1`, "2026-01-13"]);
    // Paid: nothing is owed, so the grace period is over.
    expect((await subscription(s.id)).grace_period_ends_at).toBeNull();
  });

  it("fills in failed_at for a writer that does not say (the database's trigger): the row's own time", async () => {
    const g = await gymWith(14);
    const s = await member(g, { card: "pm_card_visa" });
    const p = await makePayment(env.db, s, { amount: 100, status: "failed", created_at: at("2026-01-03") });
    expect(p.failed_at).toEqual(at("2026-01-03"));
  });
});

describe("finding 5: retries only while the member has access, and the e-mail says the same", () => {
  it("with a 4-day grace period, tries on days 1 and 3 and not on day 5, and stops access on day 4", async () => {
    const g = await gymWith(4);
    const s = await member(g, { card: "pm_card_chargeDeclinedInsufficientFunds" });
    await billingRunUntil(env.db, providers, "2026-01-12", "2026-01-18");
    expect(await summary(s.id)).toEqual([
      ["2026-01-12", 0, "failed", "2026-01-12"],
      ["2026-01-12", 1, "failed", "2026-01-13"],
      ["2026-01-12", 2, "failed", "2026-01-15"],
    ]);
    expect((await subscription(s.id)).upcoming_state).toBe("failed");
  });

  it("lets a member whose retry was still under way when access stopped back in once it is paid, from the period running that day", async () => {
    const g = await gymWith(4);
    const s = await member(g, { card: "pm_card_visa" }, { current_period_start: startOfLocalDay("2026-01-12"), current_period_end: startOfLocalDay("2026-01-19"), upcoming_state: "failed" });
    await makePayment(env.db, s, { amount: 2_500, status: "failed", error_status: "insufficient_funds", period_start_at: startOfLocalDay("2026-01-12"), period_end_at: startOfLocalDay("2026-01-19"), attempt: 0 });
    const retry = await makePayment(env.db, s, { amount: 2_500, status: "pending", period_start_at: startOfLocalDay("2026-01-12"), period_end_at: startOfLocalDay("2026-01-19"), attempt: 1, is_retry: true, idempotency_key: `charge:${s.id}:2026-01-12:1` });
    await recordOutcomes(env.db, [{ kind: "paid", paymentId: retry.id, subscriptionId: s.id, provider: "gocardless", reference: "PM_RETRY" }], at("2026-01-28"));
    const after = await subscription(s.id);
    expect(after.upcoming_state).toBeNull();
    // Charged again from the week running on the 28th; the two weeks it was stopped are not.
    expect(localDay(after.current_period_end!)).toBe("2026-01-26");
  });

  it("tells the member of a try only when it comes before their access stops, and tells them of a converted first charge too", async () => {
    // A 1-day grace period: the failure on the 12th stops access when the 13th begins, the first retry's day.
    const g = await gymWith(1);
    const s = await member(g, { card: "pm_card_chargeDeclinedInsufficientFunds" });
    await makePayment(env.db, s, { amount: 2_500, status: "upcoming", period_start_at: startOfLocalDay("2026-01-12"), period_end_at: startOfLocalDay("2026-01-19"), created_at: at("2025-12-20") });
    await billingRun(env.db, providers, at("2026-01-12"));
    const url = "http://signup.localhost:3000/";
    await sendBillingNotices(env.db, outboxMailer(env.db), sandboxProviders(env.db, systemClock, url), at("2026-01-12", 11), { origin: url.replace(/\/$/, ""), secret: "billing-audit-test-secret" });
    const [{ email }] = await env.db.select({ email: users.email }).from(users).where(eq(users.id, s.user_id));
    const [mail] = await env.db.select({ text: mail_outbox.text }).from(mail_outbox).where(eq(mail_outbox.to, email));
    expect(mail?.text).toContain("keeps working until 13 Jan 2026");
    expect(mail?.text).not.toContain("We will try again");
    // And the run agrees: no try on the 13th, access stopped.
    await billingRun(env.db, providers, at("2026-01-13"));
    expect((await summary(s.id)).map(([, attempt]) => attempt)).toEqual([0]);
    expect((await subscription(s.id)).upcoming_state).toBe("failed");
  });
});
