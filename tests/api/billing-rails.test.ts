import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay, startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { billingRun } from "../../server/billing/run";
import { access_control_credentials, bank_connections, destination_accounts, payment_types, payments, sandbox_door_members, sandbox_ledger, subscriptions, webhook_calls } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { simulatedClock } from "../../server/core/providers/clock";
import { createProviders, sandboxProviders } from "../../server/core/providers/registry";
import { deliverSandboxWebhooks, type Deliver } from "../../server/core/providers/sandbox-webhooks";
import { addMember, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signingSecrets } from "./harness";

/**
 * The billing run over the rails that take days (issue 11): direct debits through the sandbox GoCardless on BECS NZ
 * timings, bank payments through the sandbox Akahu, both settled by the run's own polling and by the providers'
 * signed webhooks; the door following the membership; and a production server with no credentials.
 */
let env: Awaited<ReturnType<typeof setup>>;
let org: { id: number };
let gym: { id: number };
let weekly: Awaited<ReturnType<typeof makePrice>>;
let n = 0;
const clock = simulatedClock(new Date("2026-01-12T00:00:00Z"));
let providers: ReturnType<typeof sandboxProviders>;
let api: ReturnType<typeof createApi>;
let SECRETS: Awaited<ReturnType<typeof signingSecrets>>;

beforeAll(async () => {
  env = await setup();
  SECRETS = await signingSecrets(env);
  providers = sandboxProviders(env.db, clock);
  // The API the sandboxes' webhooks reach lives on the same simulated clock: "now" at the provider is the test's day.
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, providers, now: () => clock.now() });
  org = await makeOrganisation(env.db, { name: "Rails Gyms" });
  gym = await makeGym(env.db, org.id, "Rail Yard");
  await env.db.insert(destination_accounts).values({ organisation_id: org.id, gym_id: gym.id, name: "Rail Yard Ltd", bank_account_number: "01-0123-0456789-00" });
  const offering = await makeOffering(env.db, org.id, { name: "Anytime" });
  weekly = await makePrice(env.db, offering, { amount: 2_500, billing_frequency: "weekly" });
});
afterAll(() => env.close());

/** 10 am Auckland on `day`, or another hour. */
const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);

/** A weekly member since Monday 5 January 2026 (first week paid), paying by `kind` from `account`. */
async function member(kind: "gocardless_bank_account" | "bank_account", account: string, connected = true) {
  const user = await makeUser(env.db, { name: `rail member ${++n}`, email: `rail${n}@example.com` });
  const details: Record<string, string> =
    kind === "gocardless_bank_account"
      ? { name: "Rail Member", account_number: account, mandate_id: `MD${n}SANDBOX` }
      : { name: "Rail Member", account_number: account, status: "active", akahu_account_id: `acc_sandbox_${n}` };
  const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type: kind, details }).returning();
  await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
  if (kind === "bank_account" && connected) await env.db.insert(bank_connections).values({ organisation_id: org.id, user_id: user.id, access_token: `user_token_sandbox_${n}` });
  const s = await makeSubscription(env.db, weekly, user.id, gym.id, {
    billing_anchor: "2026-01-05",
    current_period_start: startOfLocalDay("2026-01-05"),
    current_period_end: startOfLocalDay("2026-01-12"),
  });
  await makePayment(env.db, s, { amount: 2_500, period_start_at: startOfLocalDay("2026-01-05"), period_end_at: startOfLocalDay("2026-01-12"), status: "sent" });
  return { user, s };
}

const rowsOf = async (subscriptionId: number) =>
  (await env.db.select().from(payments).where(eq(payments.subscription_id, subscriptionId)))
    .filter((p) => p.idempotency_key)
    .sort((a, b) => a.period_start_at!.getTime() - b.period_start_at!.getTime() || a.attempt - b.attempt);
const summary = async (subscriptionId: number) => (await rowsOf(subscriptionId)).map((p) => [localDay(p.period_start_at!), p.attempt, p.status, p.error_status]);
const subscription = async (id: number) => (await env.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];

const deliver: Deliver = async (provider, body, headers) => (await api.fetch(new Request(`http://localhost/api/webhooks/${provider}`, { method: "POST", body, headers }))).status;
const webhooksAt = (now: Date, settings = { delaySeconds: 30, duplicate: 0, drop: 0, reorder: false }) => {
  clock.set(now);
  return deliverSandboxWebhooks(env.db, deliver, now, settings, SECRETS);
};

