import sharp from "sharp";
import { and, eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { WEBHOOK_EVENT_TYPES } from "../../domain/webhook-events";
import { createApi, localJobs } from "../../server/api/app";
import { billingRun } from "../../server/billing/run";
import { recordDoorEvent } from "../../server/doors/events";
import { hashPassword } from "../../server/core/auth/password";
import { sealSecret } from "../../server/core/crypto/secrets";
import {
  access_control_doors,
  access_control_places,
  gyms,
  payment_types,
  payments,
  subscriptions,
  users,
  webhook_deliveries,
  webhook_endpoints,
  webhook_events,
} from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { simulatedClock } from "../../server/core/providers/clock";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn } from "./harness";
import { startReceiver, type Receiver } from "./webhook-receiver";

/**
 * Issue 33: every event is written where its change really happens, in the same transaction, about the resource the
 * API would answer: sign-up, walk-in, paid in full at the desk, an import; profile edits; a membership's start, pause,
 * resumption, cancellation and price change (scheduled, and taking effect in the billing run); payments the providers
 * settled or declined, taken at the desk, received, refunded; visits at the desk and the door.
 * The clock: Wednesday 2 December 2026, 10 am in Auckland.
 */
const PASSWORD = "webhook events passphrase";
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);
const clock = NOW;
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let jobs: ReturnType<typeof localJobs>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let receiver: Receiver;
const providerClock = simulatedClock(NOW);
let providers: ReturnType<typeof sandboxProviders>;
const id: Record<string, number> = {};
let gymUuid = "";
let n = 0;

beforeAll(async () => {
  env = await setup({ WEBHOOKS_ALLOW_LOOPBACK: "1" });
  providers = sandboxProviders(env.db, providerClock);
  jobs = localJobs({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => clock, providers });
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => clock, providers, jobs });
  const org = await makeOrganisation(env.db, { name: "Events Gyms" });
  const gym = await makeGym(env.db, org.id, "Events Central");
  gymUuid = (await env.db.select({ uuid: gyms.uuid }).from(gyms).where(eq(gyms.id, gym.id)))[0].uuid;
  const anytime = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  const weekly = await makePrice(env.db, anytime, { amount: 2_500 });
  const dearer = await makePrice(env.db, anytime, { amount: 2_900 });
  const pif = await makePrice(env.db, anytime, { amount: 60_000, billing_frequency: "one_off" });
  Object.assign(id, { org: org.id, gym: gym.id, weekly: weekly.id, dearer: dearer.id, pif: pif.id });
  const a = await makeUser(env.db, {
    name: "Eve Events",
    email: "events.admin@example.com",
    password_hash: await hashPassword(PASSWORD),
    current_organisation_id: org.id,
    current_gym_id: gym.id,
  });
  await addStaff(env.db, a.id, org.id, "admin");
  admin = await signedIn(api, env.db, a.email, PASSWORD);
  receiver = await startReceiver();
  // One endpoint that wants everything (on a receiver here: the tests look at the outbox, not the wire).
  await env.db
    .insert(webhook_endpoints)
    .values({
      organisation_id: org.id,
      url: receiver.url,
      events: [...WEBHOOK_EVENT_TYPES],
      secret: sealSecret(`whsec_${Buffer.alloc(32, 1).toString("base64")}`),
    });
});
afterAll(async () => {
  await receiver?.close();
  await env?.close();
});

/** The events written since `mark` (an event id), as `type:resource id`. */
async function eventsSince(mark: number) {
  const rows = await env.db.select().from(webhook_events).where(gt(webhook_events.id, mark)).orderBy(webhook_events.id);
  return rows.map((r) => `${r.type}:${(r.payload as { data: { id: number } }).data.id}`);
}
const mark = async () => Number((await env.db.select({ m: sql<number>`coalesce(max(${webhook_events.id}), 0)` }).from(webhook_events))[0].m);
const payloadOf = async (type: string) =>
  (
    await env.db
      .select()
      .from(webhook_events)
      .where(eq(webhook_events.type, type))
      .orderBy(sql`${webhook_events.id} desc`)
      .limit(1)
  )[0].payload as Record<string, any>;

