import dns from "node:dns";
import { createServer } from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_SECONDS, retryAfterSeconds } from "../../domain/webhook-events";
import { createApi, localJobs } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { ConfigError } from "../../server/core/config";
import { mail_outbox, users, visits, webhook_attempts, webhook_deliveries, webhook_endpoints, webhook_events } from "../../server/core/db/schema";
import { withTenant } from "../../server/core/db/tenant";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addressRules, endpointRefusal, staticRefusal } from "../../server/outgoing-webhooks/address";
import { deliverDue } from "../../server/outgoing-webhooks/deliver";
import { recordWebhookEvent } from "../../server/outgoing-webhooks/events";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { itRaces, setup, signedIn, testConfig } from "./harness";
import { startReceiver, verified, type Receiver } from "./webhook-receiver";

/**
 * Issue 33, "Webhooks out": endpoints an organisation admin registers, events written in the same transaction as the
 * change (the outbox), delivered by the job signed by the Standard Webhooks scheme, retried on its schedule, disabled
 * after three days of failures or a 410, and never sent to a private address or our own host. The receivers are on
 * 127.0.0.1 (WEBHOOKS_ALLOW_LOOPBACK); no test sends a packet to any other address: refusals are made before connecting.
 */
const PASSWORD = "webhooks out passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let jobs: ReturnType<typeof localJobs>;
let clock = new Date();
const now = () => clock;
const id: Record<string, number> = {};
let admin: Awaited<ReturnType<typeof signedIn>>;
let receiver: Receiver;
const deps = () => ({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now });

beforeAll(async () => {
  env = await setup({ WEBHOOKS_ALLOW_LOOPBACK: "1", BACKOFFICE_HOSTS: "localhost,127.0.0.1,admin.gym.test", SIGNUP_HOSTS: "join.gym.test" });
  jobs = localJobs({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now });
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now, jobs });
  const db = env.db;
  const hash = await hashPassword(PASSWORD);
  const org = await makeOrganisation(db, { name: "Alpha Webhooks" });
  const gym = await makeGym(db, org.id, "Alpha Central");
  const bravo = await makeOrganisation(db, { name: "Bravo Webhooks" });
  const bravoGym = await makeGym(db, bravo.id, "Bravo Central");
  Object.assign(id, { org: org.id, gym: gym.id, bravo: bravo.id, bravoGym: bravoGym.id });
  const owner = await makeUser(db, {
    name: "Olive Owner",
    email: "owner@example.com",
    password_hash: hash,
    current_organisation_id: org.id,
    current_gym_id: gym.id,
  });
  await addStaff(db, owner.id, org.id, "admin");
  const gymAdmin = await makeUser(db, {
    name: "Gina Gym",
    email: "gym.admin@example.com",
    password_hash: hash,
    current_organisation_id: org.id,
    current_gym_id: gym.id,
  });
  await addStaff(db, gymAdmin.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "admin" }]);
  const bravoAdmin = await makeUser(db, { name: "Bruno Bravo", email: "bravo.admin@example.com", password_hash: hash, current_organisation_id: bravo.id });
  await addStaff(db, bravoAdmin.id, bravo.id, "admin");
  const price = await makePrice(db, await makeOffering(db, org.id, { name: "Anytime" }), { amount: 2_500 });
  const member = await makeUser(db, { name: "Mia Member", email: "mia@example.com" });
  const s = await makeSubscription(db, price, member.id, gym.id, {
    current_period_start: new Date(Date.now() - 864e5),
    current_period_end: new Date(Date.now() + 6 * 864e5),
  });
  await addMember(db, member.id, org.id, gym.id, { latest_subscription_id: s.id });
  Object.assign(id, { owner: owner.id, member: member.id, subscription: s.id });
  admin = await signedIn(api, db, "owner@example.com", PASSWORD);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await env?.close();
});
afterEach(async () => {
  vi.restoreAllMocks();
  clock = new Date();
  admin = await signedIn(api, env.db, "owner@example.com", PASSWORD);
  receiver.answer = () => ({ status: 200, body: "ok" });
});

const endpointBody = (url: string, events: string[] = ["visit.created"]) => ({ url, description: "Our CRM", events });

async function addEndpoint(url = receiver.url, events?: string[]) {
  const res = await admin.call("POST", "/api/webhook-endpoints", endpointBody(url, events));
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data as { id: number; secret: string };
}

