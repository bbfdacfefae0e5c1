import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { billingRun } from "../../server/billing/run";
import { bank_connections, destination_accounts, payment_types, webhook_calls } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxAkahuSignature } from "../../server/core/providers/bank/sandbox";
import { simulatedClock } from "../../server/core/providers/clock";
import { createProviders, providerSettings } from "../../server/core/providers/registry";
import { deliverSandboxWebhooks, type Deliver } from "../../server/core/providers/sandbox-webhooks";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { WEBHOOK_PROVIDERS } from "../../server/core/webhooks/verify";
import { setup, signedIn, signingSecrets } from "./harness";

/**
 * Issue 29 H2: a replay from /webhook-calls runs inside the staff request's tenant transaction. It once asked the
 * providers, whose sandbox books were on the system's handle, for the payment's state: on PGlite (one connection,
 * held by that transaction) the whole server waited for good. Here every kind of stored call is replayed, with the
 * providers made as the server makes them (on the system's handle), while another organisation's requests keep
 * being answered; a deadlock fails on the timeout instead of hanging. Runs on PGlite, and on PostgreSQL with
 * DATABASE_URL. (Kisi's door events are recorded as visits, not stored as calls: there is nothing of theirs to replay.)
 */
const PASSWORD = "replay test passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let org: { id: number };
const clock = simulatedClock(new Date("2026-01-12T00:00:00Z"));
let n = 0;

/** 10 am Auckland on `day`, or another hour. */
const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);

/** Resolves as `work` does, or fails after `ms`: a request that never comes back is a failure, not a hung suite. */
function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms (a deadlock?)`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

beforeAll(async () => {
  env = await setup();
  // The providers as boot() makes them: on the system's handle (server/runtime.ts), sandboxes allowed (a demo).
  const providers = createProviders(env.db, { ...providerSettings(env.config, "http://signup.localhost:3000/"), sandboxAllowed: true }, clock);
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, providers, now: () => clock.now() });
  const hash = await hashPassword(PASSWORD);
  org = await makeOrganisation(env.db, { name: "Replay Gyms" });
  const gym = await makeGym(env.db, org.id, "Replay Yard");
  await env.db.insert(destination_accounts).values({ organisation_id: org.id, gym_id: gym.id, name: "Replay Yard Ltd", bank_account_number: "01-0123-0456789-00" });
  const admin = await makeUser(env.db, { name: "replay admin", email: "replay.admin@example.com", password_hash: hash });
  await addStaff(env.db, admin.id, org.id, "admin");
  const other = await makeOrganisation(env.db, { name: "Elsewhere Gyms" });
  const otherAdmin = await makeUser(env.db, { name: "elsewhere admin", email: "elsewhere.admin@example.com", password_hash: hash });
  await addStaff(env.db, otherAdmin.id, other.id, "admin");
  const weekly = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_500, billing_frequency: "weekly" });

  // One member on each rail, due on Monday 12 January.
  const member = async (type: "stripe_card" | "gocardless_bank_account" | "bank_account", details: Record<string, string>) => {
    const user = await makeUser(env.db, { name: `replayed ${++n}`, email: `replayed${n}@example.com` });
    const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type, details }).returning();
    await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
    if (type === "bank_account") await env.db.insert(bank_connections).values({ organisation_id: org.id, user_id: user.id, access_token: `user_token_sandbox_${n}` });
    const s = await makeSubscription(env.db, weekly, user.id, gym.id, { billing_anchor: "2026-01-05", current_period_start: startOfLocalDay("2026-01-05"), current_period_end: startOfLocalDay("2026-01-12") });
    await makePayment(env.db, s, { amount: 2_500, period_start_at: startOfLocalDay("2026-01-05"), period_end_at: startOfLocalDay("2026-01-12"), status: "sent" });
    return user;
  };
  await member("stripe_card", { last_four: "4242", payment_method: "pm_card_visa" });
  await member("gocardless_bank_account", { name: "Replay Member", account_number: "12-3456-0123456-00", mandate_id: "MDREPLAYSANDBOX" });
  await member("bank_account", { name: "Replay Member", account_number: "12-3456-0323456-00", status: "active", akahu_account_id: `acc_sandbox_${n + 1}` });
  const leaving = await member("bank_account", { name: "Replay Member", account_number: "12-3456-0323457-00", status: "active", akahu_account_id: `acc_sandbox_${n + 1}` });

  // The billing run charges each, and each provider's sandbox sends its signed webhooks to the endpoint, over days.
  const secrets = await signingSecrets(env);
  const deliver: Deliver = async (provider, body, headers) => (await api.fetch(new Request(`http://localhost/api/webhooks/${provider}`, { method: "POST", body, headers }))).status;
  await billingRun(env.db, providers, at("2026-01-12"));
  // (The sandbox Stripe dates its charges by the real clock.)
  for (const when of [at("2026-01-12", 10.05), at("2026-01-15"), at("2026-01-20"), new Date(Date.now() + 60_000)]) {
    clock.set(when);
    await deliverSandboxWebhooks(env.db, deliver, when, { delaySeconds: 30, duplicate: 0, drop: 0, reorder: false }, secrets);
  }
  // And a member revoking their bank connection at Akahu.
  const revoke = JSON.stringify({ webhook_type: "TOKEN", webhook_code: "DELETE", state: `o${org.id}:u${leaving.id}`, item_id: "token_replay" });
  expect(await deliver("akahu", revoke, { "content-type": "application/json", "x-akahu-signature": sandboxAkahuSignature(revoke, secrets.akahu), "x-akahu-signing-key": "1" })).toBe(200);
});
afterAll(() => env?.close());

