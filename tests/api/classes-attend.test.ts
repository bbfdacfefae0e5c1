import { and, eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import type { Db } from "../../server/core/db/client";
import {
  access_control_doors,
  access_control_places,
  class_bookings,
  class_occurrences,
  class_schedules,
  class_types,
  gyms,
  webhook_endpoints,
  webhook_events,
} from "../../server/core/db/schema";
import { withTenant } from "../../server/core/db/tenant";
import { outboxMailer } from "../../server/core/mail/mailer";
import { closeEndedClasses } from "../../server/attendance/class-attendance";
import { writeOccurrences } from "../../server/classes/occurrences";
import { givePlaceBack, takePlace } from "../../server/classes/places";
import { bookingCancelled, bookingCreated, classCancelled } from "../../server/classes/events";
import { sealSecret } from "../../server/core/crypto/secrets";
import { recordDoorEvent } from "../../server/doors/events";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * Issue 34, "Attendance": a member let in at a gym (desk, kiosk or door) from 30 minutes before a class there until
 * it ends has attended their booking; when the class ends, those booked who never came are no-shows. The clock:
 * Wednesday 2 December 2026, 10 am; the classes were booked the day before.
 */
const PASSWORD = "attending classes";
const DAY = "2026-12-02";
const NOW = new Date(startOfLocalDay(DAY).getTime() + 10 * 3_600_000);
const BOOKED_AT = new Date(NOW.getTime() - 86_400_000);
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
const id: Record<string, number> = {};
let desk: Awaited<ReturnType<typeof signedIn>>;

/** A class once at `gymId` today at `time`, written as the timetable writes it. Answers its occurrence's id. */
async function classToday(
  db: Db,
  p: { orgId: number; gymId: number; typeId: number; trainerId: number; time: string; minutes: number; capacity?: number; waitlist?: number },
  day = DAY,
) {
  return withTenant(
    db,
    p.orgId,
    null,
    async (t) => {
      const [s] = await t.db
        .insert(class_schedules)
        .values(
          t.owned({
            gym_id: p.gymId,
            class_type_id: p.typeId,
            trainer_id: p.trainerId,
            capacity: p.capacity ?? 10,
            waitlist_size: p.waitlist ?? 2,
            starts_on: day,
            start_time: p.time,
            duration_minutes: p.minutes,
            created_by: p.trainerId,
          }),
        )
        .returning();
      await writeOccurrences(t, s, day, day);
      const [o] = await t.db
        .select({ id: class_occurrences.id })
        .from(class_occurrences)
        .where(t.where(class_occurrences, eq(class_occurrences.schedule_id, s.id)));
      return o.id;
    },
    { atomic: true },
  );
}

const book = (occurrenceId: number, userId: number) =>
  withTenant(env.db, id.org, null, (t) => takePlace(t, occurrenceId, { userId, source: "staff", createdBy: id.staff }, BOOKED_AT), { atomic: true });
const bookingOf = async (occurrenceId: number, userId: number) =>
  (
    await env.db
      .select()
      .from(class_bookings)
      .where(and(eq(class_bookings.occurrence_id, occurrenceId), eq(class_bookings.user_id, userId)))
  )[0];

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW });
  const db = env.db;
  const hash = await hashPassword(PASSWORD);
  const org = await makeOrganisation(db, { name: "Class Gyms", multi_gym: true });
  const north = await makeGym(db, org.id, "North");
  const south = await makeGym(db, org.id, "South");
  Object.assign(id, { org: org.id, north: north.id, south: south.id });
  const weekly = await makePrice(db, await makeOffering(db, org.id, { name: "Anytime", all_gyms_access: true }), {
    amount: 2_500,
    billing_frequency: "weekly",
  });
  const member = async (key: string, extra: Parameters<typeof makeSubscription>[4] = {}) => {
    const u = await makeUser(db, { name: `${key[0].toUpperCase()}${key.slice(1)} Member`, email: `${key}@example.com`, current_organisation_id: org.id });
    const s = await makeSubscription(db, weekly, u.id, north.id, {
      billing_anchor: "2026-11-02",
      current_period_start: startOfLocalDay("2026-11-30"),
      current_period_end: startOfLocalDay("2026-12-07"),
      ...extra,
    });
    await addMember(db, u.id, org.id, north.id, { latest_subscription_id: s.id });
    id[key] = u.id;
  };
  for (const key of ["ava", "ben", "cat", "dan", "eve"]) await member(key);
  await member("paused", { pause_start_at: startOfLocalDay("2026-11-30"), pause_end_at: startOfLocalDay("2026-12-14") });

  const staff = await makeUser(db, {
    name: "Desk Staff",
    email: "desk@example.com",
    password_hash: hash,
    current_organisation_id: org.id,
    current_gym_id: north.id,
    calendar_colour: "teal",
  });
  await addStaff(db, staff.id, org.id, "admin", []);
  id.staff = staff.id;
  desk = await signedIn(api, env.db, "desk@example.com", PASSWORD);

  const [spin] = await db
    .insert(class_types)
    .values({ organisation_id: org.id, name: "Spin", duration_minutes: 45, default_capacity: 10, colour: "#0ea5e9" })
    .returning();
  id.spin = spin.id;
  const at = (gymId: number, time: string, minutes: number, extra: { capacity?: number; waitlist?: number } = {}) =>
    classToday(db, { orgId: org.id, gymId, typeId: spin.id, trainerId: staff.id, time, minutes, ...extra });
  id.soon = await at(north.id, "10:20", 45, { capacity: 2, waitlist: 2 }); // its window opened at 9:50
  id.later = await at(north.id, "12:00", 45); // its window opens at 11:30
  id.southSoon = await at(south.id, "10:15", 45);
  id.ended = await at(north.id, "08:00", 60, { capacity: 2, waitlist: 2 });
  id.cancelled = await at(north.id, "07:00", 45);

  for (const who of ["ava", "ben", "cat", "paused"]) await book(id.soon, id[who]); // cat and paused wait
  await book(id.later, id.ava);
  await book(id.southSoon, id.ava);
  await book(id.southSoon, id.dan);
  for (const who of ["ava", "ben", "cat"]) await book(id.ended, id[who]); // cat waits
  await book(id.cancelled, id.eve);
  await db.update(class_occurrences).set({ cancelled_at: BOOKED_AT, cancel_reason: "Trainer away" }).where(eq(class_occurrences.id, id.cancelled));

  // The door at North counts visits.
  await db.update(gyms).set({ tracks_visits: true }).where(eq(gyms.id, north.id));
  const [place] = await db
    .insert(access_control_places)
    .values({ organisation_id: org.id, gym_id: north.id, place_id: "place-north", name: "North" })
    .returning();
  await db
    .insert(access_control_doors)
    .values({ organisation_id: org.id, place_row_id: place.id, gym_id: north.id, door_id: "lock-north", name: "Front door", tracks_visits: true });
});
afterAll(() => env.close());

