import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { gyms, payment_types, payments, webhook_calls } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxAkahuSignature } from "../../server/core/providers/bank/sandbox";
import { sandboxProviders } from "../../server/core/providers/registry";
import { hashPassword } from "../../server/core/auth/password";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { gocardlessSignature, stripeSignature } from "../../server/core/webhooks/verify";
import { setup, signedIn, signingSecrets } from "./harness";

/**
 * Issue 28, finding 7: an event settles a payment only from the provider's own answer for the object we made, on
 * the account it belongs to, for the amount and currency we asked. Finding 9a: a Stripe signature from the future
 * is as stale as one from the past.
 */
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let ours: { org: { id: number }; gym: typeof gyms.$inferSelect; price: Awaited<ReturnType<typeof makePrice>> };
let theirs: { org: { id: number }; gym: typeof gyms.$inferSelect; price: Awaited<ReturnType<typeof makePrice>> };
let n = 0;

async function organisation(name: string, stripeId: string, creditor: string) {
  const org = await makeOrganisation(env.db, { name });
  const made = await makeGym(env.db, org.id, `${name} Central`);
  const [gym] = await env.db.update(gyms).set({ stripe_id: stripeId, gocardless_organisation_id: creditor }).where(eq(gyms.id, made.id)).returning();
  const price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_000, billing_frequency: "weekly" });
  return { org, gym, price };
}

let SECRETS: Awaited<ReturnType<typeof signingSecrets>>;

beforeAll(async () => {
  env = await setup();
  SECRETS = await signingSecrets(env);
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  ours = await organisation("Provenance Gyms", "acct_provenance_ours", "OR_PROVENANCE_OURS");
  theirs = await organisation("Elsewhere Gyms", "acct_provenance_theirs", "OR_PROVENANCE_THEIRS");
});
afterAll(() => env.close());

/** A pending payment of $20.00 plus a 60 c surcharge, as the billing run leaves it before charging. */
async function pendingPayment(kind: "stripe_card" | "gocardless_bank_account" | "bank_account" = "stripe_card", extra: Partial<typeof payments.$inferInsert> = {}) {
  const user = await makeUser(env.db, { name: `provenance ${++n}`, email: `provenance${n}@example.com` });
  const [pt] = await env.db.insert(payment_types).values({ organisation_id: ours.org.id, user_id: user.id, type: kind, details: { payment_method: "pm_card_visa" } }).returning();
  await addMember(env.db, user.id, ours.org.id, ours.gym.id, { default_payment_type_id: pt.id });
  const s = await makeSubscription(env.db, ours.price, user.id, ours.gym.id, { billing_anchor: "2026-01-05" });
  return makePayment(env.db, s, {
    amount: 2_000,
    surcharge: 60,
    status: "pending",
    payment_type_id: pt.id,
    period_start_at: startOfLocalDay("2026-01-12"),
    period_end_at: startOfLocalDay("2026-01-19"),
    idempotency_key: `charge:${s.id}:2026-01-12:0`,
    ...extra,
  });
}

/** A charge the sandbox Stripe really made, on a Connect account, for what metadata says. */
const chargeAtStripe = (account: string, amount: number, paymentId: number, key = `other:${Math.random()}`) =>
  sandboxProviders(env.db).cards.charge({ amount, currency: "nzd", customer: null, paymentMethod: "pm_card_visa", account, idempotencyKey: key, description: "", metadata: { payment_id: String(paymentId), subscription_id: "" } });

let events = 0;
const stripeEvent = (account: string | null, intent: Record<string, unknown>) =>
  JSON.stringify({ id: `evt_provenance_${++events}`, object: "event", type: "payment_intent.succeeded", ...(account ? { account } : {}), data: { object: { object: "payment_intent", status: "succeeded", ...intent } } });

