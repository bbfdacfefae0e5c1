import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { graceEnds } from "../../domain/failures";
import { hashPassword } from "../../server/core/auth/password";
import { daily_revenue, gyms, mail_outbox, payment_adjustments, payments, subscriptions, webhook_calls } from "../../server/core/db/schema";
import { cancelSandboxChargeback, chargeBackSandboxDirectDebit } from "../../server/core/providers/direct-debit/sandbox";
import { decideSandboxDispute, openSandboxDispute } from "../../server/core/providers/refunds";
import { addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { gocardlessSignature, stripeSignature } from "../../server/core/webhooks/verify";
import { signedIn, signingSecrets } from "./harness";
import { moneyWorld, MONEY_NOW } from "./money-fixture";

/**
 * Issue 28: refunds made at the provider and chargebacks reach our books from the providers' events, each as its own
 * payment_adjustments row (source provider), only from the provider's own answer about the object we made, on the
 * gym's account (decision 0039), once however often the event comes. A lost chargeback makes the period owing again
 * and starts the grace period as a failed charge does.
 */
const PASSWORD = "adjustments test passphrase";
const NOW = MONEY_NOW;
const OURS = { account: "acct_adjust_ours", creditor: "OR_ADJUST_OURS" };
const THEIRS = { account: "acct_adjust_theirs", creditor: "OR_ADJUST_THEIRS" };
let world: Awaited<ReturnType<typeof moneyWorld>>;
let env: typeof world.env;
let api: typeof world.api;
let admin: Awaited<ReturnType<typeof signedIn>>;
let org: typeof world.org;
let providers: typeof world.providers;
let clock: typeof world.clock;
let paidMember: typeof world.paidMember;
let adjustmentsOf: typeof world.adjustmentsOf;
let n = 0;

let SECRETS: Awaited<ReturnType<typeof signingSecrets>>;

beforeAll(async () => {
  world = await moneyWorld({ organisation: "Adjusted Gyms", gym: "Adjustment Avenue", member: "adjusted" }, { stripe_id: OURS.account, gocardless_organisation_id: OURS.creditor });
  ({ env, api, org, providers, clock, paidMember, adjustmentsOf } = world);
  SECRETS = await signingSecrets(env);
  const other = await makeOrganisation(env.db, { name: "Elsewhere Adjusted" });
  const theirs = await makeGym(env.db, other.id, "Elsewhere");
  await env.db.update(gyms).set({ stripe_id: THEIRS.account, gocardless_organisation_id: THEIRS.creditor }).where(eq(gyms.id, theirs.id));
  const a = await makeUser(env.db, { name: "adjust admin", email: "adjust.admin@example.com", password_hash: await hashPassword(PASSWORD) });
  await addStaff(env.db, a.id, org.id, "admin");
  admin = await signedIn(api, env.db, a.email, PASSWORD);
});
afterAll(() => env.close());

async function post(path: string, body: string, headers: Record<string, string>) {
  const res = await api.fetch(new Request(`http://localhost:3000${path}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }), { clientIp: "198.51.100.1" });
  return { status: res.status, json: (await res.json()) as { message: string; call_id: number; result?: string } };
}
/** Signed as Stripe signs (the official SDK's test header), at the API's clock. */
const toStripe = (event: Record<string, unknown>) => {
  const body = JSON.stringify(event);
  return post("/api/webhooks/stripe", body, { "stripe-signature": stripeSignature(body, SECRETS.stripe, NOW) });
};
const toGoCardless = (events: Record<string, unknown>[], webhookId = `WB_ADJUST_${++n}`) => {
  const body = JSON.stringify({ events, meta: { webhook_id: webhookId } });
  return post("/api/webhooks/gocardless", body, { "webhook-signature": gocardlessSignature(body, SECRETS.gocardless) });
};
let events = 0;
const stripeEvent = (type: string, object: Record<string, unknown>, account: string | null = OURS.account, id = `evt_adjust_${++events}`) => ({
  id,
  object: "event",
  type,
  ...(account ? { account } : {}),
  data: { object },
});
const chargeRefunded = (intent: string, account: string | null = OURS.account, id?: string) =>
  stripeEvent("charge.refunded", { id: `ch_${intent.slice(3)}`, object: "charge", payment_intent: intent, refunded: true, amount_refunded: 2_500 }, account, id);
const disputeEvent = (type: string, dispute: string, intent: string, status: string, account: string | null = OURS.account) =>
  stripeEvent(type, { id: dispute, object: "dispute", payment_intent: intent, amount: 2_500, currency: "nzd", status }, account);

const goCardlessPaymentEvent = (id: string, action: string, organisation = OURS.creditor) => ({
  id: `EV_ADJUST_${++n}`,
  created_at: NOW.toISOString(),
  resource_type: "payments",
  action,
  links: { payment: id, organisation },
  details: { origin: "customer", cause: "authorisation_disputed", description: "The customer disputed the debit with their bank." },
});
const callRow = async (id: number) => (await env.db.select().from(webhook_calls).where(eq(webhook_calls.id, id)))[0];
const attemptsOf = (subscriptionId: number) => env.db.select().from(payments).where(eq(payments.subscription_id, subscriptionId)).orderBy(payments.attempt);
const revenue = async () =>
  Number((await env.db.select({ c: sql<number>`coalesce(sum(${daily_revenue.collected}), 0)` }).from(daily_revenue).where(eq(daily_revenue.organisation_id, org.id)))[0].c);
const owing = async (subscriptionId: number) => (await admin.call("GET", `/api/subscriptions/${subscriptionId}`)).json.data.owing as { total: number; periods: number };
const subscriptionRow = async (id: number) => (await env.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
/** A refund made in the provider's dashboard: the provider's own, not asked by us. */
const dashboardRefund = (intent: string, amount: number, account: string = OURS.account) =>
  providers.cards.refund({ paymentReference: intent, amount, currency: "nzd", account, refundedBefore: 0, idempotencyKey: `dashboard:${++n}`, metadata: {} });

async function expectProcessed(res: Awaited<ReturnType<typeof post>>, result?: RegExp) {
  expect(res.status).toBe(200);
  const call = await callRow(res.json.call_id);
  expect([call.status, call.organisation_id]).toEqual(["processed", org.id]);
  if (result) expect(call.result).toMatch(result);
  return call;
}
async function expectRefused(res: Awaited<ReturnType<typeof post>>, reason: RegExp) {
  expect(res.status).toBe(200);
  const call = await callRow(res.json.call_id);
  expect([call.status, call.organisation_id]).toEqual(["refused", org.id]);
  expect(call.result).toMatch(reason);
}

describe("a refund made in Stripe's dashboard", () => {
  it("is recorded once from Stripe's own list of the intent's refunds, however often the event comes, and comes off revenue", async () => {
    const { payment } = await paidMember();
    const before = await revenue();
    const refund = await dashboardRefund(payment.stripe_id!, 1_000);
    const event = chargeRefunded(payment.stripe_id!);
    await expectProcessed(await toStripe(event), new RegExp(`Refund ${refund.id} of \\$10\\.00 recorded`));
    const rows = await adjustmentsOf(payment.id);
    expect(rows.map((a) => [a.kind, a.status, a.amount, a.method, a.source, a.provider_id, a.settled_at !== null])).toEqual([["refund", "succeeded", 1_000, "stripe", "provider", refund.id, true]]);
    expect(await revenue()).toBe(before - 1_000);

    // The same event again (a duplicate), and the refund's own events (new ids, the same refund): nothing more.
    expect((await callRow((await toStripe(event)).json.call_id)).status).toBe("duplicate");
    const updated = await toStripe(stripeEvent("refund.updated", { id: refund.id, object: "refund", payment_intent: payment.stripe_id, amount: 1_000, status: "succeeded" }));
    expect((await callRow(updated.json.call_id)).status).toBe("ignored");
    await toStripe(chargeRefunded(payment.stripe_id!));
    expect(await adjustmentsOf(payment.id)).toHaveLength(1);
    expect(await revenue()).toBe(before - 1_000);
    // What is left to refund counts it.
    expect((await admin.call("GET", `/api/payments/${payment.id}/refunds`)).json.data.refundable).toBe(1_500);
  });

  it("does not record a staff refund twice when its own charge.refunded comes back, nor when its answer was lost (matched by its metadata)", async () => {
    const { payment } = await paidMember();
    const made = await admin.call("POST", `/api/payments/${payment.id}/refunds`, { amount: 700, reason: "requested_by_customer", key: `staff-refund-${++n}` });
    expect(made.status).toBe(201);
    const [staff] = await adjustmentsOf(payment.id);
    expect([staff.source, staff.status]).toEqual(["staff", "succeeded"]);
    const echo = await toStripe(chargeRefunded(payment.stripe_id!));
    expect((await callRow(echo.json.call_id)).status).toBe("ignored");
    expect(await adjustmentsOf(payment.id)).toHaveLength(1);

    // A second staff refund whose provider answer never reached us: still pending, no provider id.
    const again = await admin.call("POST", `/api/payments/${payment.id}/refunds`, { amount: 300, reason: "requested_by_customer", key: `staff-refund-${++n}` });
    expect(again.status).toBe(201);
    const second = (await adjustmentsOf(payment.id))[1];
    await env.db.update(payment_adjustments).set({ status: "pending", provider_id: null, settled_at: null }).where(eq(payment_adjustments.id, second.id));
    await expectProcessed(await toStripe(chargeRefunded(payment.stripe_id!)), /succeeded/);
    const rows = await adjustmentsOf(payment.id);
    expect(rows.map((a) => [a.source, a.status, a.amount, a.provider_id === second.provider_id])).toEqual([
      ["staff", "succeeded", 700, false],
      ["staff", "succeeded", 300, true],
    ]);
  });
});

describe("a refund event the provider does not vouch for", () => {
  it("is refused for another account, an intent Stripe does not have on ours, or a refund it does not hold, and records nothing", async () => {
    const { payment } = await paidMember();
    await dashboardRefund(payment.stripe_id!, 500);
    // From another organisation's connected account.
    await expectRefused(await toStripe(chargeRefunded(payment.stripe_id!, THEIRS.account)), /acct_adjust_theirs/);
    // A refund Stripe holds none of, on our intent.
    await expectRefused(
      await toStripe(stripeEvent("refund.updated", { id: "re_never_made", object: "refund", payment_intent: payment.stripe_id, amount: 2_500, status: "succeeded" })),
      /Stripe holds no refund re_never_made/,
    );
    expect(await adjustmentsOf(payment.id)).toEqual([]);

    // An intent we hold that Stripe does not have on the gym's account (made on another's).
    const { payment: other } = await paidMember();
    const theirs = await providers.cards.charge({ amount: 2_500, currency: "nzd", customer: null, paymentMethod: "pm_card_visa", account: THEIRS.account, idempotencyKey: `theirs:${++n}`, description: "", metadata: { payment_id: String(other.id) } });
    await dashboardRefund(theirs.id!, 2_500, THEIRS.account);
    await env.db.update(payments).set({ stripe_id: theirs.id }).where(eq(payments.id, other.id));
    await expectRefused(await toStripe(chargeRefunded(theirs.id!)), new RegExp(`Stripe knows no ${theirs.id} on account ${OURS.account}`));
    // A charge with no refund at Stripe at all.
    const { payment: unrefunded } = await paidMember();
    await expectRefused(await toStripe(chargeRefunded(unrefunded.stripe_id!)), /Stripe holds no refund of/);
    expect([...(await adjustmentsOf(other.id)), ...(await adjustmentsOf(unrefunded.id))]).toEqual([]);
  });

  it("refuses a dispute Stripe does not have on the gym's account", async () => {
    const { payment } = await paidMember();
    const dispute = await openSandboxDispute(env.db, { paymentReference: payment.stripe_id!, amount: 2_500, account: THEIRS.account });
    await expectRefused(await toStripe(disputeEvent("charge.dispute.created", dispute, payment.stripe_id!, "needs_response")), new RegExp(`Stripe knows no dispute ${dispute}`));
    await expectRefused(await toStripe(disputeEvent("charge.dispute.created", "dp_never_opened", payment.stripe_id!, "needs_response")), /Stripe knows no dispute dp_never_opened/);
    expect(await adjustmentsOf(payment.id)).toEqual([]);
  });
});

describe("a Stripe dispute", () => {
  it("opened: a chargeback open, nothing owed; lost: charged back, the period owing again with a hard decline, grace started, revenue down", async () => {
    const { payment, subscription } = await paidMember();
    const before = await revenue();
    const dispute = await openSandboxDispute(env.db, { paymentReference: payment.stripe_id!, amount: 2_500, account: OURS.account });
    await expectProcessed(await toStripe(disputeEvent("charge.dispute.created", dispute, payment.stripe_id!, "needs_response")), new RegExp(`Dispute ${dispute} open`));
    expect((await adjustmentsOf(payment.id)).map((a) => [a.kind, a.status, a.amount, a.source, a.provider_id, a.settled_at])).toEqual([["chargeback", "open", 2_500, "provider", dispute, null]]);
    expect(await owing(subscription.id)).toEqual({ total: 0, periods: 0 });
    expect(await revenue()).toBe(before);

    await decideSandboxDispute(env.db, dispute, "lost");
    // The event's snapshot says nothing of the outcome that counts: Stripe's answer does.
    const closed = disputeEvent("charge.dispute.closed", dispute, payment.stripe_id!, "won");
    await expectProcessed(await toStripe(closed), new RegExp(`Dispute ${dispute} lost: \\$25\\.00 charged back, owing again`));
    const [chargeback] = await adjustmentsOf(payment.id);
    expect([chargeback.status, chargeback.settled_at?.getTime()]).toEqual(["lost", NOW.getTime()]);
    const attempts = await attemptsOf(subscription.id);
    expect(attempts.map((p) => [p.attempt, p.status, p.amount, p.error_status, p.idempotency_key, p.failed_at?.getTime()])).toEqual([
      [0, "sent", 2_500, null, payment.idempotency_key, payment.failed_at?.getTime()],
      [1, "failed", 2_500, "charged_back", null, NOW.getTime()],
    ]);
    expect(attempts[1].error_description).toMatch(/disputed/i);
    expect(await owing(subscription.id)).toEqual({ total: 2_500, periods: 1 });
    expect((await subscriptionRow(subscription.id)).grace_period_ends_at).toEqual(startOfLocalDay(graceEnds("2026-01-20", org.failed_payment_grace_period, org.failed_payment_grace_period_unit)));
    expect(await revenue()).toBe(before - 2_500);

    // Told again (another event of the same dispute, and the same one replayed): nothing moves twice.
    await toStripe(disputeEvent("charge.dispute.funds_withdrawn", dispute, payment.stripe_id!, "lost"));
    await toStripe(closed);
    expect(await attemptsOf(subscription.id)).toHaveLength(2);
    expect(await adjustmentsOf(payment.id)).toHaveLength(1);
    expect(await revenue()).toBe(before - 2_500);
  });

  it("won: the chargeback is won and nothing is owed", async () => {
    const { payment, subscription } = await paidMember();
    const before = await revenue();
    const dispute = await openSandboxDispute(env.db, { paymentReference: payment.stripe_id!, amount: 2_500, account: OURS.account });
    await toStripe(disputeEvent("charge.dispute.created", dispute, payment.stripe_id!, "needs_response"));
    await decideSandboxDispute(env.db, dispute, "won");
    await expectProcessed(await toStripe(disputeEvent("charge.dispute.closed", dispute, payment.stripe_id!, "won")), /won/);
    expect((await adjustmentsOf(payment.id)).map((a) => [a.kind, a.status])).toEqual([["chargeback", "won"]]);
    expect(await attemptsOf(subscription.id)).toHaveLength(1);
    expect(await owing(subscription.id)).toEqual({ total: 0, periods: 0 });
    expect((await subscriptionRow(subscription.id)).grace_period_ends_at).toBeNull();
    expect(await revenue()).toBe(before);
  });
});

describe("a lost chargeback undone (issue 28)", () => {
  it("a Stripe dispute lost, then won on appeal: the chargeback is reversed, the debt it opened goes, grace ends and revenue is back", async () => {
    const { payment, subscription } = await paidMember();
    const before = await revenue();
    const dispute = await openSandboxDispute(env.db, { paymentReference: payment.stripe_id!, amount: 2_500, account: OURS.account });
    await decideSandboxDispute(env.db, dispute, "lost");
    await expectProcessed(await toStripe(disputeEvent("charge.dispute.closed", dispute, payment.stripe_id!, "lost")), /lost/);
    expect(await owing(subscription.id)).toEqual({ total: 2_500, periods: 1 });
    expect((await subscriptionRow(subscription.id)).grace_period_ends_at).not.toBeNull();

    // The event's snapshot says nothing that counts: Stripe's answer (won now) does.
    await decideSandboxDispute(env.db, dispute, "won");
    const reinstated = disputeEvent("charge.dispute.funds_reinstated", dispute, payment.stripe_id!, "lost");
    await expectProcessed(await toStripe(reinstated), new RegExp(`Dispute ${dispute} reversed after it was lost: \\$25\\.00 is the gym's again; nothing is owed`));
    expect((await adjustmentsOf(payment.id)).map((a) => [a.kind, a.status, a.settled_at?.getTime()])).toEqual([["chargeback", "won", NOW.getTime()]]);
    expect((await attemptsOf(subscription.id)).map((p) => [p.attempt, p.status])).toEqual([[0, "sent"]]);
    expect(await owing(subscription.id)).toEqual({ total: 0, periods: 0 });
    expect((await subscriptionRow(subscription.id)).grace_period_ends_at).toBeNull();
    expect(await revenue()).toBe(before);
    // Told again: nothing moves twice.
    await toStripe(disputeEvent("charge.dispute.closed", dispute, payment.stripe_id!, "won"));
    expect((await attemptsOf(subscription.id)).map((p) => [p.attempt, p.status])).toEqual([[0, "sent"]]);
    expect(await revenue()).toBe(before);
  });

  it("a GoCardless chargeback cancelled by the payer's bank: paid again, nothing owed; a debt paid meanwhile is kept and staff are told to refund it", async () => {
    const { payment, subscription } = await paidMember("gocardless_bank_account");
    const before = await revenue();
    const ofWeek = async () => (await attemptsOf(subscription.id)).filter((p) => p.period_start_at?.getTime() === payment.period_start_at?.getTime()).map((p) => [p.attempt, p.status]);
    await chargeBackSandboxDirectDebit(env.db, payment.gocardless_payment_id!, NOW);
    await expectProcessed(await toGoCardless([goCardlessPaymentEvent(payment.gocardless_payment_id!, "charged_back")]), /owing again/);
    expect(await ofWeek()).toEqual([[0, "sent"], [1, "failed"]]);
    // Not cancelled at GoCardless: the event alone changes nothing.
    expect((await callRow((await toGoCardless([goCardlessPaymentEvent(payment.gocardless_payment_id!, "chargeback_cancelled")])).json.call_id)).status).toBe("ignored");
    expect(await ofWeek()).toEqual([[0, "sent"], [1, "failed"]]);

    await cancelSandboxChargeback(env.db, payment.gocardless_payment_id!, NOW);
    await expectProcessed(await toGoCardless([goCardlessPaymentEvent(payment.gocardless_payment_id!, "chargeback_cancelled")]), /reversed after it was lost/);
    expect((await adjustmentsOf(payment.id)).map((a) => [a.kind, a.status])).toEqual([["chargeback", "won"]]);
    expect(await ofWeek()).toEqual([[0, "sent"]]);
    expect(await owing(subscription.id)).toEqual({ total: 0, periods: 0 });
    expect((await subscriptionRow(subscription.id)).grace_period_ends_at).toBeNull();
    expect(await revenue()).toBe(before);

    // Another member paid the debt before the bank changed its mind: they paid twice, which staff are told to refund.
    const { payment: second, subscription: s2 } = await paidMember();
    const dispute = await openSandboxDispute(env.db, { paymentReference: second.stripe_id!, amount: 2_500, account: OURS.account });
    await decideSandboxDispute(env.db, dispute, "lost");
    await toStripe(disputeEvent("charge.dispute.closed", dispute, second.stripe_id!, "lost"));
    const [, owed] = await attemptsOf(s2.id);
    await env.db.update(payments).set({ status: "sent", pif_payment: "cash" }).where(eq(payments.id, owed.id));
    await decideSandboxDispute(env.db, dispute, "won");
    await expectProcessed(await toStripe(disputeEvent("charge.dispute.closed", dispute, second.stripe_id!, "won")), /the member had paid it again since: refund them/);
    expect((await attemptsOf(s2.id)).map((p) => [p.attempt, p.status])).toEqual([[0, "sent"], [1, "sent"]]);
  });
});