/** A weekly card member since Monday 2 November, paid up to Monday 7 December. */
async function member(card = "pm_card_visa") {
  const user = await makeUser(env.db, { name: `Events Member ${++n}`, email: `events${n}@example.com` });
  const [pt] = await env.db
    .insert(payment_types)
    .values({ organisation_id: id.org, user_id: user.id, type: "stripe_card", details: { last_four: "4242", payment_method: card } })
    .returning();
  const s = await makeSubscription(env.db, { id: id.weekly, organisation_id: id.org }, user.id, id.gym, {
    billing_anchor: "2026-11-02",
    current_period_start: startOfLocalDay("2026-11-30"),
    current_period_end: startOfLocalDay("2026-12-07"),
  });
  await addMember(env.db, user.id, id.org, id.gym, { default_payment_type_id: pt.id, latest_subscription_id: s.id });
  return { user, s };
}
const version = async (sid: number) => (await env.db.select({ v: subscriptions.version }).from(subscriptions).where(eq(subscriptions.id, sid)))[0].v;
const ok = async (method: string, path: string, body?: unknown) => {
  const res = await admin.call(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.json)}`).toBeLessThan(300);
  await jobs.idle();
  return res.json.data;
};

describe("members", () => {
  it("member.created: the public sign-up, a walk-in, paid in full at the desk, an import", async () => {
    const m0 = await mark();
    const signup = browser(api, { host: "signup.localhost:3000", ip: "198.51.100.30" });
    const joined = await signup.call("POST", "/api/register", {
      name: "Sia Signup",
      email: "sia@example.com",
      mobile_number: "021 555 0100",
      password: "a fine passphrase",
      gym: gymUuid,
    });
    expect(joined.status).toBe(201);
    expect(await eventsSince(m0)).toEqual([`member.created:${joined.json.data.id}`]);
    expect((await payloadOf("member.created")).data).toMatchObject({
      id: joined.json.data.id,
      name: "Sia Signup",
      email: "sia@example.com",
      home_gym: { id: id.gym },
    });

    const m1 = await mark();
    const walked = await ok("POST", `/api/organisations/${id.org}/members/walk-in`, {
      name: "Wally Walkin",
      email: "wally@example.com",
      dob: "1990-04-21",
      gym_id: id.gym,
      price_id: id.weekly,
      start: "2026-12-02",
      key: "events-walkin-0001",
    });
    expect(await eventsSince(m1)).toEqual([`member.created:${walked.user_id}`]);

    const m2 = await mark();
    const onboarded = await ok("POST", `/api/organisations/${id.org}/members/onboard-pif`, {
      name: "Polly Paid",
      email: "polly@example.com",
      gym_id: id.gym,
      price_id: id.pif,
      start: "2026-12-02",
      method: "cash",
      key: "events-onboard-0001",
    });
    const [paid] = await env.db.select().from(payments).where(eq(payments.subscription_id, onboarded.subscription_id));
    expect(await eventsSince(m2)).toEqual([
      `member.created:${onboarded.user_id}`,
      `subscription.started:${onboarded.subscription_id}`,
      `payment.succeeded:${paid.id}`,
    ]);

    const m3 = await mark();
    const file = "email,name,mobile\nimmy.import@example.com,Immy Import,021 555 0101\nsia@example.com,Sia Signed Up,021 555 0102\n";
    const made = await ok("POST", `/api/gyms/${id.gym}/imports`, { csv: file, filename: "events.csv" });
    await ok("PUT", `/api/imports/${made.id}`, { mapping: ["email", "name", "mobile_number"], date_order: "dmy", plans: {} });
    await ok("POST", `/api/imports/${made.id}/confirm`);
    const [immy] = await env.db.select().from(users).where(eq(users.email, "immy.import@example.com"));
    expect((await eventsSince(m3)).sort()).toEqual([`member.created:${immy.id}`, `member.updated:${joined.json.data.id}`].sort());
  });

  it("member.updated: staff's edit, a new photo", async () => {
    const { user } = await member();
    const m0 = await mark();
    await ok("PUT", `/api/members/${user.id}`, { name: "Renamed Member", email: user.email, email_notifications: "on" });
    expect(await eventsSince(m0)).toEqual([`member.updated:${user.id}`]);
    expect((await payloadOf("member.updated")).data).toMatchObject({ id: user.id, name: "Renamed Member" });
    const m1 = await mark();
    const photo = new FormData();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#0a0" } })
      .png()
      .toBuffer();
    photo.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "me.png");
    expect((await admin.call("POST", `/api/members/${user.id}/profile-picture`, photo)).status).toBe(200);
    expect(await eventsSince(m1)).toEqual([`member.updated:${user.id}`]);
    expect((await payloadOf("member.updated")).data.profile_picture).toMatch(/profile-picture/);
  });
});

describe("memberships", () => {
  it("subscription.paused when a pause is set, subscription.resumed when it is ended early or taken off", async () => {
    const { s } = await member();
    const m0 = await mark();
    await ok("POST", `/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-03", end: "2026-12-17", version: await version(s.id) });
    await ok("POST", `/api/subscriptions/${s.id}/pause`, { action: "credit", days: 3, version: await version(s.id) });
    const view = await ok("GET", `/api/subscriptions/${s.id}`);
    await ok("POST", `/api/subscriptions/${s.id}/pause`, { action: "remove", pause_id: view.pauses[0].id, version: await version(s.id) });
    expect(await eventsSince(m0)).toEqual([`subscription.paused:${s.id}`, `subscription.resumed:${s.id}`]);
    expect((await payloadOf("subscription.paused")).data).toMatchObject({ id: s.id, pause_start_at: startOfLocalDay("2026-12-03").toISOString() });
  });

  it("subscription.cancelled, now or at the period end", async () => {
    const { s } = await member();
    const m0 = await mark();
    await ok("POST", `/api/subscriptions/${s.id}/cancel`, { when: "period_end", reasons: ["cost"], version: await version(s.id) });
    expect(await eventsSince(m0)).toEqual([`subscription.cancelled:${s.id}`]);
    expect((await payloadOf("subscription.cancelled")).data).toMatchObject({ id: s.id, cancelled_at: NOW.toISOString(), user_id: expect.any(Number) });
  });

  it("subscription.price_changed when a change is scheduled or taken off, and when the billing run makes it take effect", async () => {
    const { s } = await member();
    const m0 = await mark();
    await ok("POST", "/api/subscriptions/schedule-price-change", {
      subscription_id: s.id,
      price_id: id.dearer,
      from: "period_end",
      version: await version(s.id),
    });
    expect(await eventsSince(m0)).toEqual([`subscription.price_changed:${s.id}`]);
    expect((await payloadOf("subscription.price_changed")).data.scheduled_price_change).toMatchObject({ to_price: { id: id.dearer } });
    const m1 = await mark();
    await billingRun(env.db, providers, at("2026-12-07"));
    providerClock.set(NOW);
    const after = await eventsSince(m1);
    expect(after).toContain(`subscription.price_changed:${s.id}`);
    const applied = (
      await env.db
        .select()
        .from(webhook_events)
        .where(and(gt(webhook_events.id, m1), eq(webhook_events.type, "subscription.price_changed")))
    )[0].payload as Record<string, any>;
    expect(applied.data).toMatchObject({ id: s.id, price: { id: id.dearer }, scheduled_price_change: null });
  });

  it("subscription.started: a membership bought now, and an upcoming one when its day comes", async () => {
    const { user } = await member();
    const m0 = await mark();
    const later = await ok("POST", `/api/members/${user.id}/pif`, { price_id: id.pif, start: "2026-12-09", method: "eftpos", key: "events-pif-000001" });
    // Upcoming: not started yet; its payment was taken at the desk.
    expect((await eventsSince(m0)).filter((e) => e.startsWith("subscription."))).toEqual([expect.stringMatching(/^subscription\.cancelled:/)]);
    const m1 = await mark();
    await billingRun(env.db, providers, at("2026-12-09"));
    providerClock.set(NOW);
    expect(await eventsSince(m1)).toContain(`subscription.started:${later.subscription_id}`);
  });
});