async function post(path: string, body: string, headers: Record<string, string>) {
  const res = await api.fetch(new Request(`http://localhost:3000${path}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }), { clientIp: "198.51.100.1" });
  return { status: res.status, json: (await res.json()) as { message: string; call_id: number; result?: string } };
}
const toStripe = (body: string, at = new Date()) => post("/api/webhooks/stripe", body, { "stripe-signature": stripeSignature(body, SECRETS.stripe, at) });
const toGoCardless = (body: string) => post("/api/webhooks/gocardless", body, { "webhook-signature": gocardlessSignature(body, SECRETS.gocardless) });
const callRow = async (id: number) => (await env.db.select().from(webhook_calls).where(eq(webhook_calls.id, id)))[0];
const paymentRow = async (id: number) => (await env.db.select().from(payments).where(eq(payments.id, id)))[0];

/** The call was answered 2xx (so the provider stops sending it), stored refused for our organisation, and changed nothing. */
async function expectRefused(res: Awaited<ReturnType<typeof post>>, paymentId: number, reason: RegExp) {
  expect(res.status).toBe(200);
  const call = await callRow(res.json.call_id);
  expect([call.status, call.organisation_id]).toEqual(["refused", ours.org.id]);
  expect(call.result).toMatch(reason);
  expect((await paymentRow(paymentId)).status).toBe("pending");
}

describe("a Stripe event settles only what Stripe itself says it charged for us", () => {
  it("refuses an intent Stripe never made, though the event names our payment in its metadata", async () => {
    const p = await pendingPayment();
    const res = await toStripe(stripeEvent(ours.gym.stripe_id, { id: "pi_never_made_at_all", amount: 2_060, currency: "nzd", metadata: { payment_id: String(p.id) } }));
    await expectRefused(res, p.id, /Stripe knows no pi_never_made_at_all/);
  });

  it("refuses another intent than the one we hold for the payment, though Stripe made it and it names our payment", async () => {
    const p = await pendingPayment("stripe_card", { stripe_id: "pi_the_one_we_made" });
    const other = await chargeAtStripe(ours.gym.stripe_id!, 2_060, p.id);
    const res = await toStripe(stripeEvent(ours.gym.stripe_id, { id: other.id, amount: 2_060, currency: "nzd", metadata: { payment_id: String(p.id) } }));
    await expectRefused(res, p.id, /is pi_the_one_we_made/);
  });

  it("refuses an event from another organisation's connected account, and an intent that lives on one", async () => {
    const p = await pendingPayment();
    // Made on their account, naming our payment: Stripe sends its event to our platform endpoint, correctly signed.
    const theirCharge = await chargeAtStripe(theirs.gym.stripe_id!, 2_060, p.id);
    const fromThem = await toStripe(stripeEvent(theirs.gym.stripe_id, { id: theirCharge.id, amount: 2_060, currency: "nzd", metadata: { payment_id: String(p.id) } }));
    await expectRefused(fromThem, p.id, /acct_provenance_theirs/);
    // The event claims our account, but the intent is theirs: asked on our account, Stripe knows no such intent.
    const claimed = await toStripe(stripeEvent(ours.gym.stripe_id, { id: theirCharge.id, amount: 2_060, currency: "nzd", metadata: { payment_id: String(p.id) } }));
    await expectRefused(claimed, p.id, /Stripe knows no/);
  });

  it("refuses a charge for another amount than ours (amount plus surcharge)", async () => {
    const p = await pendingPayment();
    const short = await chargeAtStripe(ours.gym.stripe_id!, 2_000, p.id);
    const res = await toStripe(stripeEvent(ours.gym.stripe_id, { id: short.id, amount: 2_060, currency: "nzd", metadata: { payment_id: String(p.id) } }));
    await expectRefused(res, p.id, /2000 cents.*2060/);
  });

  it("still settles the charge we made, on our account, for our amount, when our run died before writing it down", async () => {
    const p = await pendingPayment();
    const charged = await chargeAtStripe(ours.gym.stripe_id!, 2_060, p.id, p.idempotency_key!);
    const res = await toStripe(stripeEvent(ours.gym.stripe_id, { id: charged.id, amount: 2_060, currency: "nzd", metadata: { payment_id: String(p.id) } }));
    expect(res.status).toBe(200);
    expect((await callRow(res.json.call_id)).status).toBe("processed");
    expect([(await paymentRow(p.id)).status, (await paymentRow(p.id)).stripe_id]).toEqual(["sent", charged.id]);
  });
});

describe("a GoCardless event settles only payments of the creditor they belong to", () => {
  /** A direct debit GoCardless made for the gym ten days ago: paid out by now. */
  async function collected(p: typeof payments.$inferSelect) {
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    const dd = sandboxProviders(env.db, { now: () => tenDaysAgo }).directDebit(ours.gym);
    const made = await dd.collect({ amount: 2_060, currency: "nzd", mandate: "MD_PROVENANCE", chargeDate: null, idempotencyKey: p.idempotency_key!, description: "", metadata: { payment_id: String(p.id) } });
    await env.db.update(payments).set({ gocardless_payment_id: made.id }).where(eq(payments.id, p.id));
    return made.id;
  }
  const batch = (webhookId: string, payment: string, organisation: string) =>
    JSON.stringify({ events: [{ id: `EV_${webhookId}`, created_at: new Date().toISOString(), resource_type: "payments", action: "confirmed", links: { payment, organisation } }], meta: { webhook_id: webhookId } });

  it("does not apply a batch whose links.organisation is another creditor", async () => {
    const p = await pendingPayment("gocardless_bank_account");
    const id = await collected(p);
    const res = await toGoCardless(batch("WB_PROVENANCE_THEIRS", id, theirs.gym.gocardless_organisation_id!));
    await expectRefused(res, p.id, /OR_PROVENANCE_THEIRS/);
  });

  it("refuses a payment GoCardless does not know, whatever the event says", async () => {
    const p = await pendingPayment("gocardless_bank_account", { gocardless_payment_id: "PM_NEVER_MADE" });
    const res = await toGoCardless(batch("WB_PROVENANCE_UNKNOWN", "PM_NEVER_MADE", ours.gym.gocardless_organisation_id!));
    await expectRefused(res, p.id, /GoCardless knows no PM_NEVER_MADE/);
  });

  it("settles our creditor's payment from GoCardless's answer", async () => {
    const p = await pendingPayment("gocardless_bank_account");
    const id = await collected(p);
    const res = await toGoCardless(batch("WB_PROVENANCE_OURS", id, ours.gym.gocardless_organisation_id!));
    expect([res.status, (await callRow(res.json.call_id)).status, (await paymentRow(p.id)).status]).toEqual([200, "processed", "sent"]);
  });
});

describe("an Akahu event settles only the member's own payment", () => {
  it("refuses an update subscribed for another member, and a payment Akahu cannot show", async () => {
    const p = await pendingPayment("bank_account", { akahu_payment_id: "payment_provenance_unknown" });
    const send = (state: string) => {
      const body = JSON.stringify({ webhook_type: "PAYMENT", webhook_code: "UPDATE", state, item_id: "payment_provenance_unknown", status: "SENT" });
      return post("/api/webhooks/akahu", body, { "x-akahu-signature": sandboxAkahuSignature(body, SECRETS.akahu), "x-akahu-signing-key": "1" });
    };
    await expectRefused(await send(`o${theirs.org.id}:u${p.user_id}`), p.id, /another member|not ours/);
    await expectRefused(await send(`o${ours.org.id}:u${p.user_id}`), p.id, /Akahu/);
  });
});

describe("staff see the refused calls", () => {
  it("filters /api/webhook-calls on status refused", async () => {
    const admin = await makeUser(env.db, { name: "provenance admin", email: "provenance.admin@example.com", password_hash: await hashPassword("provenance passphrase") });
    await addStaff(env.db, admin.id, ours.org.id, "admin");
    const staff = await signedIn(api, env.db, "provenance.admin@example.com", "provenance passphrase");
    const list = await staff.call("GET", "/api/webhook-calls?status=refused");
    expect(list.status).toBe(200);
    expect(list.json.data.data.length).toBeGreaterThan(0);
    expect(list.json.data.data.every((c: { status: string; result: string }) => c.status === "refused" && c.result.startsWith("Refused"))).toBe(true);
  });
});

describe("the sandboxes answer as the real services do", () => {
  it("show a direct debit only to its creditor's token, and a bank payment only to the member whose token made it", async () => {
    const providers = sandboxProviders(env.db);
    const dd = await providers.directDebit(ours.gym).collect({ amount: 2_060, currency: "nzd", mandate: "MD_SCOPE", chargeDate: null, idempotencyKey: `scope:${Math.random()}`, description: "", metadata: { payment_id: "1" } });
    expect((await providers.directDebit(ours.gym).retrieve(dd.id))?.made).toEqual({ amount: 2_060, currency: "nzd", account: null, metadata: { payment_id: "1" } });
    expect(await providers.directDebit(theirs.gym).retrieve(dd.id)).toBeNull();
    const to = { name: "Provenance Ltd", account_number: "01-0123-0456789-00" };
    const statement = { particulars: "Membership", code: "", reference: "P1" };
    const paid = await providers.bank(ours.gym).pay({ amount: 2_060, token: "user_token_sandbox_member", fromAccount: "acc_sandbox_everyday", to, statement, idempotencyKey: `scope:${Math.random()}` });
    expect((await providers.bank(ours.gym).retrieve("user_token_sandbox_member", paid.id))?.made).toMatchObject({ amount: 2_060, currency: "nzd" });
    expect(await providers.bank(ours.gym).retrieve("user_token_sandbox_someone_else", paid.id)).toBeNull();
  });
});

describe("Stripe's signature tolerance (finding 9a)", () => {
  it("refuses a signature timestamped an hour in the future with 401, stored rejected", async () => {
    const p = await pendingPayment();
    const res = await toStripe(stripeEvent(ours.gym.stripe_id, { id: "pi_from_the_future", metadata: { payment_id: String(p.id) } }), new Date(Date.now() + 3_600_000));
    expect(res.status).toBe(401);
    expect((await callRow(res.json.call_id)).status).toBe("rejected");
    expect((await paymentRow(p.id)).status).toBe("pending");
  });

  it("still takes a signature a little ahead of our clock (within 300 s)", async () => {
    const res = await toStripe(stripeEvent(null, { id: "pi_slightly_ahead" }), new Date(Date.now() + 60_000));
    expect(res.status).toBe(200);
  });
});
