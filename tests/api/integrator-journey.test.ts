import createClient from "openapi-fetch";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../../client/gym-api";
import { hashPassword } from "../../server/core/auth/password";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { createApi, localJobs } from "../../server/api/app";
import { localDay } from "../../domain/dates";
import { setup, signedIn } from "./harness";
import { startReceiver, type Receiver } from "./webhook-receiver";

/**
 * Issue 33's "done when", as an integrator does it: a script holding only a key and the client generated from the
 * OpenAPI document (client/gym-api.d.ts with openapi-fetch) lists members, starts a membership and records a payment,
 * and its receiver gets the signed webhooks for each, checked with the `standardwebhooks` package as integrators would.
 */
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let client: ReturnType<typeof createClient<paths>>;
let orgId: number;
let jobs: ReturnType<typeof localJobs>;
let receiver: Receiver;
let signingSecret: string;

beforeAll(async () => {
  env = await setup({ WEBHOOKS_ALLOW_LOOPBACK: "1" });
  jobs = localJobs({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, jobs });
  const org = await makeOrganisation(env.db, { name: "Integrated Ltd" });
  orgId = org.id;
  const gym = await makeGym(env.db, org.id, "Grey Lynn");
  const offering = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  await makePrice(env.db, offering, { amount: 1999, billing_frequency: "weekly" });
  await makePrice(env.db, offering, { amount: 60_000, billing_frequency: "one_off", term_amount: 12, term_unit: "month" });
  const existing = await makeUser(env.db, { name: "Existing Member", email: "existing@example.com" });
  await addMember(env.db, existing.id, org.id, gym.id);
  const weekly = (await env.db.query.prices.findMany()).find((p) => p.billing_frequency === "weekly")!;
  await makeSubscription(env.db, weekly, existing.id, gym.id);
  const admin = await makeUser(env.db, {
    name: "Integrating Admin",
    email: "integrating.admin@example.com",
    password_hash: await hashPassword("integrating passphrase"),
  });
  await addStaff(env.db, admin.id, org.id, "admin");
  const session = await signedIn(api, env.db, "integrating.admin@example.com", "integrating passphrase");
  receiver = await startReceiver();
  const endpoint = await session.call("POST", "/api/webhook-endpoints", {
    url: receiver.url,
    description: "Our CRM",
    events: ["member.created", "subscription.started", "payment.succeeded"],
  });
  expect(endpoint.status).toBe(201);
  signingSecret = endpoint.json.data.secret;
  const made = await session.call("POST", "/api/api-keys", {
    name: "Front-desk app",
    members: "read",
    memberships: "write",
    payments: "write",
    offerings: "read",
  });
  // From here on, only the key.
  client = createClient<paths>({
    baseUrl: "http://localhost:3000",
    headers: { Authorization: `Bearer ${made.json.data.secret}` },
    fetch: async (request: Request) => api.fetch(request, { clientIp: "198.51.100.20" }),
  });
});
afterAll(async () => {
  await receiver?.close();
  await env?.close?.();
});

describe("an integrator with a key and the generated client", () => {
  it("lists members, starts a paid-in-full membership, and records the payment", async () => {
    const gyms = await client.GET("/api/gyms");
    expect(gyms.response.status).toBe(200);
    const gym = gyms.data!.data.data[0];
    expect(gym.name).toBe("Grey Lynn");

    const members = await client.GET("/api/members", { params: { query: { status: "active", gym: "all" } } });
    expect(members.response.status).toBe(200);
    expect(members.data!.data.data.map((m) => m.name)).toContain("Existing Member");

    const prices = await client.GET("/api/organisations/{id}/prices", { params: { path: { id: orgId } } });
    expect(prices.response.status).toBe(200);
    const pif = prices.data!.data.data.find((p) => p.billing_frequency === "one_off")!;

    const body = {
      name: "Ava Ngata",
      email: "ava.ngata@example.com",
      gym_id: gym.id,
      price_id: pif.id,
      start: localDay(new Date()),
      method: "eftpos" as const,
      key: "integrator-0001",
    };
    const started = await client.POST("/api/organisations/{id}/members/onboard-pif", {
      params: { path: { id: orgId }, header: { "Idempotency-Key": "c0ffee-0001" } },
      body,
    });
    expect(started.response.status).toBe(200);
    const { user_id, subscription_id } = (started.data as { data: { user_id: number; subscription_id: number } }).data;

    // Sent again (a timeout, a retry): the same answer, one member.
    const again = await client.POST("/api/organisations/{id}/members/onboard-pif", {
      params: { path: { id: orgId }, header: { "Idempotency-Key": "c0ffee-0001" } },
      body,
    });
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.data).toEqual(started.data);

    const payments = await client.GET("/api/users/{id}/payments", { params: { path: { id: user_id } } });
    expect(payments.response.status).toBe(200);
    // SPEC's Payment, typed by the generated client.
    const rows = payments.data!.data.data;
    expect(rows).toEqual([expect.objectContaining({ amount: 60_000, pif_payment: "eftpos", user: expect.objectContaining({ id: user_id }) })]);

    const membership = await client.GET("/api/subscriptions/{id}", { params: { path: { id: subscription_id } } });
    expect(membership.response.status).toBe(200);

    // The webhooks for each, signed: verified with the package the integrator uses, exactly as it would.
    await jobs.idle();
    const wh = new Webhook(signingSecret);
    const events = receiver.received.map(
      (r) => wh.verify(r.body, r.headers) as { type: string; data: { id: number; user?: { id: number }; user_id?: number } },
    );
    expect(events.map((e) => e.type).sort()).toEqual(["member.created", "payment.succeeded", "subscription.started"]);
    expect(events.find((e) => e.type === "member.created")!.data.id).toBe(user_id);
    expect(events.find((e) => e.type === "subscription.started")!.data.id).toBe(subscription_id);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(3);
    // A forged body does not verify.
    expect(() => wh.verify(receiver.received[0].body.replace("}", ', "x": 1}'), receiver.received[0].headers)).toThrow();
  });

  it("is told clearly what it may not do", async () => {
    const visits = await client.GET("/api/visits", {});
    expect(visits.response.status).toBe(403);
    expect(visits.error).toMatchObject({ error: "forbidden" });
  });
});