describe("a check-in during a class's window", () => {
  it("marks the member's booking there attended, pointing at the visit, and the desk's answer names the class", async () => {
    const res = await desk.call("POST", "/api/check-ins", { user_id: id.ava, key: "attend-key-0001" });
    expect(res.status).toBe(201);
    expect(res.json.data.classes).toEqual([
      { booking_id: expect.any(Number), class_id: id.soon, name: "Spin", starts_at: expect.any(String), ends_at: expect.any(String) },
    ]);
    const b = await bookingOf(id.soon, id.ava);
    expect(b).toMatchObject({ status: "attended", visit_id: res.json.data.visit.id });
    expect(b.attended_at?.getTime()).toBe(NOW.getTime());
    // The result page reads it back.
    expect((await desk.call("GET", `/api/check-ins/${res.json.data.visit.id}`)).json.data.classes).toHaveLength(1);
  });

  it("leaves alone her classes at another gym, later today, and the same form sent again", async () => {
    expect((await bookingOf(id.later, id.ava)).status).toBe("booked");
    expect((await bookingOf(id.southSoon, id.ava)).status).toBe("booked");
    const again = await desk.call("POST", "/api/check-ins", { user_id: id.ava, key: "attend-key-0001" });
    expect([again.status, again.json.data.classes.length]).toEqual([200, 1]);
  });

  it("marks nothing for a member refused at the desk, or one only on the waitlist", async () => {
    const refused = await desk.call("POST", "/api/check-ins", { user_id: id.paused, key: "attend-key-0002" });
    expect([refused.json.data.visit.successful, refused.json.data.classes]).toEqual([false, []]);
    expect((await bookingOf(id.soon, id.paused)).status).toBe("waitlisted");
    const waiting = await desk.call("POST", "/api/check-ins", { user_id: id.cat, key: "attend-key-0003" });
    expect([waiting.json.data.visit.successful, waiting.json.data.classes]).toEqual([true, []]);
    expect((await bookingOf(id.soon, id.cat)).status).toBe("waitlisted");
  });

  it("marks it through the door too, at the door's gym", async () => {
    const done = await recordDoorEvent(
      env.db,
      { id: "door-evt-1", action: "unlock", object_type: "Lock", object_id: "lock-north", success: true, actor_email: "ben@example.com" },
      NOW,
    );
    expect(done).toEqual({ recorded: true, reason: "visit" });
    expect((await bookingOf(id.soon, id.ben)).status).toBe("attended");
    expect((await bookingOf(id.soon, id.ben)).visit_id).not.toBeNull();
  });
});

