import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCalendarDays, localDay, startOfLocalDay } from "../../domain/dates";
import { billingRun, billingRunUntil, chargePending, planCharges } from "../../server/billing/run";
import { payment_types, payments, sandbox_ledger, subscriptions } from "../../server/core/db/schema";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addMember, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { itRaces, setup } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
let org: { id: number };
let gym: { id: number };
let weekly: Awaited<ReturnType<typeof makePrice>>;
let n = 0;

beforeAll(async () => {
  env = await setup();
  org = await makeOrganisation(env.db, { name: "Billing Gyms" });
  gym = await makeGym(env.db, org.id, "Central");
  const offering = await makeOffering(env.db, org.id, { name: "Anytime" });
  weekly = await makePrice(env.db, offering, { amount: 1_999, billing_frequency: "weekly" });
});
afterAll(() => env.close());

/** A weekly member since Monday 5 January 2026, its first week charged, paying with `card`. */
async function member(card: string, extra: Partial<typeof subscriptions.$inferInsert> = {}) {
  const user = await makeUser(env.db, { name: `member ${++n}`, email: `member${n}@example.com` });
  const [pt] = await env.db
    .insert(payment_types)
    .values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { type: "visa", last_four: card.slice(-4), payment_method: card } })
    .returning();
  await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
  const s = await makeSubscription(env.db, weekly, user.id, gym.id, {
    billing_anchor: "2026-01-05",
    current_period_start: startOfLocalDay("2026-01-05"),
    current_period_end: startOfLocalDay("2026-01-12"),
    ...extra,
  });
  await makePayment(env.db, s, { amount: 1_999, period_start_at: startOfLocalDay("2026-01-05"), period_end_at: startOfLocalDay("2026-01-12"), status: "sent" });
  return s;
}

const paymentsOf = async (subscriptionId: number) =>
  (await env.db.select().from(payments).where(eq(payments.subscription_id, subscriptionId))).sort(
    (a, b) => a.period_start_at!.getTime() - b.period_start_at!.getTime(),
  );
const ledgerFor = async (subscriptionId: number) =>
  (await env.db.select().from(sandbox_ledger)).filter((r) => r.idempotency_key.startsWith(`charge:${subscriptionId}:`));
const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);

