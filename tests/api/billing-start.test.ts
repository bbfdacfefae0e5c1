import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay, startOfLocalDay } from "../../domain/dates";
import { billingRun } from "../../server/billing/run";
import { StartError, startSubscription } from "../../server/billing/start";
import { gyms, payment_types, payments, subscriptions } from "../../server/core/db/schema";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addMember, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
let org: { id: number };
let gym: { id: number };
let offering: Awaited<ReturnType<typeof makeOffering>>;
let n = 0;
const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);

beforeAll(async () => {
  env = await setup();
  org = await makeOrganisation(env.db, { name: "Start Gyms" });
  gym = await makeGym(env.db, org.id, "Central");
  // 1.5 % on cards, as the gym's surcharge text says.
  await env.db.update(gyms).set({ card_surcharge_basis_points: 150 }).where(eq(gyms.id, gym.id));
  offering = await makeOffering(env.db, org.id, { name: "Anytime" });
});
afterAll(() => env.close());

async function member(card = "pm_card_visa") {
  const user = await makeUser(env.db, { name: `starter ${++n}`, email: `starter${n}@example.com` });
  const [pt] = await env.db
    .insert(payment_types)
    .values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { last_four: card.slice(-4), payment_method: card } })
    .returning();
  await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
  return user;
}
const paymentsOf = async (id: number) => (await env.db.select().from(payments).where(eq(payments.subscription_id, id))).sort((a, b) => a.id - b.id);

