import { and, eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCalendarDays, localDay, localInstant } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import {
  class_type_inclusions,
  class_types,
  mail_outbox,
  organisations,
  push_outbox,
  webhook_deliveries,
  webhook_endpoints,
  webhook_events,
} from "../../server/core/db/schema";
import { sealSecret } from "../../server/core/crypto/secrets";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn } from "./harness";
import { startReceiver, type Receiver } from "./webhook-receiver";

/**
 * Issue 34, the parts of group classes joined: the outgoing webhooks recorded by the booking and timetable code itself
 * (booking.created, booking.cancelled, class.cancelled: once each, in the change's transaction, with the booking or
 * class the API then answers), and members promoted from a waitlist by a class given more places told by e-mail and
 * push, as after a cancellation. Everything through the API; its clock is 10:00 today (Auckland).
 */
let env: Awaited<ReturnType<typeof setup>>;
const PASSWORD = "joined classes";
const DAY = 86_400_000;
const today = localDay(new Date());
const tomorrow = addCalendarDays(today, 1);
const clock = localInstant(today, "10:00");
const ids: Record<string, number> = {};
let orgId: number;
let receiver: Receiver;

type Api = ReturnType<typeof createApi>;
let api: Api;
type Browser = ReturnType<typeof browser>;
const as: Record<string, Browser> = {};

/** The same browser (its cookies) on the API whose clock says 10:00. */
function onClock(b: Browser) {
  const other = browser(api);
  for (const [k, v] of b.jar) other.jar.set(k, v);
  return other;
}

const isoDay = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

/** A class scheduled through the staff API at North with Tess (once or weekly from tomorrow): the classes written, soonest first. */
async function scheduled(time: string, capacity: number, waitlist: number, repeat: "once" | "weekly" = "once") {
  const res = await as.admin.call("POST", "/api/class-schedules", {
    gym_id: ids.north,
    class_type_id: ids.spin,
    trainer_id: ids.tess,
    repeat,
    days: repeat === "weekly" ? [isoDay(tomorrow)] : [],
    starts_on: tomorrow,
    start_time: time,
    capacity,
    waitlist_size: waitlist,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const list = await as.admin.call(
    "GET",
    `/api/classes?gym_id=${ids.north}&from=${clock.toISOString()}&to=${new Date(clock.getTime() + 42 * DAY).toISOString()}`,
  );
  const mine = (list.json.data.data as { id: number; schedule_id: number }[]).filter((c) => c.schedule_id === res.json.data.id);
  return { schedule: res.json.data.id as number, classes: mine.map((c) => c.id) };
}

/** The organisation's webhook events written by `fn`, oldest first: their types and payload data. */
async function eventsOf(fn: () => Promise<unknown>) {
  const [{ m }] = await env.db.select({ m: sql<number>`coalesce(max(${webhook_events.id}), 0)`.mapWith(Number) }).from(webhook_events);
  await fn();
  const rows = await env.db
    .select()
    .from(webhook_events)
    .where(and(eq(webhook_events.organisation_id, orgId), gt(webhook_events.id, m)))
    .orderBy(webhook_events.id);
  return rows.map((r) => ({ type: r.type, data: (r.payload as { data: Record<string, unknown> }).data }));
}

const mailsTo = async (to: string) => (await env.db.select().from(mail_outbox)).filter((m) => m.to === to);

beforeAll(async () => {
  env = await setup();
  receiver = await startReceiver();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => clock });
  const org = await makeOrganisation(env.db, { name: "Joined Classes" });
  orgId = org.id;
  const north = await makeGym(env.db, org.id, "North");
  const offering = await makeOffering(env.db, org.id, { name: "Anytime" });
  const price = await makePrice(env.db, offering, { amount: 1999, billing_frequency: "weekly" });
  const hash = await hashPassword(PASSWORD);
  const person = async (name: string, email: string, push = false) =>
    (await makeUser(env.db, { name, email, password_hash: hash, push_notifications: push, current_organisation_id: org.id })).id;
  const member = async (name: string, email: string, push = false) => {
    const id = await person(name, email, push);
    const s = await makeSubscription(env.db, price, id, north.id, {
      current_period_start: new Date(clock.getTime() - 3 * DAY),
      current_period_end: new Date(clock.getTime() + 4 * DAY),
    });
    await addMember(env.db, id, org.id, north.id, { latest_subscription_id: s.id });
    return id;
  };
  const admin = await person("Ada Admin", "ada@joined.example");
  await addStaff(env.db, admin, org.id, "admin");
  const tess = await person("Tess Trainer", "tess@joined.example");
  await addStaff(env.db, tess, org.id, "personal_trainer", [{ gymId: north.id, role: "personal_trainer" }]);
  const mia = await member("Mia Member", "mia@joined.example");
  const noah = await member("Noah Member", "noah@joined.example");
  const zed = await member("Zed Waiting", "zed@joined.example", true);
  const [spin] = await env.db
    .insert(class_types)
    .values({ organisation_id: org.id, name: "Spin", duration_minutes: 45, default_capacity: 2, colour: "#dd3300" })
    .returning();
  await env.db.insert(class_type_inclusions).values({ organisation_id: org.id, class_type_id: spin.id, offering_id: offering.id });
  await env.db.insert(webhook_endpoints).values({
    organisation_id: org.id,
    // A receiver here: the tests read the outbox; the delivery job the API starts has somewhere to send.
    url: receiver.url,
    events: ["booking.created", "booking.cancelled", "class.cancelled"],
    secret: sealSecret(`whsec_${Buffer.alloc(32, 3).toString("base64")}`),
  });
  Object.assign(ids, { north: north.id, admin, tess, mia, noah, zed, spin: spin.id });
  as.admin = onClock(await signedIn(env.api, env.db, "ada@joined.example", PASSWORD));
  as.mia = onClock(await signedIn(env.api, env.db, "mia@joined.example", PASSWORD));
});
afterAll(async () => {
  // The delivery job the API started sends in the background: let it finish before the database closes.
  for (let i = 0; i < 50 && (await env.db.$count(webhook_deliveries, eq(webhook_deliveries.status, "pending"))) > 0; i++)
    await new Promise((r) => setTimeout(r, 100));
  await receiver?.close();
  await env?.close();
});