describe("the member is e-mailed (issue 28)", () => {
  const mailsTo = (email: string) => env.db.select().from(mail_outbox).where(eq(mail_outbox.to, email));
  it("about a refund made in the provider's dashboard and about a chargeback lost, once each", async () => {
    const { user, payment } = await paidMember();
    await dashboardRefund(payment.stripe_id!, 1_000);
    await toStripe(chargeRefunded(payment.stripe_id!));
    await toStripe(chargeRefunded(payment.stripe_id!));
    expect((await mailsTo(user.email)).map((m) => m.subject)).toEqual(["Adjustment Avenue refunded $10.00"]);

    const { user: disputer, payment: disputed } = await paidMember();
    const dispute = await openSandboxDispute(env.db, { paymentReference: disputed.stripe_id!, amount: 2_500, account: OURS.account });
    await toStripe(disputeEvent("charge.dispute.created", dispute, disputed.stripe_id!, "needs_response"));
    expect(await mailsTo(disputer.email)).toEqual([]);
    await decideSandboxDispute(env.db, dispute, "lost");
    await toStripe(disputeEvent("charge.dispute.closed", dispute, disputed.stripe_id!, "lost"));
    await toStripe(disputeEvent("charge.dispute.funds_withdrawn", dispute, disputed.stripe_id!, "lost"));
    const mails = await mailsTo(disputer.email);
    expect(mails.map((m) => m.subject)).toEqual(["Your bank took back $25.00 paid to Adjustment Avenue"]);
    expect(mails[0].text).toMatch(/The \$25\.00 is owing again\. Your membership keeps working until/);
  });
});