describe("the billing run", () => {
  it("charges each week that has come due, once, through the card provider, and moves the period on", async () => {
    const s = await member("pm_card_visa");
    const providers = sandboxProviders(env.db);
    await billingRun(env.db, providers, at("2026-01-26"));
    const rows = await paymentsOf(s.id);
    expect(rows.map((p) => [localDay(p.period_start_at!), p.status, p.amount, p.attempt])).toEqual([
      ["2026-01-05", "sent", 1_999, 0],
      ["2026-01-12", "sent", 1_999, 0],
      ["2026-01-19", "sent", 1_999, 0],
      ["2026-01-26", "sent", 1_999, 0],
    ]);
    const [after] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect(localDay(after.current_period_end!)).toBe("2026-02-02");
    // Run again the same day, and twice more: nothing is charged twice.
    await billingRun(env.db, providers, at("2026-01-26", 15));
    await billingRun(env.db, providers, at("2026-01-27"));
    expect(await paymentsOf(s.id)).toHaveLength(4);
    expect(await ledgerFor(s.id)).toHaveLength(3);
  });

  it("records a decline with its code and starts the organisation's grace period (7 days)", async () => {
    const s = await member("pm_card_chargeDeclinedInsufficientFunds");
    await billingRun(env.db, sandboxProviders(env.db), at("2026-01-12"));
    const [, charge] = await paymentsOf(s.id);
    expect([charge.status, charge.error_status]).toEqual(["failed", "insufficient_funds"]);
    const [after] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect(localDay(after.grace_period_ends_at!)).toBe("2026-01-19");
  });

  it("survives a crash between writing the payments and charging them, and between charging and writing the result", async () => {
    const s = await member("pm_card_visa");
    const providers = sandboxProviders(env.db);
    // Crash 1: the run planned the periods and died before charging.
    expect(await planCharges(env.db, at("2026-01-19"))).toBeGreaterThanOrEqual(2);
    expect((await paymentsOf(s.id)).filter((p) => p.status === "pending")).toHaveLength(2);
    // Crash 2: the provider charged one of them, and the run died before writing it down.
    const [first] = (await paymentsOf(s.id)).filter((p) => p.status === "pending");
    await providers.cards.charge({
      amount: first.amount,
      currency: "nzd",
      customer: null,
      paymentMethod: "pm_card_visa",
      idempotencyKey: first.idempotency_key!,
      description: "",
      metadata: {},
    });
    // The next runs, even two at once, charge each period exactly once.
    await chargePending(env.db, providers, at("2026-01-19", 11));
    await chargePending(env.db, providers, at("2026-01-19", 11));
    await billingRun(env.db, providers, at("2026-01-19", 12));
    expect((await paymentsOf(s.id)).map((p) => p.status)).toEqual(["sent", "sent", "sent"]);
    expect(await ledgerFor(s.id)).toHaveLength(2);
  });

  itRaces("charges each payment once when two charge steps run at once (two machines)", async () => {
    const s = await member("pm_card_visa");
    const providers = sandboxProviders(env.db);
    expect(await planCharges(env.db, at("2026-01-19"))).toBeGreaterThanOrEqual(2);
    await Promise.all([chargePending(env.db, providers, at("2026-01-19", 11)), chargePending(env.db, providers, at("2026-01-19", 11))]);
    expect((await paymentsOf(s.id)).map((p) => p.status)).toEqual(["sent", "sent", "sent"]);
    expect(await ledgerFor(s.id)).toHaveLength(2);
  });

  it("honours a pause (the next charge moves by its length), a cancellation and a scheduled price change", async () => {
    const providers = sandboxProviders(env.db);
    const paused = await member("pm_card_visa", { pause_start_at: startOfLocalDay("2026-01-07"), pause_end_at: startOfLocalDay("2026-01-21") });
    const cancelled = await member("pm_card_visa", { cancelled_at: startOfLocalDay("2026-01-08") });
    const offering = await makeOffering(env.db, org.id, { name: "Premium" });
    const dearer = await makePrice(env.db, offering, { amount: 2_499, billing_frequency: "weekly" });
    const changing = await member("pm_card_visa", { transition_to_price_id: dearer.id, transition_takes_effect_at: startOfLocalDay("2026-01-19") });
    await billingRun(env.db, providers, at("2026-01-26"));
    expect((await paymentsOf(paused.id)).map((p) => localDay(p.period_start_at!))).toEqual(["2026-01-05", "2026-01-26"]);
    expect(await paymentsOf(cancelled.id)).toHaveLength(1);
    expect((await paymentsOf(changing.id)).map((p) => p.amount)).toEqual([1_999, 1_999, 2_499, 2_499]);
  });

  it("turns the period's upcoming row into the charge rather than adding a second", async () => {
    const s = await member("pm_card_visa");
    await makePayment(env.db, s, {
      amount: 1_999,
      period_start_at: startOfLocalDay("2026-01-12"),
      period_end_at: startOfLocalDay("2026-01-19"),
      status: "upcoming",
    });
    await billingRun(env.db, sandboxProviders(env.db), at("2026-01-12"));
    expect((await paymentsOf(s.id)).map((p) => [localDay(p.period_start_at!), p.status])).toEqual([
      ["2026-01-05", "sent"],
      ["2026-01-12", "sent"],
    ]);
  });

  it("retries a soft decline 1, 3, 5 and 7 days after it, ends the grace period when a retry is paid, and never retries a hard one", async () => {
    const providers = sandboxProviders(env.db);
    const short = await member("pm_card_chargeDeclinedInsufficientFunds");
    const lost = await member("pm_card_chargeDeclinedLostCard");
    const attempts = async (id: number) =>
      (await paymentsOf(id))
        .filter((p) => localDay(p.period_start_at!) === "2026-01-12")
        .sort((a, b) => a.attempt - b.attempt)
        .map((p) => [p.attempt, p.status, localDay(p.created_at)]);
    await billingRun(env.db, providers, at("2026-01-12"));
    await billingRun(env.db, providers, at("2026-01-12", 20)); // the same day: nothing yet
    await billingRun(env.db, providers, at("2026-01-13"));
    expect(await attempts(short.id)).toEqual([
      [0, "failed", "2026-01-12"],
      [1, "failed", "2026-01-13"],
    ]);
    // The member tops up their card; the next try is 3 days after the first failure, not the day after the last.
    await env.db
      .update(payment_types)
      .set({ details: { last_four: "4242", payment_method: "pm_card_visa" } })
      .where(eq(payment_types.user_id, short.user_id));
    await billingRun(env.db, providers, at("2026-01-14"));
    expect(await attempts(short.id)).toHaveLength(2);
    await billingRun(env.db, providers, at("2026-01-15"));
    expect(await attempts(short.id)).toEqual([
      [0, "failed", "2026-01-12"],
      [1, "failed", "2026-01-13"],
      [2, "sent", "2026-01-15"],
    ]);
    const [paidUp] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, short.id));
    expect(paidUp.grace_period_ends_at).toBeNull();
    // A lost card is not retried, however long we wait, and its grace period runs.
    await billingRun(env.db, providers, at("2026-01-18"));
    expect(await attempts(lost.id)).toEqual([[0, "failed", "2026-01-12"]]);
    const [stillOwing] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, lost.id));
    expect(localDay(stillOwing.grace_period_ends_at!)).toBe("2026-01-19");
  });

  it("stops retrying when the schedule is spent: four retries in the week after the failure, the last on the last day of access", async () => {
    const providers = sandboxProviders(env.db);
    const s = await member("pm_card_chargeDeclinedInsufficientFunds");
    // A week's grace from the 12th: access stops as the 19th begins, so the 7th day's try is made on the 18th.
    for (const day of ["2026-01-12", "2026-01-13", "2026-01-15", "2026-01-17", "2026-01-18", "2026-01-19", "2026-01-21", "2026-01-25"])
      await billingRun(env.db, providers, at(day));
    const tries = (await paymentsOf(s.id)).filter((p) => localDay(p.period_start_at!) === "2026-01-12");
    expect(tries.map((p) => [p.attempt, p.status])).toEqual([
      [0, "failed"],
      [1, "failed"],
      [2, "failed"],
      [3, "failed"],
      [4, "failed"],
    ]);
  });

  it("moves time on a day at a time: a weekly member over February is charged each Monday", async () => {
    const s = await member("pm_card_visa", {
      billing_anchor: "2026-02-02",
      current_period_start: startOfLocalDay("2026-02-02"),
      current_period_end: startOfLocalDay("2026-02-09"),
    });
    const report = await billingRunUntil(env.db, sandboxProviders(env.db), "2026-02-01", "2026-02-28");
    expect(report.days).toBe(28);
    expect((await paymentsOf(s.id)).filter((p) => p.status === "sent").map((p) => localDay(p.period_start_at!))).toEqual([
      "2026-01-05",
      "2026-02-09",
      "2026-02-16",
      "2026-02-23",
    ]);
  });

  it("puts the subscription on the new price once the change's day is charged, and forgets the change", async () => {
    const offering = await makeOffering(env.db, org.id, { name: "Off-peak" });
    const cheaper = await makePrice(env.db, offering, { amount: 1_499, billing_frequency: "weekly" });
    const s = await member("pm_card_visa", {
      transition_to_price_id: cheaper.id,
      transition_takes_effect_at: startOfLocalDay("2026-01-19"),
      force_price_amount: 1_800,
    });
    await billingRun(env.db, sandboxProviders(env.db), at("2026-01-12"));
    let [now] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect([now.price_id, now.transition_to_price_id, now.force_price_amount]).toEqual([weekly.id, cheaper.id, 1_800]);
    await billingRun(env.db, sandboxProviders(env.db), at("2026-01-26"));
    [now] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect([now.price_id, now.transition_to_price_id, now.transition_takes_effect_at, now.force_price_amount]).toEqual([cheaper.id, null, null, null]);
    expect((await paymentsOf(s.id)).map((p) => p.amount)).toEqual([1_999, 1_800, 1_499, 1_499]);
  });

  it("never applies a scheduled change to a price of another billing frequency: the member stays on their price (issue 28, audit finding 6)", async () => {
    const offering = await makeOffering(env.db, org.id, { name: "Monthly plan" });
    const monthly = await makePrice(env.db, offering, { amount: 6_999, billing_frequency: "monthly" });
    // Written straight to the database: no path of the app makes one any more.
    const s = await member("pm_card_visa", { transition_to_price_id: monthly.id, transition_takes_effect_at: startOfLocalDay("2026-01-19") });
    await planCharges(env.db, at("2026-01-26"));
    const [now] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect([now.price_id, localDay(now.current_period_end!)]).toEqual([weekly.id, "2026-02-02"]);
    expect((await paymentsOf(s.id)).map((p) => [localDay(p.period_start_at!), localDay(p.period_end_at!), p.amount])).toEqual([
      ["2026-01-05", "2026-01-12", 1_999],
      ["2026-01-12", "2026-01-19", 1_999],
      ["2026-01-19", "2026-01-26", 1_999],
      ["2026-01-26", "2026-02-02", 1_999],
    ]);
  });

  it("carries what is owed on the next payments, and stops access when the grace period runs out unpaid", async () => {
    const providers = sandboxProviders(env.db);
    const s = await member("pm_card_chargeDeclinedLostCard");
    await billingRun(env.db, providers, at("2026-01-12"));
    // A fortnight's grace (as an organisation may set): access lasts until the 26th begins.
    await env.db
      .update(subscriptions)
      .set({ grace_period_ends_at: startOfLocalDay("2026-01-26") })
      .where(eq(subscriptions.id, s.id));
    await billingRun(env.db, providers, at("2026-01-25"));
    // Still inside the grace period: the next week is charged, and carries the debt.
    expect(await paymentsOf(s.id)).toHaveLength(3);
    // Access stops as the 26th begins, before that day's week is planned: it is never charged (issue 28, finding 1).
    const report = await billingRun(env.db, providers, at("2026-01-26"));
    expect(report.lapsed).toBeGreaterThanOrEqual(1);
    const rows = await paymentsOf(s.id);
    expect(rows.map((p) => [localDay(p.period_start_at!), p.status, p.balance_owing, p.periods_owing])).toEqual([
      ["2026-01-05", "sent", 0, 0],
      ["2026-01-12", "failed", 0, 0],
      ["2026-01-19", "failed", 1_999, 1],
    ]);
    const [after] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect([after.upcoming_state, after.grace_period_ends_at]).toEqual(["failed", null]);
    // Access has stopped: nothing more is charged or retried until the debt is settled.
    await billingRunUntil(env.db, providers, "2026-01-27", "2026-02-10");
    expect(await paymentsOf(s.id)).toHaveLength(3);
  });
});