describe("webhooks recorded by the booking and timetable code", () => {
  it("a member's booking and its cancellation: one event each, with the booking as the API answered it", async () => {
    const { classes } = await scheduled("18:00", 1, 2);
    let booked: { status: number; json: { data: Record<string, unknown> } } | undefined;
    const created = await eventsOf(async () => (booked = await as.mia.call("POST", "/api/me/class-bookings", { class_id: classes[0] })));
    expect(booked!.status).toBe(201);
    const booking = booked!.json.data as { id: number; status: string; booked_at: string };
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      type: "booking.created",
      data: {
        id: booking.id,
        status: "booked",
        source: "member",
        booked_at: booking.booked_at,
        user: { id: ids.mia },
        class: { id: classes[0], cancelled_at: null },
      },
    });

    // Refused (already booked): nothing recorded, the transaction's event rolled back with it.
    expect(await eventsOf(async () => expect((await as.mia.call("POST", "/api/me/class-bookings", { class_id: classes[0] })).status).toBe(422))).toEqual([]);

    let gone: { status: number; json: { data: { booking: { id: number; status: string; cancelled_at: string } } } } | undefined;
    const cancelled = await eventsOf(async () => (gone = await as.mia.call("DELETE", `/api/me/class-bookings/${booking.id}`)));
    expect(gone!.status).toBe(200);
    expect(cancelled).toEqual([
      { type: "booking.cancelled", data: expect.objectContaining({ id: booking.id, status: "cancelled", cancelled_at: gone!.json.data.booking.cancelled_at }) },
    ]);
    // Cancelling again is refused and records nothing.
    expect(await eventsOf(async () => expect((await as.mia.call("DELETE", `/api/me/class-bookings/${booking.id}`)).status).toBe(422))).toEqual([]);
  });

  it("staff's roster bookings record booking.created; a class cancelled records class.cancelled once and each booking it cancels", async () => {
    const { classes } = await scheduled("19:00", 1, 2);
    const added = await eventsOf(async () => {
      expect((await as.admin.call("POST", `/api/classes/${classes[0]}/bookings`, { member_id: ids.noah })).json.data.status).toBe("booked");
      expect((await as.admin.call("POST", `/api/classes/${classes[0]}/bookings`, { member_id: ids.zed })).json.data.status).toBe("waitlisted");
    });
    expect(added.map((e) => [e.type, e.data.status, e.data.source])).toEqual([
      ["booking.created", "booked", "staff"],
      ["booking.created", "waitlisted", "staff"],
    ]);

    let off: { status: number; json: { data: { id: number; cancelled_at: string; told: number } } } | undefined;
    const events = await eventsOf(async () => (off = await as.admin.call("DELETE", `/api/classes/${classes[0]}?reason=Bikes%20serviced`)));
    expect(off!.status).toBe(200);
    expect(off!.json.data.told).toBe(2);
    expect(events.filter((e) => e.type === "class.cancelled")).toEqual([
      {
        type: "class.cancelled",
        data: expect.objectContaining({ id: classes[0], cancelled_at: off!.json.data.cancelled_at, cancel_reason: "Bikes serviced", booked: 0, waitlisted: 0 }),
      },
    ]);
    const bookings = events.filter((e) => e.type === "booking.cancelled");
    expect(bookings.map((e) => (e.data.user as { id: number }).id).sort()).toEqual([ids.noah, ids.zed].sort());
    expect(
      bookings.every((e) => e.data.status === "cancelled" && (e.data.class as { cancelled_at: string }).cancelled_at === off!.json.data.cancelled_at),
    ).toBe(true);
    expect(events).toHaveLength(3);
    // Cancelled again: nobody told, nothing recorded.
    expect(await eventsOf(() => as.admin.call("DELETE", `/api/classes/${classes[0]}`))).toEqual([]);
  });

  it("ending a weekly schedule records class.cancelled for each class it takes off, and booking.cancelled for their bookings", async () => {
    const { schedule, classes } = await scheduled("07:00", 5, 0, "weekly");
    expect(classes.length).toBeGreaterThan(1);
    await as.mia.call("POST", "/api/me/class-bookings", { class_id: classes[0] });
    let ended: { status: number; json: { data: { classes_cancelled: number } } } | undefined;
    const events = await eventsOf(async () => (ended = await as.admin.call("DELETE", `/api/class-schedules/${schedule}`)));
    expect(ended!.status).toBe(200);
    const off = events.filter((e) => e.type === "class.cancelled");
    expect(off).toHaveLength(ended!.json.data.classes_cancelled);
    expect(new Set(off.map((e) => e.data.id)).size).toBe(off.length);
    expect(events.filter((e) => e.type === "booking.cancelled").map((e) => (e.data.user as { id: number }).id)).toEqual([ids.mia]);
  });
});