describe("payments", () => {
  it("payment.succeeded and payment.failed as the providers answer the billing run's charges", async () => {
    const paying = await member();
    const declining = await member("pm_card_chargeDeclinedInsufficientFunds");
    const m0 = await mark();
    await billingRun(env.db, providers, at("2026-12-07"));
    providerClock.set(NOW);
    const [good] = await env.db.select().from(payments).where(eq(payments.subscription_id, paying.s.id));
    const [bad] = await env.db.select().from(payments).where(eq(payments.subscription_id, declining.s.id));
    const events = await eventsSince(m0);
    expect(events).toContain(`payment.succeeded:${good.id}`);
    expect(events).toContain(`payment.failed:${bad.id}`);
    const failed = (
      await env.db
        .select()
        .from(webhook_events)
        .where(and(gt(webhook_events.id, m0), eq(webhook_events.type, "payment.failed")))
    )
      .map((e) => e.payload as Record<string, any>)
      .find((p) => p.data.id === bad.id)!;
    expect(failed.data).toMatchObject({ id: bad.id, status: "failed", outcome: "failed", user: { id: declining.user.id }, amount: 2_500 });
    // The run again the same day settles nothing new: no event again.
    const m1 = await mark();
    await billingRun(env.db, providers, at("2026-12-07", 11));
    providerClock.set(NOW);
    expect((await eventsSince(m1)).filter((e) => e.endsWith(`:${good.id}`) || e.endsWith(`:${bad.id}`))).toEqual([]);
  });

  it("payment.succeeded for money taken at the desk and a transfer marked received; payment.refunded when money goes back", async () => {
    const user = await makeUser(env.db, { name: "Desk Payer", email: "desk.payer@example.com" });
    await addMember(env.db, user.id, id.org, id.gym);
    const m0 = await mark();
    const pif = await ok("POST", `/api/members/${user.id}/pif`, { price_id: id.pif, start: "2026-12-02", method: "bank_transfer", key: "events-pif-000002" });
    const [transfer] = await env.db.select().from(payments).where(eq(payments.subscription_id, pif.subscription_id));
    expect((await eventsSince(m0)).filter((e) => e.startsWith("payment."))).toEqual([]);
    await ok("POST", `/api/payments/${transfer.id}/received`);
    expect(await eventsSince(m0)).toContain(`payment.succeeded:${transfer.id}`);
    const m1 = await mark();
    await ok("POST", `/api/payments/${transfer.id}/refunds`, { amount: 10_000, reason: "requested_by_customer", key: "events-refund-0001" });
    expect(await eventsSince(m1)).toEqual([`payment.refunded:${transfer.id}`]);
    expect((await payloadOf("payment.refunded")).data).toMatchObject({ id: transfer.id, refunded: 10_000 });
  });
});