async function checkIn(key: string) {
  const res = await admin.call("POST", "/api/check-ins", { user_id: id.member, key });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  await jobs.idle();
  return res.json.data.visit.id as number;
}

/** Moves the clock on; the admin signs in again (a session does not last days), as they would. */
async function travel(ms: number) {
  clock = new Date(clock.getTime() + ms);
  admin = await signedIn(api, env.db, "owner@example.com", PASSWORD);
}

const deliveriesOf = (endpointId: number) =>
  env.db.select().from(webhook_deliveries).where(eq(webhook_deliveries.endpoint_id, endpointId)).orderBy(webhook_deliveries.id);

describe("endpoints", () => {
  it("gives the signing secret once, when the endpoint is made, and keeps it sealed", async () => {
    const made = await addEndpoint();
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(made.secret.slice(6), "base64")).toHaveLength(32);
    const again = await admin.call("GET", `/api/webhook-endpoints/${made.id}`);
    expect(again.status).toBe(200);
    expect(JSON.stringify(again.json)).not.toContain(made.secret.slice(6, 20));
    const list = await admin.call("GET", "/api/webhook-endpoints");
    expect(JSON.stringify(list.json)).not.toContain(made.secret.slice(6, 20));
    const [row] = await env.db.select().from(webhook_endpoints).where(eq(webhook_endpoints.id, made.id));
    expect(row.secret).not.toContain(made.secret.slice(6, 20));
    expect(row.secret).toMatch(/^v1:/);
    expect((await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`)).status).toBe(200);
  });

  it("checks the form: an address, at least one event, from the list (422 with field errors)", async () => {
    const res = await admin.call("POST", "/api/webhook-endpoints", { url: "not a url", events: [] });
    expect(res.status).toBe(422);
    expect(res.json.errors.url).toBeTruthy();
    expect(res.json.errors.events).toEqual(["Choose at least one event"]);
    const unknown = await admin.call("POST", "/api/webhook-endpoints", { url: receiver.url, events: ["member.exploded"] });
    expect(unknown.status).toBe(422);
    const all = await admin.call("POST", "/api/webhook-endpoints", { url: receiver.url, all_events: "on" });
    expect(all.status).toBe(201);
    expect(all.json.data.events).toHaveLength(14);
    await admin.call("DELETE", `/api/webhook-endpoints/${all.json.data.id}`);
  });

  it("is for organisation admins only", async () => {
    const gymAdmin = await signedIn(api, env.db, "gym.admin@example.com", PASSWORD);
    expect((await gymAdmin.call("GET", "/api/webhook-endpoints")).status).toBe(403);
    expect((await gymAdmin.call("POST", "/api/webhook-endpoints", endpointBody(receiver.url))).status).toBe(403);
  });
});

describe("the outbox", () => {
  it("writes a check-in's visit.created with the visit, and delivers it signed (verified with the standardwebhooks package)", async () => {
    const made = await addEndpoint();
    receiver.received.length = 0;
    const visitId = await checkIn("outbox-0001");
    expect(receiver.received).toHaveLength(1);
    const [r] = receiver.received;
    const body = verified(made.secret, r) as {
      type: string;
      version: number;
      timestamp: string;
      data: { id: number; successful: boolean; user: { id: number } };
    };
    expect(body).toMatchObject({ type: "visit.created", version: 1, data: { id: visitId, successful: true, user: { id: id.member } } });
    expect(r.headers["webhook-id"]).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
    expect(r.headers["content-type"]).toBe("application/json");
    const [event] = await env.db.select().from(webhook_events).where(eq(webhook_events.public_id, r.headers["webhook-id"]));
    expect(event).toMatchObject({ organisation_id: id.org, type: "visit.created" });
    const [d] = await deliveriesOf(made.id);
    expect(d).toMatchObject({ status: "succeeded", attempts: 1, last_status: 200, locked_until: null });
    const [attempt] = await env.db.select().from(webhook_attempts).where(eq(webhook_attempts.delivery_id, d.id));
    expect(attempt).toMatchObject({ response_status: 200, response_body: "ok", error: null });
    expect(attempt.request_headers["webhook-id"]).toBe(r.headers["webhook-id"]);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    // A wrong secret does not verify.
    expect(() => verified(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, r)).toThrow();
    await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
  });

  it("writes nothing when the change rolls back, and nothing for events the endpoint did not ask for", async () => {
    const made = await addEndpoint(receiver.url, ["payment.failed"]);
    const before = await env.db.$count(webhook_events);
    await expect(
      withTenant(
        env.db,
        id.org,
        id.gym,
        async (t) => {
          const [v] = await t.db
            .insert(visits)
            .values(t.owned({ gym_id: id.gym, user_id: id.member, visited_at: clock }))
            .returning();
          await recordWebhookEvent(t, "payment.failed", v.id, clock);
          expect(await t.db.$count(webhook_events)).toBe(before + 1);
          throw new Error("the change fails");
        },
        { atomic: true },
      ),
    ).rejects.toThrow("the change fails");
    expect(await env.db.$count(webhook_events)).toBe(before);
    await checkIn("outbox-0002");
    expect(await env.db.$count(webhook_events)).toBe(before);
    await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
  });

  it("sends each event once per endpoint: one webhook-id, a delivery each, never two for one pair", async () => {
    const a = await addEndpoint();
    const b = await addEndpoint();
    receiver.received.length = 0;
    await checkIn("outbox-0003");
    expect(receiver.received).toHaveLength(2);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const [d] = await deliveriesOf(a.id);
    await expect(env.db.insert(webhook_deliveries).values({ organisation_id: id.org, event_id: d.event_id, endpoint_id: a.id })).rejects.toThrow();
    for (const e of [a, b]) await admin.call("DELETE", `/api/webhook-endpoints/${e.id}`);
  });
});

describe("signing and rotation", () => {
  it("signs with the new and the previous secret for 24 hours after a rotation, then with the new one only", async () => {
    const made = await addEndpoint();
    const rotated = await admin.call("POST", `/api/webhook-endpoints/${made.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.json.data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(made.secret);
    expect(rotated.json.data.previous_secret_expires_at).toBe(new Date(clock.getTime() + 86_400_000).toISOString());
    receiver.received.length = 0;
    await checkIn("rotate-0001");
    const [during] = receiver.received;
    expect(during.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verified(fresh, during)).toBeTruthy();
    expect(verified(made.secret, during)).toBeTruthy();

    await travel(25 * 3_600_000);
    receiver.received.length = 0;
    await checkIn("rotate-0002");
    const [after] = receiver.received;
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(verified(fresh, after)).toBeTruthy();
    expect(() => verified(made.secret, after)).toThrow();
    expect((await admin.call("GET", `/api/webhook-endpoints/${made.id}`)).json.data.previous_secret_expires_at).toBeNull();
    await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
  });
});

describe("retries", () => {
  it("follows the Standard Webhooks schedule, with jitter of up to a tenth, and honours Retry-After", () => {
    const t0 = new Date("2026-01-01T00:00:00Z");
    expect(RETRY_DELAYS_SECONDS).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    for (let n = 1; n < MAX_ATTEMPTS; n++) {
      expect(nextAttemptAt(n, t0, { random: () => 0 })!.getTime() - t0.getTime()).toBe(RETRY_DELAYS_SECONDS[n] * 1000);
      const most = nextAttemptAt(n, t0, { random: () => 0.999999 })!.getTime() - t0.getTime();
      expect(most).toBeLessThanOrEqual(RETRY_DELAYS_SECONDS[n] * 1100);
    }
    expect(nextAttemptAt(MAX_ATTEMPTS, t0)).toBeNull();
    expect(nextAttemptAt(1, t0, { random: () => 0, retryAfterSeconds: 120 })!.getTime() - t0.getTime()).toBe(120_000);
    expect(nextAttemptAt(4, t0, { random: () => 0, retryAfterSeconds: 120 })!.getTime() - t0.getTime()).toBe(7_200_000);
    expect(nextAttemptAt(1, t0, { random: () => 0, retryAfterSeconds: 10 * 86_400 })!.getTime() - t0.getTime()).toBe(86_400_000);
    expect(retryAfterSeconds("30", t0)).toBe(30);
    expect(retryAfterSeconds(new Date(t0.getTime() + 90_000).toUTCString(), t0)).toBe(90);
    expect(retryAfterSeconds("soon", t0)).toBeNull();
  });

  it("tries a failing delivery ten times over about three days, then gives up; the same webhook-id every time", async () => {
    const made = await addEndpoint();
    receiver.answer = () => ({ status: 500, body: "down" });
    receiver.received.length = 0;
    const start = clock;
    await checkIn("retry-0001");
    const [first] = await deliveriesOf(made.id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, last_status: 500 });
    const gaps: number[] = [];
    for (let n = 2; n <= MAX_ATTEMPTS; n++) {
      const [d] = await deliveriesOf(made.id);
      gaps.push(Math.round((d.next_attempt_at.getTime() - clock.getTime()) / 1000));
      clock = new Date(d.next_attempt_at.getTime() + 1);
      // The endpoint's failing streak is younger than three days until the last tries: it must not be disabled first.
      await deliverDue(deps());
    }
    gaps.forEach((g, i) => {
      expect(g).toBeGreaterThanOrEqual(RETRY_DELAYS_SECONDS[i + 1]);
      expect(g).toBeLessThanOrEqual(Math.ceil(RETRY_DELAYS_SECONDS[i + 1] * 1.1));
    });
    const [d] = await deliveriesOf(made.id);
    expect(d.attempts).toBe(MAX_ATTEMPTS);
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(clock.getTime() - start.getTime()).toBeGreaterThan(3 * 86_400_000);
    // Ten failures over three days: given up, and the endpoint disabled with it.
    expect(d.status).toBe("failed");
    await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
  });

  it("waits as long as Retry-After asks on a 429", async () => {
    const made = await addEndpoint();
    receiver.answer = () => ({ status: 429, headers: { "retry-after": "600" } });
    await checkIn("retry-0002");
    const [d] = await deliveriesOf(made.id);
    expect(d.status).toBe("pending");
    expect(d.next_attempt_at.getTime() - clock.getTime()).toBeGreaterThanOrEqual(600_000);
    await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
  });
});

describe("disabling", () => {
  const mailsTo = (to: string) =>
    env.db
      .select()
      .from(mail_outbox)
      .where(and(eq(mail_outbox.to, to), sql`${mail_outbox.subject} like 'Webhook endpoint disabled%'`));

  it("disables an endpoint that has failed without a success for three days, fails its waiting deliveries and e-mails the admins", async () => {
    const made = await addEndpoint();
    const mailsBefore = (await mailsTo("owner@example.com")).length;
    receiver.answer = () => ({ status: 503 });
    await checkIn("disable-0001");
    const [row] = await env.db.select().from(webhook_endpoints).where(eq(webhook_endpoints.id, made.id));
    expect(row.failing_since?.getTime()).toBe(clock.getTime());
    // A success in between ends the streak.
    receiver.answer = () => ({ status: 204 });
    await travel(2 * 86_400_000);
    await checkIn("disable-0002");
    expect((await env.db.select().from(webhook_endpoints).where(eq(webhook_endpoints.id, made.id)))[0].failing_since).toBeNull();
    receiver.answer = () => ({ status: 503 });
    await checkIn("disable-0003");
    await travel(3 * 86_400_000 - 60_000);
    await checkIn("disable-0004");
    expect((await env.db.select().from(webhook_endpoints).where(eq(webhook_endpoints.id, made.id)))[0].disabled_at).toBeNull();
    await travel(120_000);
    await checkIn("disable-0005");
    const [disabled] = await env.db.select().from(webhook_endpoints).where(eq(webhook_endpoints.id, made.id));
    expect(disabled.disabled_at?.getTime()).toBe(clock.getTime());
    expect(disabled.disabled_reason).toMatch(/three days/);
    expect((await deliveriesOf(made.id)).filter((d) => d.status === "pending")).toEqual([]);
    const mails = await mailsTo("owner@example.com");
    expect(mails.length).toBe(mailsBefore + 1);
    expect(mails.at(-1)!.text).toContain(`/organisation/developers/webhooks/${made.id}`);
    expect(mails.at(-1)!.text).toContain(receiver.url);
    // The gym admin is not an organisation admin: not told.
    expect(await mailsTo("gym.admin@example.com")).toEqual([]);
    // Disabled: new events are not queued for it, and it is enabled again by an admin.
    const events = await env.db.$count(webhook_deliveries, eq(webhook_deliveries.endpoint_id, made.id));
    await checkIn("disable-0006");
    expect(await env.db.$count(webhook_deliveries, eq(webhook_deliveries.endpoint_id, made.id))).toBe(events);
    const enabled = await admin.call("POST", `/api/webhook-endpoints/${made.id}/enable`);
    expect(enabled.json.data).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
  });

  it("disables an endpoint at once when it answers 410 Gone", async () => {
    const made = await addEndpoint();
    const mailsBefore = (await mailsTo("owner@example.com")).length;
    receiver.answer = () => ({ status: 410 });
    await checkIn("gone-0001");
    const [row] = await env.db.select().from(webhook_endpoints).where(eq(webhook_endpoints.id, made.id));
    expect(row.disabled_at).not.toBeNull();
    expect(row.disabled_reason).toMatch(/410/);
    expect((await mailsTo("owner@example.com")).length).toBe(mailsBefore + 1);
    expect((await deliveriesOf(made.id))[0].status).toBe("failed");
    await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
  });
});

describe("test events and resends", () => {
  it("sends a test event before answering, and resends a delivered one with the same webhook-id", async () => {
    const made = await addEndpoint();
    receiver.received.length = 0;
    const test = await admin.call("POST", `/api/webhook-endpoints/${made.id}/test`);
    expect(test.status).toBe(202);
    expect(receiver.received).toHaveLength(1);
    expect(verified(made.secret, receiver.received[0])).toMatchObject({ type: "webhook.test", data: { endpoint_id: made.id } });
    const delivery = await admin.call("GET", `/api/webhook-endpoints/${made.id}/deliveries/${test.json.data.id}`);
    expect(delivery.json.data).toMatchObject({ status: "succeeded", attempts: 1, event: { type: "webhook.test" } });
    expect(delivery.json.data.attempts).toBe(1);
    expect(JSON.parse(delivery.json.data.body)).toMatchObject({ type: "webhook.test" });
    const resent = await admin.call("POST", `/api/webhook-endpoints/${made.id}/deliveries/${test.json.data.id}/resend`);
    expect(resent.status).toBe(202);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers["webhook-id"]).toBe(receiver.received[0].headers["webhook-id"]);
    // A resend that fails leaves a delivered delivery delivered.
    receiver.answer = () => ({ status: 500 });
    await admin.call("POST", `/api/webhook-endpoints/${made.id}/deliveries/${test.json.data.id}/resend`);
    const after = (await admin.call("GET", `/api/webhook-endpoints/${made.id}/deliveries/${test.json.data.id}`)).json.data;
    expect(after).toMatchObject({ status: "succeeded", attempts: 3 });
    expect(after.attempt_log.map((a: { response_status: number }) => a.response_status)).toEqual([500, 200, 200]);
    const list = await admin.call("GET", `/api/webhook-endpoints/${made.id}/deliveries`);
    expect(list.json.data.data[0]).toMatchObject({ id: test.json.data.id, status: "succeeded", attempts: 3, event: { type: "webhook.test" } });
    expect(list.json.data.meta).toMatchObject({ page: 1, total: 1 });
    // A disabled endpoint is neither tested nor resent to.
    await admin.call("POST", `/api/webhook-endpoints/${made.id}/disable`);
    expect((await admin.call("POST", `/api/webhook-endpoints/${made.id}/test`)).status).toBe(422);
    expect((await admin.call("POST", `/api/webhook-endpoints/${made.id}/deliveries/${test.json.data.id}/resend`)).status).toBe(422);
    await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
  });
});