describe("a direct debit member (GoCardless, BECS NZ)", () => {
  it("is collected on the charge date two business days on, and paid once GoCardless confirms it (D+3), by the run's own polling", async () => {
    const { s } = await member("gocardless_bank_account", "12-3456-0123456-00");
    await billingRun(env.db, providers, at("2026-01-12"));
    const [created] = await rowsOf(s.id);
    expect([created.status, created.expected_charge_date, created.amount, created.surcharge]).toEqual(["pending", "2026-01-14", 2_500, 0]);
    expect(created.gocardless_payment_id).toMatch(/^PM[0-9A-F]{14}$/);
    // Submitted on the charge date, then waiting out the dishonour window: still under way.
    for (const day of ["2026-01-13", "2026-01-14", "2026-01-16"]) await billingRun(env.db, providers, at(day));
    expect((await rowsOf(s.id))[0].status).toBe("pending");
    expect((await rowsOf(s.id))[0].poll_count).toBeGreaterThanOrEqual(3);
    // Confirmed at 6 am on Monday 19 January (D+3 business days): the 10 am run sees it, and collects the next week.
    await billingRun(env.db, providers, at("2026-01-19"));
    expect(await summary(s.id)).toEqual([
      ["2026-01-12", 0, "sent", null],
      ["2026-01-19", 0, "pending", null],
    ]);
    // The provider made one payment per period, whatever the number of runs.
    const ledger = (await env.db.select().from(sandbox_ledger).where(eq(sandbox_ledger.provider, "gocardless"))).filter((r) => r.idempotency_key.startsWith(`charge:${s.id}:`));
    expect(ledger).toHaveLength(2);
  });

  it("counts business days past weekends and national holidays: made on Waitangi Day (Friday 6 February 2026), charged on Wednesday 11", async () => {
    const { s } = await member("gocardless_bank_account", "12-3456-0123457-00");
    await env.db.update(subscriptions).set({ billing_anchor: "2026-02-06", current_period_start: startOfLocalDay("2026-01-30"), current_period_end: startOfLocalDay("2026-02-06") }).where(eq(subscriptions.id, s.id));
    // Nothing is submitted on a holiday or a weekend: Monday 9 is the first business day, and two more make Wednesday 11.
    await billingRun(env.db, providers, at("2026-02-06"));
    expect((await rowsOf(s.id))[0].expected_charge_date).toBe("2026-02-11");
  });

  it("fails with the bank's cause the business day after the charge date: a soft one is retried, a cancelled mandate is not", async () => {
    const short = await member("gocardless_bank_account", "12-3456-0009995-00");
    const cancelled = await member("gocardless_bank_account", "12-3456-0009979-00");
    await billingRun(env.db, providers, at("2026-01-12"));
    await billingRun(env.db, providers, at("2026-01-14"));
    expect((await summary(short.s.id))[0]).toEqual(["2026-01-12", 0, "pending", null]);
    // Failed at 6 am on Thursday 15: insufficient funds starts the grace period and is tried again the next day.
    await billingRun(env.db, providers, at("2026-01-15"));
    expect(await summary(short.s.id)).toEqual([["2026-01-12", 0, "failed", "insufficient_funds"]]);
    expect(localDay((await subscription(short.s.id)).grace_period_ends_at!)).toBe("2026-01-22");
    await billingRun(env.db, providers, at("2026-01-16"));
    expect(await summary(short.s.id)).toEqual([
      ["2026-01-12", 0, "failed", "insufficient_funds"],
      ["2026-01-12", 1, "pending", null],
    ]);
    expect(await summary(cancelled.s.id)).toEqual([["2026-01-12", 0, "failed", "mandate_cancelled"]]);
  });

  it("is settled by GoCardless's signed webhooks before the run looks: out of order and twice, nothing moves backwards or twice", async () => {
    const { s } = await member("gocardless_bank_account", "12-3456-0223456-00");
    await billingRun(env.db, providers, at("2026-01-26"));
    const [p] = await rowsOf(s.id);
    expect(p.expected_charge_date).toBe("2026-01-28");
    // By 7 am on Tuesday 3 February every event has happened: created, submitted, confirmed (D+3 = 2 Feb), paid out is still to come.
    const report = await webhooksAt(at("2026-02-02", 7), { delaySeconds: 30, duplicate: 1, drop: 0, reorder: true });
    expect(report.refused).toBe(0);
    const after = (await rowsOf(s.id))[0];
    expect(after.status).toBe("sent");
    const calls = await env.db.select().from(webhook_calls).where(eq(webhook_calls.provider, "gocardless"));
    expect(calls.some((c) => c.status === "duplicate")).toBe(true);
    expect(calls.some((c) => c.status === "processed" && c.result?.includes(`Payment ${p.id}`))).toBe(true);
    // Paid out the next day: told, and changes nothing.
    await webhooksAt(at("2026-02-03", 7));
    expect((await rowsOf(s.id))[0].status).toBe("sent");
    const ledger = await env.db.select().from(sandbox_ledger).where(eq(sandbox_ledger.object_id, p.gocardless_payment_id!));
    expect([ledger[0].events_sent, ledger[0].next_event_at, ledger[0].webhook_state]).toEqual([4, null, "delivered"]);
  });

  it("refuses a webhook whose signature does not match, and stores it unprocessed", async () => {
    const body = JSON.stringify({ events: [{ id: "EVFORGED", resource_type: "payments", action: "confirmed", links: { payment: "PM1" } }], meta: { webhook_id: "WBFORGED" } });
    const res = await api.fetch(new Request("http://localhost/api/webhooks/gocardless", { method: "POST", body, headers: { "content-type": "application/json", "webhook-signature": "0".repeat(64) } }));
    expect(res.status).toBe(401);
    const [call] = await env.db.select().from(webhook_calls).where(eq(webhook_calls.body, body));
    expect(call.status).toBe("rejected");
  });
});