describe("places added by changing a class go to those waiting, who are told", () => {
  it("one class given a place more: the first waiting is booked, e-mailed and pushed, once", async () => {
    const { classes } = await scheduled("12:00", 1, 2);
    await as.mia.call("POST", "/api/me/class-bookings", { class_id: classes[0] });
    const waiting = await as.admin.call("POST", `/api/classes/${classes[0]}/bookings`, { member_id: ids.zed });
    expect(waiting.json.data.status).toBe("waitlisted");
    const cls = (await as.admin.call("GET", `/api/classes/${classes[0]}`)).json.data;
    const changed = await as.admin.call("PUT", `/api/classes/${classes[0]}`, {
      starts_at: cls.starts_at,
      ends_at: cls.ends_at,
      trainer_id: ids.tess,
      capacity: 2,
      waitlist_size: 2,
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(changed.json.data).toMatchObject({ booked: 2, waitlisted: 0 });
    const roster = (await as.admin.call("GET", `/api/classes/${classes[0]}/roster`)).json.data.bookings as { id: number; status: string }[];
    expect(roster.find((b) => b.id === waiting.json.data.id)?.status).toBe("booked");
    const mails = (await mailsTo("zed@joined.example")).filter((m) => m.subject === "You have a place in Spin");
    expect(mails).toHaveLength(1);
    const pushed = await env.db
      .select()
      .from(push_outbox)
      .where(eq(push_outbox.idempotency_key, `class-place:${waiting.json.data.id}`));
    expect(pushed.map((p) => p.heading)).toEqual(["You have a place in Spin"]);
  });

  it("a weekly class given more places from a date: each class's first waiting is told", async () => {
    const { schedule, classes } = await scheduled("14:00", 1, 1, "weekly");
    await as.mia.call("POST", "/api/me/class-bookings", { class_id: classes[0] });
    const waiting = await as.admin.call("POST", `/api/classes/${classes[0]}/bookings`, { member_id: ids.noah });
    expect(waiting.json.data.status).toBe("waitlisted");
    const before = (await mailsTo("noah@joined.example")).length;
    const changed = await as.admin.call("PUT", `/api/class-schedules/${schedule}`, {
      from: today,
      days: [isoDay(tomorrow)],
      start_time: "14:00",
      trainer_id: ids.tess,
      capacity: 3,
      waitlist_size: 1,
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    const roster = (await as.admin.call("GET", `/api/classes/${classes[0]}/roster`)).json.data.bookings as { id: number; status: string }[];
    expect(roster.find((b) => b.id === waiting.json.data.id)?.status).toBe("booked");
    const mails = (await mailsTo("noah@joined.example")).slice(before);
    expect(mails.map((m) => m.subject)).toEqual(["You have a place in Spin"]);
    // Noah has not allowed push: e-mail only.
    expect(
      await env.db
        .select()
        .from(push_outbox)
        .where(eq(push_outbox.idempotency_key, `class-place:${waiting.json.data.id}`)),
    ).toEqual([]);
  });
});

describe("the roster routes open to API keys", () => {
  /** A request with only a key: no cookie, no X-Requested-With, from another site. */
  async function keyed(key: string, method: string, path: string, body?: unknown) {
    const res = await api.fetch(
      new Request(`http://localhost:3000${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          origin: "https://integrator.example",
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      { clientIp: "198.51.100.9" },
    );
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  }
  const makeKey = async (classes: "read" | "write") => {
    const res = await as.admin.call("POST", "/api/api-keys", { name: `Classes ${classes}`, classes });
    expect(res.status).toBe(201);
    return res.json.data.secret as string;
  };

  it("a key with classes write reads the roster, books (source api), messages and cancels; a read key only reads", async () => {
    const { classes } = await scheduled("16:00", 2, 0);
    const writer = await makeKey("write");
    const reader = await makeKey("read");
    const booked = await keyed(writer, "POST", `/api/classes/${classes[0]}/bookings`, { member_id: ids.noah });
    expect(booked.status, JSON.stringify(booked.json)).toBe(201);
    expect(booked.json.data).toMatchObject({ status: "booked", source: "api" });
    const roster = await keyed(reader, "GET", `/api/classes/${classes[0]}/roster`);
    expect(roster.status).toBe(200);
    expect(roster.json.data.bookings.map((b: { member: { id: number } }) => b.member.id)).toEqual([ids.noah]);
    expect((await keyed(reader, "POST", `/api/classes/${classes[0]}/bookings`, { member_id: ids.mia })).status).toBe(403);
    expect((await keyed(reader, "POST", `/api/classes/${classes[0]}/messages`, { body: "Hello" })).status).toBe(403);
    const sent = await keyed(writer, "POST", `/api/classes/${classes[0]}/messages`, { body: "Bring water." });
    expect(sent.status).toBe(201);
    expect(sent.json.data).toEqual({ sent_to: 1 });
    // Attendance opens 30 minutes before the class: refused with the reason, not a 500.
    const early = await keyed(writer, "POST", `/api/class-bookings/${booked.json.data.id}/attendance`, { attended: true });
    expect(early.status).toBe(422);
    expect((await keyed(reader, "DELETE", `/api/class-bookings/${booked.json.data.id}`)).status).toBe(403);
    const gone = await keyed(writer, "DELETE", `/api/class-bookings/${booked.json.data.id}`);
    expect(gone.status).toBe(200);
    expect(gone.json.data.booking.status).toBe("cancelled");
  });
});

describe("a trainer's calendar feed", () => {
  it("lists the classes they teach beside their sessions, not those cancelled", async () => {
    await env.db.update(organisations).set({ calendar_and_messaging: true }).where(eq(organisations.id, orgId));
    const running = await scheduled("20:00", 4, 0);
    const off = await scheduled("20:45", 4, 0);
    expect((await as.admin.call("DELETE", `/api/classes/${off.classes[0]}`)).status).toBe(200);
    const tess = onClock(await signedIn(env.api, env.db, "tess@joined.example", PASSWORD));
    const url: string = (await tess.call("POST", "/api/calendar-feed")).json.data.url;
    const feed = await browser(api).call("GET", new URL(url).pathname);
    expect(feed.status).toBe(200);
    const ics = feed.json as string;
    expect(ics).toContain(`UID:class-${running.classes[0]}-trainer@`);
    expect(ics).toContain("SUMMARY:Spin (class)");
    expect(ics).toContain("LOCATION:North");
    expect(ics).not.toContain(`UID:class-${off.classes[0]}-trainer@`);
    // Another trainer's feed has none of Tess's classes.
    const adaUrl: string = (await as.admin.call("POST", "/api/calendar-feed")).json.data.url;
    expect((await browser(api).call("GET", new URL(adaUrl).pathname)).json).not.toContain("(class)");
  });
});