describe("POST /api/webhook-calls/{id}/replay", () => {
  it("replays every kind of stored call, each within seconds, while another organisation's requests keep being answered", async () => {
    const stored = await env.db
      .select()
      .from(webhook_calls)
      .where(and(eq(webhook_calls.organisation_id, org.id), ne(webhook_calls.status, "rejected")))
      .orderBy(webhook_calls.id);
    // Every provider whose calls are stored has calls here to replay.
    expect([...new Set(stored.map((c) => c.provider))].sort()).toEqual([...WEBHOOK_PROVIDERS].sort());
    expect(stored.some((c) => c.provider === "akahu" && c.event_type === "TOKEN.DELETE")).toBe(true);

    const admin = await signedIn(api, env.db, "replay.admin@example.com", PASSWORD);
    const elsewhere = await signedIn(api, env.db, "elsewhere.admin@example.com", PASSWORD);
    let replaying = true;
    const answered: number[] = [];
    let stuck: unknown = null;
    const others = (async () => {
      while (replaying) answered.push((await within(5_000, elsewhere.call("GET", "/api/webhook-calls"), "another organisation's request")).status);
    })().catch((err: unknown) => void (stuck = err));
    try {
      for (const call of stored) {
        const replay = await within(10_000, admin.call("POST", `/api/webhook-calls/${call.id}/replay`), `the replay of ${call.provider} call ${call.id} (${call.event_type})`);
        expect([call.provider, replay.status]).toEqual([call.provider, 200]);
        expect(replay.json.data.replay_of_id).toBe(call.id);
        // Processed again: the provider was asked (on this request's own handle) and answered.
        expect(replay.json.data.status, `${call.provider} call ${call.id}: ${replay.json.data.result}`).not.toBe("failed");
      }
    } finally {
      replaying = false;
      await others;
    }
    expect(stuck).toBeNull();
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.every((s) => s === 200)).toBe(true);
    // The server still answers everyone afterwards.
    expect((await within(5_000, elsewhere.call("GET", "/api/webhook-calls"), "a request after the replays")).status).toBe(200);
  });
});