describe("starting a subscription", () => {
  it("charges the pro-rata to the billing day with the joining fee and the card surcharge at once, then full weeks from Monday", async () => {
    const price = await makePrice(env.db, offering, { amount: 2_100, billing_frequency: "weekly", joining_fee: 4_900 });
    const user = await member();
    const providers = sandboxProviders(env.db);
    const { subscription, payment } = await startSubscription(env.db, providers, { organisationId: org.id, userId: user.id, gymId: gym.id, priceId: price.id, start: "2026-11-25" }, at("2026-11-25"));
    expect([payment.status, payment.amount, payment.surcharge, payment.is_pro_rata, payment.type, payment.meta]).toEqual(["sent", 6_400, 96, true, "subscription", { joining_fee: 4_900 }]);
    expect([subscription.billing_anchor, localDay(subscription.current_period_end!), subscription.upcoming_state]).toEqual(["2026-11-30", "2026-11-30", null]);
    await billingRun(env.db, providers, at("2026-11-30"));
    expect((await paymentsOf(subscription.id)).map((p) => [localDay(p.period_start_at!), p.amount, p.surcharge, p.status])).toEqual([
      ["2026-11-25", 6_400, 96, "sent"],
      ["2026-11-30", 2_100, 32, "sent"],
    ]);
  });

  it("waits as upcoming until its start day, when the run starts it and charges the first payment", async () => {
    const price = await makePrice(env.db, offering, { amount: 9_000, billing_frequency: "monthly" });
    const user = await member();
    const providers = sandboxProviders(env.db);
    const { subscription, payment } = await startSubscription(env.db, providers, { organisationId: org.id, userId: user.id, gymId: gym.id, priceId: price.id, start: "2026-12-01" }, at("2026-11-24"));
    expect([subscription.upcoming_state, payment.status, payment.amount]).toEqual(["upcoming", "upcoming", 9_000]);
    await billingRun(env.db, providers, at("2026-11-30"));
    expect((await paymentsOf(subscription.id)).map((p) => p.status)).toEqual(["upcoming"]);
    const report = await billingRun(env.db, providers, at("2026-12-01"));
    expect(report.started).toBeGreaterThanOrEqual(1);
    const [started] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect(started.upcoming_state).toBeNull();
    expect((await paymentsOf(subscription.id)).map((p) => [localDay(p.period_start_at!), p.status])).toEqual([["2026-12-01", "sent"]]);
  });

  it("leaves a subscription whose first payment is declined as failed, with no grace period and no retries", async () => {
    const price = await makePrice(env.db, offering, { amount: 2_100, billing_frequency: "weekly" });
    const user = await member("pm_card_chargeDeclinedInsufficientFunds");
    const providers = sandboxProviders(env.db);
    const { subscription, payment } = await startSubscription(env.db, providers, { organisationId: org.id, userId: user.id, gymId: gym.id, priceId: price.id, start: "2026-11-30" }, at("2026-11-30"));
    expect([payment.status, payment.error_status]).toEqual(["failed", "insufficient_funds"]);
    expect([subscription.upcoming_state, subscription.grace_period_ends_at]).toEqual(["failed", null]);
    await billingRun(env.db, providers, at("2026-12-08"));
    expect(await paymentsOf(subscription.id)).toHaveLength(1);
  });

  it("sells paid in full once, covering its term, and a term membership with its commitment and cooling-off", async () => {
    const pif = await makePrice(env.db, offering, { amount: 79_900, billing_frequency: "one_off", term_amount: 12, term_unit: "month", joining_fee: 1_000 });
    const term = await makePrice(env.db, offering, { amount: 6_500, billing_frequency: "monthly", term_amount: 6, term_unit: "month" });
    const providers = sandboxProviders(env.db);
    const a = await startSubscription(env.db, providers, { organisationId: org.id, userId: (await member()).id, gymId: gym.id, priceId: pif.id, start: "2026-11-24" }, at("2026-11-24"));
    expect([a.payment.type, a.payment.amount, a.payment.status, localDay(a.subscription.pif_ends_at!), a.subscription.billing_anchor]).toEqual(["pif", 80_900, "sent", "2027-11-24", null]);
    await billingRun(env.db, providers, at("2027-01-10"));
    expect(await paymentsOf(a.subscription.id)).toHaveLength(1);
    const b = await startSubscription(env.db, providers, { organisationId: org.id, userId: (await member()).id, gymId: gym.id, priceId: term.id, start: "2026-12-01" }, at("2026-12-01"));
    expect([localDay(b.subscription.term_ends_at!), localDay(b.subscription.cooling_period_ends_at!), b.payment.is_term_membership]).toEqual(["2027-06-01", "2026-12-08", true]);
  });

  it("starts a subscription sold without a first payment (the demo's upcoming ones) and charges its first period", async () => {
    const price = await makePrice(env.db, offering, { amount: 2_100, billing_frequency: "weekly" });
    const user = await member();
    const s = await makeSubscription(env.db, price, user.id, gym.id, {
      billing_anchor: "2026-12-07",
      current_period_start: startOfLocalDay("2026-12-07"),
      current_period_end: startOfLocalDay("2026-12-14"),
      upcoming_state: "upcoming",
    });
    await billingRun(env.db, sandboxProviders(env.db), at("2026-12-07"));
    expect((await paymentsOf(s.id)).map((p) => [localDay(p.period_start_at!), p.status])).toEqual([["2026-12-07", "sent"]]);
  });

  it("refuses another organisation's price, a member with no payment method, and a billing date out of range, writing nothing", async () => {
    const other = await makeOrganisation(env.db, { name: "Elsewhere" });
    const theirs = await makePrice(env.db, await makeOffering(env.db, other.id, { name: "Theirs" }), { amount: 1_000 });
    const user = await member();
    const providers = sandboxProviders(env.db);
    const before = await env.db.$count(subscriptions);
    await expect(startSubscription(env.db, providers, { organisationId: org.id, userId: user.id, gymId: gym.id, priceId: theirs.id, start: "2026-11-30" })).rejects.toThrow(StartError);
    const price = await makePrice(env.db, offering, { amount: 2_100, billing_frequency: "weekly" });
    await expect(
      startSubscription(env.db, providers, { organisationId: org.id, userId: user.id, gymId: gym.id, priceId: price.id, start: "2026-11-25", billingDate: "2026-12-09" }),
    ).rejects.toThrow(/less than one period/);
    const nobody = await makeUser(env.db, { name: "no card", email: "nocard@example.com" });
    await addMember(env.db, nobody.id, org.id, gym.id);
    await expect(startSubscription(env.db, providers, { organisationId: org.id, userId: nobody.id, gymId: gym.id, priceId: price.id, start: "2026-11-30" })).rejects.toThrow(/no payment method/);
    expect(await env.db.$count(subscriptions)).toBe(before);
  });
});