describe("a bank account member (Akahu)", () => {
  it("is paid from their connected account to the gym's, settled minutes later: by Akahu's webhook, or the next run", async () => {
    const viaHook = await member("bank_account", "12-3456-0323456-00");
    const viaRun = await member("bank_account", "12-3456-0323457-00");
    await billingRun(env.db, providers, at("2026-01-12"));
    const [p] = await rowsOf(viaHook.s.id);
    expect([p.status, p.surcharge]).toEqual(["pending", 0]);
    expect(p.akahu_payment_id).toMatch(/^payment_/);
    const [ledger] = await env.db.select().from(sandbox_ledger).where(eq(sandbox_ledger.object_id, p.akahu_payment_id!));
    expect(ledger.request).toMatchObject({ amount: 2_500, from: `acc_sandbox_${n - 1}`, to: { name: "Rail Yard Ltd", account_number: "01-0123-0456789-00" } });
    // Sent two minutes after it was made; Akahu's signed PAYMENT UPDATE says so 30 s later.
    await webhooksAt(at("2026-01-12", 10.05));
    expect((await rowsOf(viaHook.s.id))[0].status).toBe("sent");
    const calls = await env.db.select().from(webhook_calls).where(eq(webhook_calls.provider, "akahu"));
    expect(calls.find((c) => c.result?.includes(`Payment ${p.id}`))?.status).toBe("processed");
    await billingRun(env.db, providers, at("2026-01-13"));
    expect((await summary(viaRun.s.id))[0]).toEqual(["2026-01-12", 0, "sent", null]);
  });

  it("waits as awaiting_payment while the member approves it in their bank, then is paid", async () => {
    const { s } = await member("bank_account", "12-3456-0004000-00");
    await billingRun(env.db, providers, at("2026-01-12"));
    expect((await summary(s.id))[0]).toEqual(["2026-01-12", 0, "awaiting_payment", null]);
    await billingRun(env.db, providers, at("2026-01-13", 11));
    expect((await summary(s.id))[0]).toEqual(["2026-01-12", 0, "sent", null]);
  });

  it("is declined with Akahu's status code: insufficient funds is retried; a token the bank no longer takes asks the member to connect again", async () => {
    const short = await member("bank_account", "12-3456-0009995-00");
    const expired = await member("bank_account", "12-3456-0009979-00");
    const unconnected = await member("bank_account", "12-3456-0523456-00", false);
    await billingRun(env.db, providers, at("2026-01-12"));
    await billingRun(env.db, providers, at("2026-01-12", 11));
    expect((await summary(short.s.id))[0]).toEqual(["2026-01-12", 0, "failed", "insufficient_funds"]);
    expect((await summary(expired.s.id))[0]).toEqual(["2026-01-12", 0, "failed", "authentication_failed"]);
    const [connection] = await env.db.select().from(bank_connections).where(eq(bank_connections.user_id, expired.user.id));
    expect(connection.reauthenticate).toBe(true);
    expect(await summary(unconnected.s.id)).toEqual([["2026-01-12", 0, "failed", "no_bank_connection"]]);
    await billingRun(env.db, providers, at("2026-01-13"));
    expect((await summary(short.s.id)).map((r) => r[1])).toEqual([0, 1]);
    expect(await summary(expired.s.id)).toHaveLength(1);
  });

  it("refuses an Akahu webhook not signed with Akahu's key, and a revoked token ends the member's connection", async () => {
    const forged = JSON.stringify({ webhook_type: "PAYMENT", webhook_code: "UPDATE", state: "", item_id: "payment_x", status: "SENT" });
    const res = await api.fetch(new Request("http://localhost/api/webhooks/akahu", { method: "POST", body: forged, headers: { "content-type": "application/json", "x-akahu-signature": Buffer.from("nope").toString("base64"), "x-akahu-signing-key": "1" } }));
    expect(res.status).toBe(401);
    const { user } = await member("bank_account", "12-3456-0623456-00");
    const { sandboxAkahuSignature } = await import("../../server/core/providers/bank/sandbox");
    const body = JSON.stringify({ webhook_type: "TOKEN", webhook_code: "DELETE", state: `o${org.id}:u${user.id}`, item_id: "token_1" });
    const revoked = await api.fetch(new Request("http://localhost/api/webhooks/akahu", { method: "POST", body, headers: { "content-type": "application/json", "x-akahu-signature": sandboxAkahuSignature(body, SECRETS.akahu), "x-akahu-signing-key": "1" } }));
    expect(revoked.status).toBe(200);
    const [connection] = await env.db.select().from(bank_connections).where(eq(bank_connections.user_id, user.id));
    expect([connection.revoked_at !== null, connection.reauthenticate]).toEqual([true, true]);
  });
});

