import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { gyms, mail_outbox, payment_types, payments, subscription_events, subscriptions } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * Issue 31, "Change how to pay: … what is owing can be paid now with the new method": a joined member's new way to
 * pay is written in their history and e-mailed, whoever they are; what is owing is charged to it once, at its own
 * surcharge, with the member named; a race with the billing run's retry is a 409, not a 500.
 * The clock: Wednesday 2 December 2026, 10 am in Auckland.
 */
const PASSWORD = "member payment passphrase";
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let org: { id: number };
let gym: { id: number };
let weekly: Awaited<ReturnType<typeof makePrice>>;
let n = 0;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW, providers: sandboxProviders(env.db) });
  org = await makeOrganisation(env.db, { name: "Member Payment Gyms" });
  gym = await makeGym(env.db, org.id, "Kingsland");
  // Cards carry 2% + 30c here: a member moving from their bank to a card pays the card's surcharge on what is owing.
  await env.db.update(gyms).set({ card_surcharge_basis_points: 200, card_surcharge_fixed: 30 }).where(eq(gyms.id, gym.id));
  const offering = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  weekly = await makePrice(env.db, offering, { amount: 2_500, billing_frequency: "weekly" });
});
afterAll(() => env.close());

type Method = { type: "stripe_card" | "gocardless_bank_account"; details: Record<string, string> };
const CARD: Method = { type: "stripe_card", details: { last_four: "4242", type: "visa", exp_month: "12", exp_year: "2030", payment_method: "pm_card_visa" } };
const DECLINING: Method = {
  type: "stripe_card",
  details: { last_four: "9995", type: "visa", exp_month: "12", exp_year: "2030", payment_method: "pm_card_chargeDeclinedInsufficientFunds" },
};
const BANK: Method = { type: "gocardless_bank_account", details: { account_number: "12-3140-0171323-50", name: "M Member", mandate: "MD000TEST" } };

/**
 * A weekly member, signed in as themselves, with the given ways to pay (the first pays), and the period from Monday
 * 30 November failed on it: $25 owing, their access in grace.
 */
async function owingMember(methods: Method[], { owing = true, extra = {} as Partial<typeof subscriptions.$inferInsert> } = {}) {
  const user = await makeUser(env.db, {
    name: `Pat Payer${++n}`,
    email: `pat${n}@example.com`,
    password_hash: await hashPassword(PASSWORD),
    current_organisation_id: org.id,
  });
  const pts = methods.length
    ? await env.db
        .insert(payment_types)
        .values(methods.map((m) => ({ organisation_id: org.id, user_id: user.id, ...m })))
        .returning()
    : [];
  const s = await makeSubscription(env.db, weekly, user.id, gym.id, {
    billing_anchor: "2026-11-02",
    current_period_start: startOfLocalDay("2026-11-30"),
    current_period_end: startOfLocalDay("2026-12-07"),
    grace_period_ends_at: owing ? startOfLocalDay("2026-12-09") : null,
    ...extra,
  });
  await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pts[0]?.id ?? null, latest_subscription_id: s.id });
  const failed = owing
    ? await makePayment(env.db, s, {
        amount: 2_500,
        surcharge: pts[0]?.type === "stripe_card" ? 80 : 0,
        payment_type_id: pts[0]?.id ?? null,
        status: "failed",
        error_status: "insufficient_funds",
        error_description: "Your card has insufficient funds.",
        period_start_at: startOfLocalDay("2026-11-30"),
        period_end_at: startOfLocalDay("2026-12-07"),
        failed_at: startOfLocalDay("2026-11-30"),
        idempotency_key: `charge:${s.id}:2026-11-30:0`,
      })
    : null;
  const b = await signedIn(api, env.db, user.email, PASSWORD);
  const version = async () => (await env.db.select({ v: subscriptions.version }).from(subscriptions).where(eq(subscriptions.id, s.id)))[0].v;
  return { user, s, b, pts, failed, version };
}

const events = (subscriptionId: number) =>
  env.db.select().from(subscription_events).where(eq(subscription_events.subscription_id, subscriptionId)).orderBy(desc(subscription_events.id));
/** The e-mails telling this member how they pay changed (signing in sends its own). */
const methodMails = (to: string) =>
  env.db
    .select()
    .from(mail_outbox)
    .where(and(eq(mail_outbox.to, to), eq(mail_outbox.subject, "How you pay has changed")))
    .orderBy(desc(mail_outbox.id));
const periodRows = (subscriptionId: number) =>
  env.db
    .select()
    .from(payments)
    .where(and(eq(payments.subscription_id, subscriptionId), eq(payments.period_start_at, startOfLocalDay("2026-11-30"))))
    .orderBy(payments.attempt);

describe("a joined member changes how they pay", () => {
  it("writes the change in their history as theirs and e-mails it; choosing the one that already pays changes nothing", async () => {
    const { user, s, b, pts } = await owingMember([DECLINING, CARD], { owing: false });
    const res = await b.call("POST", `/api/me/payment-types/${pts[1].id}/switch`);
    expect(res.status).toBe(200);
    const [event] = await events(s.id);
    expect([event.action, event.actor_id, event.summary]).toEqual([
      "payment_method.change",
      user.id,
      "Payment method changed to VISA ending 4242, expires 12/2030",
    ]);
    const [mail] = await methodMails(user.email);
    expect(mail.text).toContain("You changed how you pay for your membership. From now on: VISA ending 4242, expires 12/2030.");
    expect((await b.call("POST", `/api/me/payment-types/${pts[1].id}/switch`)).status).toBe(200);
    expect(await events(s.id)).toHaveLength(1);
    expect(await methodMails(user.email)).toHaveLength(1);
  });

  it("tells nobody while the person is still joining (their first payment failed)", async () => {
    const { user, s, b, pts } = await owingMember([DECLINING, CARD], { owing: false, extra: { upcoming_state: "failed" } });
    expect((await b.call("POST", `/api/me/payment-types/${pts[1].id}/switch`)).status).toBe(200);
    expect(await events(s.id)).toHaveLength(0);
    expect(await methodMails(user.email)).toHaveLength(0);
  });
});