describe("GoCardless", () => {
  const paymentEvent = goCardlessPaymentEvent;

  it("a paid direct debit charged back: a chargeback lost, the period owing again, once", async () => {
    const { payment, subscription } = await paidMember("gocardless_bank_account");
    const before = await revenue();
    // Not charged back at GoCardless: the event alone changes nothing.
    await toGoCardless([paymentEvent(payment.gocardless_payment_id!, "charged_back")]);
    expect(await adjustmentsOf(payment.id)).toEqual([]);

    await chargeBackSandboxDirectDebit(env.db, payment.gocardless_payment_id!, NOW);
    await expectProcessed(await toGoCardless([paymentEvent(payment.gocardless_payment_id!, "charged_back")]), /charged back, owing again/);
    expect((await adjustmentsOf(payment.id)).map((a) => [a.kind, a.status, a.amount, a.method, a.source, a.provider_id])).toEqual([
      ["chargeback", "lost", 2_500, "gocardless", "provider", `${payment.gocardless_payment_id}:chargeback`],
    ]);
    // The week charged back (the run of the 19th planned the next week's charge too).
    const attempts = (await attemptsOf(subscription.id)).filter((p) => p.period_start_at?.getTime() === payment.period_start_at?.getTime());
    expect(attempts.map((p) => [p.attempt, p.status, p.error_status])).toEqual([
      [0, "sent", null],
      [1, "failed", "charged_back"],
    ]);
    expect((await subscriptionRow(subscription.id)).grace_period_ends_at).not.toBeNull();
    expect(await owing(subscription.id)).toEqual({ total: 2_500, periods: 1 });
    expect(await revenue()).toBe(before - 2_500);

    await toGoCardless([paymentEvent(payment.gocardless_payment_id!, "chargeback_settled")]);
    expect(await adjustmentsOf(payment.id)).toHaveLength(1);
    expect(await attemptsOf(subscription.id)).toHaveLength(3);
    // Another creditor's event about it is refused.
    await expectRefused(await toGoCardless([paymentEvent(payment.gocardless_payment_id!, "charged_back", THEIRS.creditor)]), /OR_ADJUST_THEIRS/);
  });

  it("a refund paid: our pending refund succeeds on GoCardless's answer, not the event's", async () => {
    const { payment } = await paidMember("gocardless_bank_account");
    expect((await admin.call("POST", `/api/payments/${payment.id}/refunds`, { amount: 1_200, reason: "requested_by_customer", key: `gc-refund-${++n}` })).status).toBe(201);
    const [refund] = await adjustmentsOf(payment.id);
    expect([refund.status, refund.provider_id?.startsWith("RF")]).toEqual(["pending", true]);
    const refundEvent = (action: string, id = refund.provider_id!) => ({ id: `EV_ADJUST_${++n}`, created_at: NOW.toISOString(), resource_type: "refunds", action, links: { refund: id, organisation: OURS.creditor } });

    // Still on its way at GoCardless: a "paid" event changes nothing yet.
    await toGoCardless([refundEvent("paid")]);
    expect((await adjustmentsOf(payment.id))[0].status).toBe("pending");
    // A refund GoCardless does not know.
    await expectRefused(await toGoCardless([refundEvent("paid", "RF_NEVER_MADE")]), /GoCardless knows no refund RF_NEVER_MADE/);

    clock.set(new Date(NOW.getTime() + 2 * 86_400_000));
    try {
      await expectProcessed(await toGoCardless([refundEvent("paid")]), /succeeded/);
    } finally {
      clock.set(NOW);
    }
    const rows = await adjustmentsOf(payment.id);
    expect(rows.map((a) => [a.status, a.source, a.settled_at?.getTime()])).toEqual([["succeeded", "staff", NOW.getTime()]]);
    expect(await env.db.select().from(payment_adjustments).where(and(eq(payment_adjustments.payment_id, payment.id), eq(payment_adjustments.source, "provider")))).toEqual([]);
  });
});
