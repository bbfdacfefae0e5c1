import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { chargePending } from "../../server/billing/charge";
import { planRetryIds } from "../../server/billing/plan";
import { gyms, payment_adjustments, payment_types, payments, subscriptions, webhook_calls } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxCards } from "../../server/core/providers/cards/sandbox";
import { simulatedClock } from "../../server/core/providers/clock";
import { sandboxProviders } from "../../server/core/providers/registry";
import { deliverSandboxWebhooks } from "../../server/core/providers/sandbox-webhooks";
import { DEFAULT_SANDBOX_WEBHOOKS } from "../../server/core/providers/sandbox-webhook-settings";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { receiveWebhook } from "../../server/webhooks/receive";
import { loadWebhookSecrets } from "../../server/core/webhooks/secrets";
import { gocardlessSignature, stripeSignature } from "../../server/core/webhooks/verify";
import { setup, signedIn, signingSecrets } from "./harness";

const PASSWORD = "webhook test passphrase";
let SECRETS: Awaited<ReturnType<typeof signingSecrets>>;
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let org: { id: number };
let gym: { id: number };
let price: Awaited<ReturnType<typeof makePrice>>;
let n = 0;

beforeAll(async () => {
  env = await setup();
  SECRETS = await signingSecrets(env);
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  const hash = await hashPassword(PASSWORD);
  org = await makeOrganisation(env.db, { name: "Hook Gyms" });
  gym = await makeGym(env.db, org.id, "Central");
  price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_000, billing_frequency: "weekly" });
  const admin = await makeUser(env.db, { name: "hook admin", email: "hook.admin@example.com", password_hash: hash });
  await addStaff(env.db, admin.id, org.id, "admin");
  const trainer = await makeUser(env.db, { name: "hook trainer", email: "hook.trainer@example.com", password_hash: hash });
  await addStaff(env.db, trainer.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
  const other = await makeOrganisation(env.db, { name: "Other Hooks" });
  const otherAdmin = await makeUser(env.db, { name: "other admin", email: "other.hooks@example.com", password_hash: hash });
  await addStaff(env.db, otherAdmin.id, other.id, "admin");
});
afterAll(() => env.close());

/** A pending card payment of a new member, as the billing run leaves it before charging. */
async function pendingPayment(card = "pm_card_visa", extra: Partial<typeof payments.$inferInsert> = {}) {
  const user = await makeUser(env.db, { name: `hooked ${++n}`, email: `hooked${n}@example.com` });
  const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { payment_method: card } }).returning();
  await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
  const s = await makeSubscription(env.db, price, user.id, gym.id, { billing_anchor: "2026-01-05" });
  return makePayment(env.db, s, {
    amount: 2_000,
    status: "pending",
    payment_type_id: pt.id,
    period_start_at: startOfLocalDay("2026-01-12"),
    period_end_at: startOfLocalDay("2026-01-19"),
    idempotency_key: `charge:${s.id}:2026-01-12:0`,
    ...extra,
  });
}

const stripeEvent = (id: string, type: string, intent: Record<string, unknown>, account?: string | null) =>
  JSON.stringify({ id, object: "event", type, ...(account ? { account } : {}), data: { object: { object: "payment_intent", ...intent } } });

/** The gym's Connect account now: its charges live there, and their events say so. */
const gymAccount = async () => (await env.db.select({ stripe_id: gyms.stripe_id }).from(gyms).where(eq(gyms.id, gym.id)))[0].stripe_id;

/** The charge Stripe made for a payment as our billing run asks for it (rails.ts), before a crash kept us from writing it down. */
async function chargedAtStripe(p: typeof payments.$inferSelect, paymentMethod = "pm_card_visa") {
  const metadata = { payment_id: String(p.id), subscription_id: String(p.subscription_id) };
  return sandboxCards(env.db).charge({ amount: p.amount + p.surcharge, currency: "nzd", customer: null, paymentMethod, account: await gymAccount(), idempotencyKey: p.idempotency_key!, description: "", metadata });
}