describe("the door", () => {
  it("switches a member off when their grace period runs out unpaid, and on again once their membership is settled", async () => {
    const { user, s } = await member("bank_account", "12-3456-0009987-00");
    await env.db.insert(access_control_credentials).values({ organisation_id: org.id, user_id: user.id, gym_id: gym.id, provider: "kisi", kind: "card", identifier_hint: "1234" });
    await providers.doors.setAccess({ organisationId: org.id, email: user.email, name: user.name }, true);
    // An invalid account: a hard decline (told two minutes after), so a 7-day grace period and no retries.
    await billingRun(env.db, providers, at("2026-01-12"));
    await billingRun(env.db, providers, at("2026-01-12", 11));
    expect((await summary(s.id))[0]).toEqual(["2026-01-12", 0, "failed", "invalid_account"]);
    await billingRun(env.db, providers, at("2026-01-18"));
    const door = async () => (await env.db.select().from(sandbox_door_members).where(eq(sandbox_door_members.email, user.email)))[0].access_enabled;
    const credential = async () => (await env.db.select().from(access_control_credentials).where(eq(access_control_credentials.user_id, user.id)))[0].status;
    expect([await door(), await credential()]).toEqual([true, "active"]);
    const report = await billingRun(env.db, providers, at("2026-01-19"));
    expect(report.doors.suspended).toBe(1);
    expect([await door(), await credential(), (await subscription(s.id)).upcoming_state]).toEqual([false, "suspended", "failed"]);
    // Staff settle it (issue 12's action does this): the next run lets the member back in.
    await env.db.update(subscriptions).set({ upcoming_state: null }).where(eq(subscriptions.id, s.id));
    const back = await billingRun(env.db, providers, at("2026-01-20"));
    expect(back.doors.restored).toBe(1);
    expect([await door(), await credential()]).toEqual([true, "active"]);
  });
});

describe("a production server with no provider credentials", () => {
  it("runs no sandbox: payments wait pending, visibly, rather than being 'paid' by a sandbox that moves no money", async () => {
    const card = await makeUser(env.db, { name: "prod card", email: "prod.card@example.com" });
    const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: card.id, type: "stripe_card", details: { last_four: "4242", payment_method: "pm_card_visa" } }).returning();
    await addMember(env.db, card.id, org.id, gym.id, { default_payment_type_id: pt.id });
    const s = await makeSubscription(env.db, weekly, card.id, gym.id, { billing_anchor: "2026-03-02", current_period_start: startOfLocalDay("2026-03-02"), current_period_end: startOfLocalDay("2026-03-09") });
    const dd = await member("gocardless_bank_account", "12-3456-0723456-00");
    await env.db.update(subscriptions).set({ billing_anchor: "2026-03-02", current_period_start: startOfLocalDay("2026-03-02"), current_period_end: startOfLocalDay("2026-03-09") }).where(eq(subscriptions.id, dd.s.id));
    const production = createProviders(env.db, { sandboxAllowed: false, linkBase: "https://join.example.com/" }, clock);
    expect([production.cards.mode, production.directDebit({ id: gym.id, stripe_id: null, gocardless_organisation_id: null, integrations: {} }).mode]).toEqual(["unconfigured", "unconfigured"]);
    const report = await billingRun(env.db, production, at("2026-03-09"));
    expect(report.leftPending).toBeGreaterThanOrEqual(2);
    expect((await summary(s.id))[0]).toEqual(["2026-03-09", 0, "pending", null]);
    expect((await summary(dd.s.id))[0]).toEqual(["2026-03-09", 0, "pending", null]);
  });
});