describe("visits", () => {
  it("visit.created at the desk and at a door that counts visits", async () => {
    const { user } = await member();
    const m0 = await mark();
    const desk = await ok("POST", "/api/check-ins", { user_id: user.id, key: "events-desk-0001" });
    expect(await eventsSince(m0)).toEqual([`visit.created:${desk.visit.id}`]);
    await env.db.update(gyms).set({ tracks_visits: true }).where(eq(gyms.id, id.gym));
    const [place] = await env.db
      .insert(access_control_places)
      .values({ organisation_id: id.org, gym_id: id.gym, place_id: "events-place", name: "Events" })
      .returning();
    await env.db
      .insert(access_control_doors)
      .values({ organisation_id: id.org, place_row_id: place.id, gym_id: id.gym, door_id: "events-door", name: "Front", tracks_visits: true });
    const m1 = await mark();
    const door = await recordDoorEvent(
      env.db,
      { id: "kisi-events-1", action: "unlock", object_type: "Lock", object_id: "events-door", success: true, actor_email: user.email },
      NOW,
    );
    expect(door.recorded).toBe(true);
    const [visit] = (await eventsSince(m1)).map((e) => e.split(":"));
    expect(visit[0]).toBe("visit.created");
  });

  it("writes one delivery per event for the endpoint, and none once the endpoint is removed", async () => {
    const before = await env.db.$count(webhook_deliveries);
    const { user } = await member();
    await ok("POST", "/api/check-ins", { user_id: user.id, key: "events-desk-0002" });
    expect(await env.db.$count(webhook_deliveries)).toBe(before + 1);
    await env.db.update(webhook_endpoints).set({ deleted_at: NOW }).where(eq(webhook_endpoints.organisation_id, id.org));
    await ok("POST", "/api/check-ins", { user_id: user.id, key: "events-desk-0003" });
    expect(await env.db.$count(webhook_deliveries)).toBe(before + 1);
  });
});