describe("where events may be sent (SSRF)", () => {
  const refusedAt = async (url: string) => {
    const res = await admin.call("POST", "/api/webhook-endpoints", endpointBody(url));
    expect(res.status, `${url}: ${JSON.stringify(res.json)}`).toBe(422);
    return res.json.errors.url[0] as string;
  };

  it("refuses private, loopback, link-local and reserved addresses, without connecting", async () => {
    const lookup = vi.spyOn(dns, "lookup");
    for (const url of [
      "https://10.0.0.1/hook",
      "https://172.16.5.4/hook",
      "https://192.168.1.20/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/hook",
      "https://0.0.0.0/hook",
      "https://[::ffff:10.0.0.1]/hook",
      "https://[fd00::1]/hook",
      "https://[fe80::1]/hook",
      "https://198.51.100.7/hook",
    ]) {
      expect(await refusedAt(url)).toMatch(/private or reserved/);
    }
    expect(lookup).not.toHaveBeenCalled();
  });

  it("refuses http, credentials in the address and our own host", async () => {
    expect(await refusedAt("http://hooks.example.com/in")).toMatch(/https/);
    expect(await refusedAt("https://user:secret@hooks.example.com/in")).toMatch(/user name and password/);
    expect(await refusedAt("https://admin.gym.test/api/webhooks/stripe")).toMatch(/our own address/);
    expect(await refusedAt("https://JOIN.gym.test./x")).toMatch(/our own address/);
    // On loopback, our own port is our own host.
    expect(await refusedAt(`http://127.0.0.1:${env.config.PORT}/api/members`)).toMatch(/our own address/);
  });

  it("refuses a name that resolves to a private address, when saved and at delivery (DNS rebinding)", async () => {
    const answers: Record<string, string> = { "private.example": "10.1.2.3", "rebind.example": "93.184.216.34" };
    vi.spyOn(dns, "lookup").mockImplementation(((host: string, opts: unknown, cb: (e: Error | null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: answers[host] ?? "203.0.113.1", family: 4 }])) as unknown as typeof dns.lookup);
    expect(await refusedAt("https://private.example/hook")).toMatch(/resolves to 10\.1\.2\.3/);
    // Public when saved; not by the time it is sent: the connection's own lookup refuses it before any packet. (The
    // unspecified address stands for any private one: were the hook ever bypassed, its packet would stay on this machine.)
    const made = await addEndpoint("https://rebind.example/hook");
    answers["rebind.example"] = "0.0.0.0";
    await checkIn("ssrf-0001");
    const [d] = await deliveriesOf(made.id);
    expect(d.status).toBe("pending");
    const [attempt] = await env.db.select().from(webhook_attempts).where(eq(webhook_attempts.delivery_id, d.id));
    expect(attempt.response_status).toBeNull();
    expect(attempt.error).toMatch(/resolves to 0\.0\.0\.0, a private or reserved address/);
    await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
  });

  it("refuses loopback and plain http unless WEBHOOKS_ALLOW_LOOPBACK, which production refuses", async () => {
    const strict = addressRules(testConfig());
    expect(staticRefusal("http://127.0.0.1:9/hook", strict)).toMatch(/https/);
    expect(staticRefusal("https://127.0.0.1:9/hook", strict)).toMatch(/private or reserved/);
    expect(staticRefusal("https://localhost:9/hook", strict)).toMatch(/this machine/);
    expect(staticRefusal("https://[::1]/hook", strict)).toMatch(/private or reserved/);
    expect(await endpointRefusal("https://8.8.8.8/hook", strict)).toBeNull();
    expect(() => testConfig({ NODE_ENV: "production", WEBHOOKS_ALLOW_LOOPBACK: "1", SMTP_URL: "smtp://x", CREDENTIALS_KEY: "k".repeat(40) })).toThrow(
      ConfigError,
    );
  });
});