describe("the class-attendance job", () => {
  it("makes those booked into an ended class who never came no-shows, once, and closes its attendance", async () => {
    const report = await closeEndedClasses(env.db, NOW);
    // Only the 8 am class has ended by 10 (the 7 am one was cancelled: nothing to close).
    expect(report).toEqual({ organisations: 1, classes: 1, no_shows: 2 });
    expect((await bookingOf(id.ended, id.ava)).status).toBe("no_show");
    expect((await bookingOf(id.ended, id.ben)).status).toBe("no_show");
    expect((await bookingOf(id.ended, id.cat)).status).toBe("waitlisted");
    expect((await bookingOf(id.cancelled, id.eve)).status).toBe("booked");
    const [ended] = await env.db.select().from(class_occurrences).where(eq(class_occurrences.id, id.ended));
    expect(ended.attendance_closed_at?.getTime()).toBe(NOW.getTime());
    expect(await closeEndedClasses(env.db, NOW)).toEqual({ organisations: 0, classes: 0, no_shows: 0 });
  });

  it("keeps those who came attended when their class ends", async () => {
    const end = new Date(NOW.getTime() + 70 * 60_000);
    expect(await closeEndedClasses(env.db, end)).toMatchObject({ classes: 2, no_shows: 2 });
    expect((await bookingOf(id.soon, id.ava)).status).toBe("attended");
    expect((await bookingOf(id.southSoon, id.ava)).status).toBe("no_show");
    expect((await bookingOf(id.southSoon, id.dan)).status).toBe("no_show");
  });
});