describe("paying what is owing", () => {
  it("previews, then charges the owed period to the card that pays now, once, and ends the grace period", async () => {
    const { user, s, b, pts, version } = await owingMember([DECLINING, CARD]);
    await b.call("POST", `/api/me/payment-types/${pts[1].id}/switch`);
    const body = { key: "pay-owing-key-01", version: await version() };
    const preview = await b.call("POST", "/api/me/membership/pay-owing", { ...body, preview: true });
    expect(preview.status).toBe(200);
    expect(preview.json.data.preview).toMatchObject({ total: 2_580, periods: [{ period_start: "2026-11-30", period_end: "2026-12-07", amount: 2_580 }] });

    const paid = await b.call("POST", "/api/me/membership/pay-owing", body);
    expect(paid.status).toBe(201);
    expect(paid.json.data.total).toBe(2_580);
    const rows = await periodRows(s.id);
    expect(rows.map((p) => [p.attempt, p.status, p.payment_type_id, p.processed_by])).toEqual([
      [0, "failed", pts[0].id, null],
      [1, "sent", pts[1].id, user.id],
    ]);
    expect((await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id)))[0].grace_period_ends_at).toBeNull();
    const [event] = (await events(s.id)).filter((e) => e.action === "payment.charge");
    expect([event.actor_id, event.summary]).toEqual([user.id, "$25.80 owing for 1 period charged to their payment method"]);
    expect((await b.call("GET", "/api/me/membership")).json.data.owing.total).toBe(0);

    // The same form again (a double tap, the back button) pays nothing more.
    const again = await b.call("POST", "/api/me/membership/pay-owing", body);
    expect([again.status, again.json.data.repeated]).toEqual([200, true]);
    expect(await periodRows(s.id)).toHaveLength(2);
  });

  it("moving from a bank account to a card takes the card's surcharge; a declined card leaves the period owing", async () => {
    const { s, b, pts, version } = await owingMember([BANK, DECLINING]);
    expect((await b.call("GET", "/api/me/membership")).json.data.owing.total).toBe(2_500);
    await b.call("POST", `/api/me/payment-types/${pts[1].id}/switch`);
    const paid = await b.call("POST", "/api/me/membership/pay-owing", { key: "pay-owing-key-02", version: await version() });
    expect(paid.status).toBe(201);
    const rows = await periodRows(s.id);
    expect(rows.map((p) => [p.attempt, p.status, p.amount, p.surcharge])).toEqual([
      [0, "failed", 2_500, 0],
      [1, "failed", 2_500, 80],
    ]);
    expect((await b.call("GET", "/api/me/membership")).json.data.owing.total).toBe(2_580);
  });

  it("refuses when nothing is owed, or there is no way to pay", async () => {
    const paidUp = await owingMember([CARD], { owing: false });
    const none = await paidUp.b.call("POST", "/api/me/membership/pay-owing", { key: "pay-owing-key-03", version: await paidUp.version() });
    expect([none.status, none.json.errors.method]).toEqual([422, ["Nothing is owed on this membership"]]);
    const noMethod = await owingMember([]);
    const refused = await noMethod.b.call("POST", "/api/me/membership/pay-owing", { key: "pay-owing-key-04", version: await noMethod.version() });
    expect([refused.status, refused.json.errors.payment_type]).toEqual([422, ["Connect a way to pay first"]]);
    expect(await periodRows(noMethod.s.id)).toHaveLength(1);
  });

  it("answers 409, writing nothing, when the billing run's retry took the attempt's key first", async () => {
    const { s, b, version } = await owingMember([CARD]);
    // Another row already holds the key our attempt would carry: the unique index decides, as in a race.
    const other = await owingMember([CARD], { owing: false });
    await makePayment(env.db, other.s, { amount: 100, status: "pending", idempotency_key: `charge:${s.id}:2026-11-30:1` });
    const res = await b.call("POST", "/api/me/membership/pay-owing", { key: "pay-owing-key-05", version: await version() });
    expect([res.status, res.json.message]).toEqual([409, "This payment is being taken already. Reload the page to see how it went."]);
    expect(await periodRows(s.id)).toHaveLength(1);
    expect((await events(s.id)).filter((e) => e.action === "payment.charge")).toHaveLength(0);
  });

  it("is the member's own: staff are refused", async () => {
    const staff = await makeUser(env.db, {
      name: "Sam Staff",
      email: `sam.staff${++n}@example.com`,
      password_hash: await hashPassword(PASSWORD),
      current_organisation_id: org.id,
    });
    await addStaff(env.db, staff.id, org.id, "admin");
    const s = await signedIn(api, env.db, staff.email, PASSWORD);
    expect((await s.call("POST", "/api/me/membership/pay-owing", { key: "pay-owing-key-06", version: 1 })).status).toBe(403);
  });
});