describe("tenant isolation", () => {
  it("answers 404 for another organisation's endpoints and deliveries, and sends them none of its events", async () => {
    const bravoHash = await hashPassword(PASSWORD);
    await env.db.update(users).set({ password_hash: bravoHash }).where(eq(users.email, "bravo.admin@example.com"));
    const bravo = await signedIn(api, env.db, "bravo.admin@example.com", PASSWORD);
    const bravoReceiver = await startReceiver();
    try {
      const made = await bravo.call("POST", "/api/webhook-endpoints", endpointBody(bravoReceiver.url));
      expect(made.status).toBe(201);
      const test = await bravo.call("POST", `/api/webhook-endpoints/${made.json.data.id}/test`);
      const e = made.json.data.id;
      const d = test.json.data.id;
      for (const [method, path] of [
        ["GET", `/api/webhook-endpoints/${e}`],
        ["PUT", `/api/webhook-endpoints/${e}`],
        ["DELETE", `/api/webhook-endpoints/${e}`],
        ["POST", `/api/webhook-endpoints/${e}/rotate-secret`],
        ["POST", `/api/webhook-endpoints/${e}/enable`],
        ["POST", `/api/webhook-endpoints/${e}/disable`],
        ["POST", `/api/webhook-endpoints/${e}/test`],
        ["GET", `/api/webhook-endpoints/${e}/deliveries`],
        ["GET", `/api/webhook-endpoints/${e}/deliveries/${d}`],
        ["POST", `/api/webhook-endpoints/${e}/deliveries/${d}/resend`],
      ]) {
        const res = await admin.call(method, path, method === "PUT" ? endpointBody(receiver.url) : undefined);
        expect(res.status, `${method} ${path}`).toBe(404);
      }
      const list = await admin.call("GET", "/api/webhook-endpoints");
      expect(list.json.data.data.map((x: { id: number }) => x.id)).not.toContain(e);
      // Alpha's own endpoint's delivery, asked for under Bravo's endpoint id: 404 too.
      const mine = await addEndpoint();
      const myTest = await admin.call("POST", `/api/webhook-endpoints/${mine.id}/test`);
      expect((await bravo.call("GET", `/api/webhook-endpoints/${e}/deliveries/${myTest.json.data.id}`)).status).toBe(404);
      bravoReceiver.received.length = 0;
      await checkIn("tenant-0001");
      expect(bravoReceiver.received).toEqual([]);
      await admin.call("DELETE", `/api/webhook-endpoints/${mine.id}`);
    } finally {
      await bravoReceiver.close();
    }
  });
});