describe("a year of the billing run", () => {
  it("charges a weekly, a monthly, a term and a paid-in-full member every due period, through a pause, retries and a lost card", async () => {
    const providers = sandboxProviders(env.db);
    const offering = await makeOffering(env.db, org.id, { name: "Year" });
    const monthly = await makePrice(env.db, offering, { amount: 8_000, billing_frequency: "monthly" });
    const term = await makePrice(env.db, offering, { amount: 6_500, billing_frequency: "monthly", term_amount: 6, term_unit: "month" });
    const pif = await makePrice(env.db, offering, { amount: 60_000, billing_frequency: "one_off" });
    const join = async (
      name: string,
      card: string,
      price: { id: number; organisation_id: number },
      values: Partial<typeof subscriptions.$inferInsert>,
      first: [string, string],
    ) => {
      const user = await makeUser(env.db, { name, email: `${name.replace(/ /g, ".")}@example.com` });
      const [pt] = await env.db
        .insert(payment_types)
        .values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { last_four: card.slice(-4), payment_method: card } })
        .returning();
      await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
      const s = await makeSubscription(env.db, price, user.id, gym.id, {
        current_period_start: startOfLocalDay(first[0]),
        current_period_end: startOfLocalDay(first[1]),
        ...values,
      });
      await makePayment(env.db, s, { amount: 1, period_start_at: startOfLocalDay(first[0]), period_end_at: startOfLocalDay(first[1]), status: "sent" });
      return {
        s,
        card: async (pm: string) =>
          void (await env.db
            .update(payment_types)
            .set({ details: { payment_method: pm } })
            .where(eq(payment_types.id, pt.id))),
      };
    };
    const w = await join(
      "year weekly",
      "pm_card_visa",
      weekly,
      { billing_anchor: "2026-01-05", pause_start_at: startOfLocalDay("2026-03-02"), pause_end_at: startOfLocalDay("2026-03-16") },
      ["2026-01-05", "2026-01-12"],
    );
    const m = await join("year monthly", "pm_card_visa", monthly, { billing_anchor: "2026-01-31" }, ["2026-01-31", "2026-02-28"]);
    const t = await join("year term", "pm_card_visa", term, { billing_anchor: "2026-01-15", term_ends_at: startOfLocalDay("2026-07-15") }, [
      "2026-01-15",
      "2026-02-15",
    ]);
    const p = await join("year pif", "pm_card_visa", pif, { pif_ends_at: startOfLocalDay("2027-01-01") }, ["2026-01-01", "2027-01-01"]);

    await billingRunUntil(env.db, providers, "2026-01-01", "2026-06-29");
    await m.card("pm_card_chargeDeclinedInsufficientFunds");
    await billingRunUntil(env.db, providers, "2026-06-30", "2026-07-01");
    await m.card("pm_card_visa");
    await billingRunUntil(env.db, providers, "2026-07-02", "2026-10-13");
    await t.card("pm_card_chargeDeclinedLostCard");
    await billingRunUntil(env.db, providers, "2026-10-14", "2026-12-31");

    const list = async (id: number) =>
      (await paymentsOf(id)).slice(1).map((x) => [localDay(x.period_start_at!), x.attempt, x.status, x.amount, x.is_term_membership]);
    const mondays = (from: string, to: string) => {
      const days = [];
      for (let d = from; d <= to; d = addCalendarDays(d, 7)) days.push(d);
      return days;
    };
    // Weekly: every Monday but the two paused weeks, the rhythm moved by the pause's 14 days (here, onto Mondays again).
    expect(await list(w.s.id)).toEqual(
      [...mondays("2026-01-12", "2026-02-23"), ...mondays("2026-03-16", "2026-12-28")].map((d) => [d, 0, "sent", 1_999, false]),
    );
    // Monthly from 31 January: the last day of short months; June's charge fails twice and is paid on the third try.
    expect(await list(m.s.id)).toEqual([
      ["2026-02-28", 0, "sent", 8_000, false],
      ["2026-03-31", 0, "sent", 8_000, false],
      ["2026-04-30", 0, "sent", 8_000, false],
      ["2026-05-31", 0, "sent", 8_000, false],
      ["2026-06-30", 0, "failed", 8_000, false],
      ["2026-06-30", 1, "failed", 8_000, false],
      ["2026-06-30", 2, "sent", 8_000, false],
      ["2026-07-31", 0, "sent", 8_000, false],
      ["2026-08-31", 0, "sent", 8_000, false],
      ["2026-09-30", 0, "sent", 8_000, false],
      ["2026-10-31", 0, "sent", 8_000, false],
      ["2026-11-30", 0, "sent", 8_000, false],
      ["2026-12-31", 0, "sent", 8_000, false],
    ]);
    // Term: six months as the term's, then rolling on; a lost card in October is not retried, and access stops
    // when the 7-day grace period runs out, so November and December are not charged.
    expect(await list(t.s.id)).toEqual([
      ["2026-02-15", 0, "sent", 6_500, true],
      ["2026-03-15", 0, "sent", 6_500, true],
      ["2026-04-15", 0, "sent", 6_500, true],
      ["2026-05-15", 0, "sent", 6_500, true],
      ["2026-06-15", 0, "sent", 6_500, true],
      ["2026-07-15", 0, "sent", 6_500, false],
      ["2026-08-15", 0, "sent", 6_500, false],
      ["2026-09-15", 0, "sent", 6_500, false],
      ["2026-10-15", 0, "failed", 6_500, false],
    ]);
    const [termAfter] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, t.s.id));
    expect(termAfter.upcoming_state).toBe("failed");
    const [monthlyAfter] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, m.s.id));
    expect([monthlyAfter.grace_period_ends_at, monthlyAfter.upcoming_state]).toEqual([null, null]);
    // Paid in full: the one payment when it was sold, nothing after.
    expect(await list(p.s.id)).toEqual([]);
  });
});