describe("webhook events of classes", () => {
  it("records booking.created, booking.cancelled and class.cancelled with the booking or the class as it now is", async () => {
    await env.db.insert(webhook_endpoints).values({
      organisation_id: id.org,
      url: "https://hooks.example.com/classes",
      events: ["booking.created", "booking.cancelled", "class.cancelled"],
      secret: sealSecret(`whsec_${Buffer.alloc(32, 2).toString("base64")}`),
    });
    const [{ m }] = await env.db.select({ m: sql<number>`coalesce(max(${webhook_events.id}), 0)`.mapWith(Number) }).from(webhook_events);
    const classId = await classToday(env.db, { orgId: id.org, gymId: id.north, typeId: id.spin, trainerId: id.staff, time: "18:00", minutes: 45 });
    await withTenant(
      env.db,
      id.org,
      null,
      async (t) => {
        const b = await takePlace(t, classId, { userId: id.eve, source: "member", createdBy: id.eve }, NOW);
        await bookingCreated(t, b.id, NOW);
        const back = await givePlaceBack(t, b.id, NOW);
        if (back.changed) await bookingCancelled(t, b.id, NOW);
        await t.db
          .update(class_occurrences)
          .set({ cancelled_at: NOW, cancel_reason: "Pool closed" })
          .where(t.where(class_occurrences, eq(class_occurrences.id, classId)));
        await classCancelled(t, classId, NOW);
      },
      { atomic: true },
    );
    const events = await env.db.select().from(webhook_events).where(gt(webhook_events.id, m)).orderBy(webhook_events.id);
    expect(events.map((e) => e.type)).toEqual(["booking.created", "booking.cancelled", "class.cancelled"]);
    const [created, cancelled, off] = events.map((e) => (e.payload as { data: Record<string, unknown> }).data);
    expect(created).toMatchObject({
      status: "booked",
      source: "member",
      user: { id: id.eve, name: "Eve Member", email: "eve@example.com" },
      class: { id: classId, class_type: { id: id.spin, name: "Spin" }, gym: { id: id.north, name: "North" }, cancelled_at: null },
      booked_at: NOW.toISOString(),
    });
    expect(cancelled).toMatchObject({ id: created.id, status: "cancelled", cancelled_at: NOW.toISOString() });
    expect(off).toMatchObject({
      id: classId,
      gym: { id: id.north, name: "North" },
      class_type: { name: "Spin" },
      trainer: { id: id.staff, name: "Desk Staff" },
      capacity: 10,
      booked: 0,
      places_left: 10,
      cancelled_at: NOW.toISOString(),
      cancel_reason: "Pool closed",
    });
  });
});

describe("what attendance adds up to", () => {
  it("shows a member's classes: attended, missed, booked next and the last ones", async () => {
    const res = await desk.call("GET", `/api/members/${id.ava}/classes`);
    expect(res.status).toBe(200);
    const d = res.json.data;
    expect([d.attended, d.no_shows, d.late_cancelled]).toEqual([1, 2, 0]);
    expect(d.upcoming.map((k: { class_id: number; status: string }) => [k.class_id, k.status])).toEqual([
      [id.soon, "attended"],
      [id.later, "booked"],
    ]);
    expect(d.recent.map((k: { class_id: number; status: string; name: string; gym: string }) => [k.class_id, k.status, k.name, k.gym])).toEqual([
      [id.ended, "no_show", "Spin", "North"],
    ]);
    expect((await desk.call("GET", "/api/members/2147483647/classes")).status).toBe(404);
  });

  it("gives the dashboard the places taken per week at the current gym, cancelled classes left out", async () => {
    const res = await desk.call("GET", "/api/class-occupancy?weeks=2");
    expect(res.status).toBe(200);
    // North this week: 10:20 (2 places, both attended), 12:00 (10, one booked), 8:00 (2, both no-shows).
    expect(res.json.data.data).toEqual([
      { week_start: "2026-11-23", classes: 0, places: 0, taken: 0, attended: 0, occupancy: null },
      { week_start: "2026-11-30", classes: 3, places: 14, taken: 5, attended: 2, occupancy: 36 },
    ]);
    const dashboard = await desk.call("GET", "/api/dashboard");
    expect(dashboard.json.data.class_occupancy).toHaveLength(8);
    expect(dashboard.json.data.class_occupancy.at(-1)).toEqual(res.json.data.data[1]);
    expect((await desk.call("GET", "/api/class-occupancy?weeks=53")).json.errors).toEqual({ weeks: ["Weeks must be a whole number from 1 to 52."] });
  });
});