describe("throughput and fairness", () => {
  it("sends many at once, but never more than perEndpoint to one endpoint", async () => {
    let active = 0;
    let most = 0;
    const server = createServer((req, res) => {
      active++;
      most = Math.max(most, active);
      req.resume();
      req.on("end", () =>
        setTimeout(() => {
          active--;
          res.writeHead(204).end();
        }, 20),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const made = await addEndpoint(`http://127.0.0.1:${(server.address() as { port: number }).port}/hook`);
    try {
      const events = await env.db
        .insert(webhook_events)
        .values(Array.from({ length: 60 }, (_, i) => ({ organisation_id: id.org, public_id: `msg_fair_${i}`, type: "visit.created", payload: { n: i } })))
        .returning({ id: webhook_events.id });
      await env.db
        .insert(webhook_deliveries)
        .values(events.map((e) => ({ organisation_id: id.org, event_id: e.id, endpoint_id: made.id, next_attempt_at: clock })));
      const report = await deliverDue(deps(), { perEndpoint: 5, batch: 10 });
      expect(report).toMatchObject({ sent: 60, succeeded: 60 });
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(5);
    } finally {
      await new Promise((r) => server.close(r));
      await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
    }
  });
});

itRaces(
  "two workers at once never send one delivery twice, and send every one (the claim's lease and SKIP LOCKED)",
  async () => {
    const made = await addEndpoint();
    const slow = await startReceiver();
    slow.answer = () => ({ status: 200, delayMs: 15 });
    try {
      await env.db.update(webhook_endpoints).set({ url: slow.url }).where(eq(webhook_endpoints.id, made.id));
      const events = await env.db
        .insert(webhook_events)
        .values(
          Array.from({ length: 300 }, (_, i) => ({
            organisation_id: id.org,
            public_id: `msg_race_${i}`,
            type: "visit.created",
            payload: { type: "visit.created", n: i },
          })),
        )
        .returning({ id: webhook_events.id });
      await env.db
        .insert(webhook_deliveries)
        .values(events.map((e) => ({ organisation_id: id.org, event_id: e.id, endpoint_id: made.id, next_attempt_at: clock })));
      const worker = () => deliverDue(deps(), { concurrency: 30, batch: 10 });
      const [a, b] = await Promise.all([worker(), worker()]);
      const ids = slow.received.map((r) => r.headers["webhook-id"]);
      const seen = new Map<string, number>();
      for (const x of ids) seen.set(x, (seen.get(x) ?? 0) + 1);
      expect(
        [...seen.values()].filter((n) => n > 1),
        "deliveries sent more than once",
      ).toEqual([]);
      expect(seen.size).toBe(300);
      expect(a.sent + b.sent).toBe(300);
      expect(a.sent).toBeGreaterThan(0);
      expect(b.sent).toBeGreaterThan(0);
    } finally {
      await slow.close();
      await admin.call("DELETE", `/api/webhook-endpoints/${made.id}`);
    }
  },
  60_000,
);