async function post(path: string, body: string, headers: Record<string, string>) {
  const res = await api.fetch(new Request(`http://localhost:3000${path}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }), { clientIp: "198.51.100.1" });
  return { status: res.status, json: (await res.json()) as { message: string; call_id: number; result?: string } };
}
const toStripe = (body: string, opts: { secret?: string; at?: Date } = {}) =>
  post("/api/webhooks/stripe", body, { "stripe-signature": stripeSignature(body, opts.secret ?? SECRETS.stripe, opts.at ?? new Date()) });
const callRow = async (id: number) => (await env.db.select().from(webhook_calls).where(eq(webhook_calls.id, id)))[0];
const paymentRow = async (id: number) => (await env.db.select().from(payments).where(eq(payments.id, id)))[0];

describe("POST /api/webhooks/stripe", () => {
  it("stores the call, checks Stripe's signature and settles the payment from the provider's state", async () => {
    const p = await pendingPayment();
    // The provider charged it, and our run died before writing it down; Stripe's event tells us.
    const charged = await chargedAtStripe(p);
    const body = stripeEvent("evt_good_1", "payment_intent.succeeded", { id: charged.id, status: "succeeded", metadata: { payment_id: String(p.id) } });
    const res = await toStripe(body);
    expect(res.status).toBe(200);
    expect((await paymentRow(p.id)).status).toBe("sent");
    const call = await callRow(res.json.call_id);
    expect([call.status, call.event_id, call.event_type, call.organisation_id, call.body]).toEqual(["processed", "evt_good_1", "payment_intent.succeeded", org.id, body]);
    expect(call.headers["stripe-signature"]).toMatch(/^t=\d+,v1=/);
    expect(call.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("refuses a wrong secret, a tampered body and a signature older than 300 seconds with 401, recorded and never processed", async () => {
    const p = await pendingPayment();
    const body = stripeEvent("evt_bad", "payment_intent.succeeded", { id: "pi_nothing", status: "succeeded", metadata: { payment_id: String(p.id) } });
    const wrong = await toStripe(body, { secret: "whsec_someone_else_entirely" });
    const stale = await toStripe(body, { at: new Date(Date.now() - 301_000) });
    const tampered = await post("/api/webhooks/stripe", body.replace("evt_bad", "evt_bad2"), { "stripe-signature": stripeSignature(body, SECRETS.stripe, new Date()) });
    const unsigned = await post("/api/webhooks/stripe", body, {});
    const binary = await post("/api/webhooks/stripe", `${body}\u0000\u00ff`, { "stripe-signature": stripeSignature(body, SECRETS.stripe, new Date()) });
    expect(binary.status).toBe(401);
    for (const res of [wrong, stale, tampered, unsigned]) {
      expect(res.status).toBe(401);
      expect((await callRow(res.json.call_id)).status).toBe("rejected");
    }
    expect((await paymentRow(p.id)).status).toBe("pending");
  });

  it("processes an event once: a second delivery is stored as a duplicate and changes nothing", async () => {
    const p = await pendingPayment("pm_card_chargeDeclinedInsufficientFunds");
    await chargePending(env.db, sandboxProviders(env.db), new Date(), { only: [p.id] });
    const failed = await paymentRow(p.id);
    expect(failed.status).toBe("failed");
    const body = stripeEvent("evt_dup", "payment_intent.payment_failed", { id: failed.stripe_id, status: "requires_payment_method", metadata: { payment_id: String(p.id) } });
    const first = await toStripe(body);
    const second = await toStripe(body);
    expect((await callRow(first.json.call_id)).status).toBe("ignored");
    expect(first.json.result).toMatch(/failed already/);
    const again = await toStripe(stripeEvent("evt_once", "payment_intent.processing", { id: "pi_unknown_x", status: "processing" }));
    expect((await callRow(again.json.call_id)).status).toBe("ignored");
    // Not ours, but sent for a gym's Stripe account: its organisation's staff see it.
    await env.db.update(gyms).set({ stripe_id: "acct_hook_gym" }).where(eq(gyms.id, gym.id));
    const forGymBody = JSON.stringify({ ...JSON.parse(stripeEvent("evt_acct", "payment_intent.succeeded", { id: "pi_elsewhere", status: "succeeded" })), account: "acct_hook_gym" });
    const forGym = await toStripe(forGymBody);
    expect([(await callRow(forGym.json.call_id)).status, (await callRow(forGym.json.call_id)).organisation_id]).toEqual(["ignored", org.id]);
    expect(second.status).toBe(200);
    const p2 = await pendingPayment();
    const charged = await chargedAtStripe(p2);
    const ok = stripeEvent("evt_twice", "payment_intent.succeeded", { id: charged.id, status: "succeeded", metadata: { payment_id: String(p2.id) } }, "acct_hook_gym");
    const a = await toStripe(ok);
    const b = await toStripe(ok);
    expect([(await callRow(a.json.call_id)).status, (await callRow(b.json.call_id)).status]).toEqual(["processed", "duplicate"]);
  });

  it("never lets a late or out-of-order event move a payment back: the provider's state now wins", async () => {
    const p = await pendingPayment();
    const charged = await chargedAtStripe(p);
    // A payment_failed snapshot arrives first, for a charge that in fact succeeded (retried by Stripe): we ask.
    const lie = await toStripe(stripeEvent("evt_order_1", "payment_intent.payment_failed", { id: charged.id, status: "requires_payment_method", metadata: { payment_id: String(p.id) } }, await gymAccount()));
    expect((await paymentRow(p.id)).status).toBe("sent");
    expect(lie.json.result).toMatch(/succeeded/);
    const late = await toStripe(stripeEvent("evt_order_2", "payment_intent.payment_failed", { id: charged.id, status: "requires_payment_method", metadata: { payment_id: String(p.id) } }, await gymAccount()));
    expect((await callRow(late.json.call_id)).status).toBe("ignored");
    expect((await paymentRow(p.id)).status).toBe("sent");
  });

  it("starts the grace period when Stripe reports a decline for a pending payment", async () => {
    const p = await pendingPayment("pm_card_chargeDeclinedLostCard");
    // The provider declined it; our record of it was lost with a crash.
    const declined = await chargedAtStripe(p, "pm_card_chargeDeclinedLostCard");
    await toStripe(stripeEvent("evt_lost", "payment_intent.payment_failed", { id: declined.id, status: "requires_payment_method", metadata: { payment_id: String(p.id) } }, await gymAccount()));
    const after = await paymentRow(p.id);
    expect([after.status, after.error_status]).toEqual(["failed", "lost_card"]);
    const [s] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, after.subscription_id!));
    expect(s.grace_period_ends_at).not.toBeNull();
  });

  it("writes a decline down on its own clock (a simulated day's), so the retries count from that day", async () => {
    // Found by the crash trial (decision 0043): a failure heard by webhook was stamped with the database's time, so
    // under a simulated clock its retries were due months later and never made.
    const p = await pendingPayment("pm_card_chargeDeclinedInsufficientFunds");
    const declined = await chargedAtStripe(p, "pm_card_chargeDeclinedInsufficientFunds");
    const day = new Date("2026-01-12T21:00:00Z");
    const body = stripeEvent(`evt_simulated_${p.id}`, "payment_intent.payment_failed", { id: declined.id, metadata: { payment_id: String(p.id) } }, await gymAccount());
    const deps = { db: env.db, config: env.config, secrets: await loadWebhookSecrets(env.db, env.config), providers: sandboxProviders(env.db), now: () => day };
    const answer = await receiveWebhook(deps, "stripe", body, { "stripe-signature": stripeSignature(body, SECRETS.stripe, day) });
    expect(answer.body.result).toMatch(/now failed/);
    expect((await paymentRow(p.id)).failed_at).toEqual(day);
    // A card's first retry is the day after the failure: planned by the next day's run.
    const next = await planRetryIds(env.db, new Date(day.getTime() + 86_400_000));
    const retries = await env.db.select().from(payments).where(eq(payments.subscription_id, p.subscription_id!));
    expect(retries.filter((r) => next.includes(r.id)).map((r) => r.attempt)).toEqual([1]);
  });
});

describe("POST /api/webhooks/gocardless", () => {
  it("checks the Webhook-Signature and settles direct debits by their GoCardless id; a redelivery is a duplicate", async () => {
    // Collected by GoCardless ten days ago (one from an account short of funds), as the run asks: by now settled there.
    const collect = async (account: string) => {
      const p = await pendingPayment();
      const [ours] = await env.db.select().from(gyms).where(eq(gyms.id, gym.id));
      const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
      const dd = sandboxProviders(env.db, { now: () => tenDaysAgo }).directDebit(ours);
      const made = await dd.collect({ amount: 2_000, currency: "nzd", mandate: "MD_HOOK", accountNumber: account, chargeDate: null, idempotencyKey: p.idempotency_key!, description: "", metadata: { payment_id: String(p.id) } });
      await env.db.update(payments).set({ gocardless_payment_id: made.id }).where(eq(payments.id, p.id));
      return { ...p, gocardless_payment_id: made.id };
    };
    const paid = await collect("12-3456-0123456-00");
    const failed = await collect("12-3456-0009995-00");
    const body = JSON.stringify({
      events: [
        { id: "EV001", created_at: "2026-01-14T10:00:00Z", resource_type: "payments", action: "confirmed", links: { payment: paid.gocardless_payment_id, organisation: "OR1" }, details: { cause: "payment_confirmed" } },
        { id: "EV002", created_at: "2026-01-14T10:00:00Z", resource_type: "payments", action: "failed", links: { payment: failed.gocardless_payment_id }, details: { cause: "insufficient_funds", description: "The customer had insufficient funds." } },
        { id: "EV003", created_at: "2026-01-14T10:00:00Z", resource_type: "mandates", action: "created", links: { mandate: "MD1" } },
      ],
      meta: { webhook_id: "WB001" },
    });
    const bad = await post("/api/webhooks/gocardless", body, { "webhook-signature": gocardlessSignature(body, "not the secret at all") });
    expect(bad.status).toBe(401);
    expect((await paymentRow(paid.id)).status).toBe("pending");
    const good = await post("/api/webhooks/gocardless", body, { "webhook-signature": gocardlessSignature(body, SECRETS.gocardless) });
    expect(good.status).toBe(200);
    expect((await paymentRow(paid.id)).status).toBe("sent");
    expect([(await paymentRow(failed.id)).status, (await paymentRow(failed.id)).error_status]).toEqual(["failed", "insufficient_funds"]);
    const call = await callRow(good.json.call_id);
    expect([call.status, call.event_id, call.organisation_id]).toEqual(["processed", "WB001", org.id]);
    const again = await post("/api/webhooks/gocardless", body, { "webhook-signature": gocardlessSignature(body, SECRETS.gocardless) });
    expect((await callRow(again.json.call_id)).status).toBe("duplicate");
  });
});

describe("GET /api/webhook-calls, replay and GET /api/webhooks", () => {
  it("lists this organisation's calls with filters, shows one with its raw body, and replays it as a new call", async () => {
    const staff = await signedIn(api, env.db, "hook.admin@example.com", PASSWORD);
    const list = await staff.call("GET", "/api/webhook-calls?provider=stripe&status=processed");
    expect(list.status).toBe(200);
    expect(list.json.data.data.length).toBeGreaterThan(0);
    expect(list.json.data.data.every((c: { provider: string; status: string }) => c.provider === "stripe" && c.status === "processed")).toBe(true);
    expect(list.json.data.data[0].body).toBeUndefined();
    const id = list.json.data.data[0].id;
    const one = await staff.call("GET", `/api/webhook-calls/${id}`);
    expect(JSON.parse(one.json.data.body).object).toBe("event");
    const replay = await staff.call("POST", `/api/webhook-calls/${id}/replay`);
    expect(replay.status).toBe(200);
    expect([replay.json.data.replay_of_id, replay.json.data.status]).toEqual([id, "ignored"]);
    expect((await staff.call("GET", "/api/webhook-calls?from=2026-02-01&to=2026-01-01")).status).toBe(422);
    expect((await staff.call("GET", "/api/webhook-calls?status=exploded")).status).toBe(422);
    const hooks = await staff.call("GET", "/api/webhooks");
    expect(hooks.json.data.map((h: { provider: string; secret: string; url: string }) => [h.provider, h.secret, h.url])).toEqual([
      ["stripe", "installation", "http://localhost:3000/api/webhooks/stripe"],
      ["gocardless", "installation", "http://localhost:3000/api/webhooks/gocardless"],
      ["akahu", "installation", "http://localhost:3000/api/webhooks/akahu"],
    ]);
    expect(hooks.json.data[0].last_call.id).toBeGreaterThan(0);
  });

  it("shows another organisation none of them, refuses a rejected call's replay, and keeps replays to those who may take money", async () => {
    const other = await signedIn(api, env.db, "other.hooks@example.com", PASSWORD);
    expect((await other.call("GET", "/api/webhook-calls")).json.data.meta.total).toBe(0);
    const [anyCall] = await env.db.select().from(webhook_calls).where(eq(webhook_calls.status, "processed")).limit(1);
    expect((await other.call("GET", `/api/webhook-calls/${anyCall.id}`)).status).toBe(404);
    expect((await other.call("POST", `/api/webhook-calls/${anyCall.id}/replay`)).status).toBe(404);
    const trainer = await signedIn(api, env.db, "hook.trainer@example.com", PASSWORD);
    expect((await trainer.call("GET", "/api/webhook-calls")).status).toBe(403);
    expect((await trainer.call("POST", `/api/webhook-calls/${anyCall.id}/replay`)).status).toBe(403);
    const admin = await signedIn(api, env.db, "hook.admin@example.com", PASSWORD);
    const [rejected] = await env.db.insert(webhook_calls).values({ provider: "stripe", status: "rejected", headers: {}, body: "{}", organisation_id: org.id }).returning();
    expect((await admin.call("POST", `/api/webhook-calls/${rejected.id}/replay`)).status).toBe(422);
  });
});

describe("the sandbox Stripe's own webhooks", () => {
  const deliverTo = (sent: string[]) => async (provider: string, body: string, headers: Record<string, string>) => {
    sent.push(JSON.parse(body).id);
    return (await post(`/api/webhooks/${provider}`, body, headers)).status;
  };

  it("sends each charge's event after the delay, signed as Stripe signs, and twice when told to", async () => {
    const p = await pendingPayment("pm_card_chargeDeclinedInsufficientFunds");
    const charged = new Date();
    await chargePending(env.db, sandboxProviders(env.db), charged, { only: [p.id] });
    const failed = await paymentRow(p.id);
    const sent: string[] = [];
    const early = await deliverSandboxWebhooks(env.db, deliverTo(sent), new Date(charged.getTime() + 5_000), { ...DEFAULT_SANDBOX_WEBHOOKS, delaySeconds: 30 }, SECRETS);
    expect(sent).not.toContain(`evt_${failed.stripe_id!.replace(/^pi_/, "")}`);
    expect(early.delivered).toBeGreaterThanOrEqual(0);
    const later = new Date(charged.getTime() + 60_000);
    const report = await deliverSandboxWebhooks(env.db, deliverTo(sent), later, { delaySeconds: 30, duplicate: 1, drop: 0, reorder: true }, SECRETS);
    const eventId = `evt_${failed.stripe_id!.replace(/^pi_/, "")}`;
    expect(sent.filter((id) => id === eventId)).toHaveLength(2);
    expect(report.duplicated).toBeGreaterThanOrEqual(1);
    const calls = await env.db.select().from(webhook_calls).where(eq(webhook_calls.event_id, eventId));
    // The run had written the decline down already: both deliveries change nothing. Only a processed event makes a
    // later delivery a "duplicate"; one that changed nothing is looked at again (it may find its payment by then).
    expect(calls.map((c) => c.status).sort()).toEqual(["ignored", "ignored"]);
    expect((await paymentRow(p.id)).status).toBe("failed");
    expect(calls.every((c) => c.event_type === "payment_intent.payment_failed")).toBe(true);
    // Sent once for good: a later round owes nothing for it.
    const again: string[] = [];
    await deliverSandboxWebhooks(env.db, deliverTo(again), new Date(later.getTime() + 60_000), DEFAULT_SANDBOX_WEBHOOKS, SECRETS);
    expect(again).not.toContain(eventId);
  });

  it("sends a charge made on a simulated day on that day, not on the database's", async () => {
    const p = await pendingPayment();
    const day = new Date("2026-01-12T21:00:00Z");
    await chargePending(env.db, sandboxProviders(env.db, simulatedClock(day)), day, { only: [p.id] });
    const eventId = `evt_${(await paymentRow(p.id)).stripe_id!.replace(/^pi_/, "")}`;
    const sent: string[] = [];
    // Its signature is of that day too: our endpoint (on today's clock) refuses it; what counts is that it is sent.
    await deliverSandboxWebhooks(env.db, deliverTo(sent), new Date(day.getTime() + 60_000), DEFAULT_SANDBOX_WEBHOOKS, SECRETS);
    expect(sent).toContain(eventId);
  });

  it("tells of a refund made in its dashboard (charge.refunded), which we write down as the provider's", async () => {
    const p = await pendingPayment();
    await chargePending(env.db, sandboxProviders(env.db), new Date(), { only: [p.id] });
    const paid = await paymentRow(p.id);
    expect(paid.status).toBe("sent");
    const refund = await sandboxCards(env.db).refund({ paymentReference: paid.stripe_id!, amount: 500, currency: "nzd", account: await gymAccount(), refundedBefore: 0, idempotencyKey: `dashboard:${p.id}`, metadata: {} });
    const sent: string[] = [];
    await deliverSandboxWebhooks(env.db, deliverTo(sent), new Date(Date.now() + 60_000), DEFAULT_SANDBOX_WEBHOOKS, SECRETS);
    expect(sent).toContain(`evt_${refund.id}`);
    const [ours] = await env.db.select().from(payment_adjustments).where(eq(payment_adjustments.provider_id, refund.id));
    expect(ours).toMatchObject({ payment_id: p.id, kind: "refund", amount: 500, status: "succeeded", source: "provider" });
  });

  it("can lose events on purpose, and sends again what our endpoint refused", async () => {
    const dropped = await pendingPayment();
    await chargePending(env.db, sandboxProviders(env.db), new Date(), { only: [dropped.id] });
    const later = new Date(Date.now() + 120_000);
    const lost = await deliverSandboxWebhooks(env.db, deliverTo([]), later, { delaySeconds: 0, duplicate: 0, drop: 1, reorder: false }, SECRETS);
    expect(lost.dropped).toBeGreaterThanOrEqual(1);
    const refusedOne = await pendingPayment();
    await chargePending(env.db, sandboxProviders(env.db), new Date(), { only: [refusedOne.id] });
    const wrongSecret = await deliverSandboxWebhooks(env.db, deliverTo([]), later, DEFAULT_SANDBOX_WEBHOOKS, { ...SECRETS, stripe: "whsec_not_what_we_check" });
    expect(wrongSecret.refused).toBeGreaterThanOrEqual(1);
    const sent: string[] = [];
    const retried = await deliverSandboxWebhooks(env.db, deliverTo(sent), later, DEFAULT_SANDBOX_WEBHOOKS, SECRETS);
    expect(retried.delivered).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBe(retried.delivered);
  });
});
