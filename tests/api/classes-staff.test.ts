import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { class_bookings, class_occurrences, class_schedules, gyms, mail_outbox } from "../../server/core/db/schema";
import { addStaff, makeOffering, makePrice, makeUser } from "../../server/seed/factories";
import { calendarFixture, type CalendarFixture } from "./calendar-fixture";
import { signedIn } from "./harness";

/**
 * Group classes, the staff's side (issue 34): class types with what includes them, a gym's timetable (once and weekly,
 * rows written ahead), one class changed or cancelled (those booked e-mailed once, nothing freed twice), a weekly class
 * changed from a date and ended, the trainer's clashes both ways, and the booking rules. Bookings are inserted directly
 * here: booking itself is the booking routes' (server/classes/bookings.ts). The clock is Monday 14 September 2026.
 */
const NOW = new Date("2026-09-14T09:00:00+12:00");
let fx: CalendarFixture;
let env: CalendarFixture["env"];
let admin: CalendarFixture["admin"];
let tess: CalendarFixture["tess"];
let ids: CalendarFixture["ids"];
let gymAdmin: CalendarFixture["admin"];
let orgId: number;
let offeringId: number;
let priceId: number;

beforeAll(async () => {
  fx = await calendarFixture("cls.", { now: NOW });
  ({ env, admin, tess, ids } = fx);
  const gymAdminUser = await makeUser(env.db, { name: "Gia Gymadmin", email: fx.email("gia"), password_hash: await hashPassword("calendar passphrase") });
  orgId = (await env.db.select().from(gyms).where(eq(gyms.id, ids.north)))[0].organisation_id;
  await addStaff(env.db, gymAdminUser.id, orgId, "personal_trainer", [{ gymId: ids.north, role: "admin" }]);
  gymAdmin = await signedIn(fx.api, env.db, fx.email("gia"), "calendar passphrase");
  const offering = await makeOffering(env.db, orgId, { name: "Unlimited" });
  offeringId = offering.id;
  priceId = (await makePrice(env.db, offering, { amount: 2500, billing_frequency: "weekly" })).id;
});
afterAll(() => env?.close?.());

const book = async (occurrenceId: number, userId: number, status: "booked" | "waitlisted" = "booked") =>
  (
    await env.db
      .insert(class_bookings)
      .values({
        organisation_id: orgId,
        occurrence_id: occurrenceId,
        user_id: userId,
        status,
        source: "staff",
        created_by: userId,
        booked_at: status === "booked" ? NOW : null,
        waitlisted_at: status === "waitlisted" ? NOW : null,
      })
      .returning()
  )[0];
const mailsTo = async (who: string) =>
  (
    await env.db
      .select()
      .from(mail_outbox)
      .where(eq(mail_outbox.to, fx.email(who)))
  ).filter((m) => /class|Spin|Yoga/i.test(m.subject));
const week = (from: string, to: string) => `from=${encodeURIComponent(`${from}T00:00:00+12:00`)}&to=${encodeURIComponent(`${to}T00:00:00+12:00`)}`;

describe("class types", () => {
  let spin: number;
  it("creates one with what includes it and a drop-in price; refuses bad input with the field named", async () => {
    const res = await admin.call("POST", "/api/class-types", {
      name: "Spin",
      description: "Bikes",
      duration_minutes: 45,
      default_capacity: 12,
      default_waitlist: 3,
      colour: "#DC2626",
      drop_in_amount: 2000,
      offering_ids: [offeringId],
      price_ids: [priceId],
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      name: "Spin",
      duration_minutes: 45,
      default_capacity: 12,
      default_waitlist: 3,
      colour: "#dc2626",
      drop_in_amount: 2000,
      offering_ids: [offeringId],
      price_ids: [],
    });
    expect(res.json.data.included_in.offerings).toEqual([{ id: offeringId, name: "Unlimited" }]);
    spin = res.json.data.id;
    const bad = await admin.call("POST", "/api/class-types", {
      name: "spin",
      duration_minutes: "x",
      default_capacity: 0,
      colour: "#123456",
      drop_in_amount: -1,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(["colour", "default_capacity", "drop_in_amount", "duration_minutes"]);
    const dup = await admin.call("POST", "/api/class-types", { name: "SPIN", duration_minutes: 30, default_capacity: 5 });
    expect(dup.json.errors).toEqual({ name: ["A class type with this name already exists"] });
    const foreign = await admin.call("POST", "/api/class-types", { name: "Yoga", duration_minutes: 60, default_capacity: 20, offering_ids: [999999] });
    expect(foreign.json.errors).toEqual({ offering_ids: ["Choose offerings from the list"] });
  });

  it("changes it (one price instead of the offering), archives and restores it", async () => {
    const res = await admin.call("PUT", `/api/class-types/${spin}`, {
      name: "Spin",
      duration_minutes: 45,
      default_capacity: 10,
      colour: "#dc2626",
      price_ids: [priceId],
    });
    expect(res.json.data).toMatchObject({ default_capacity: 10, default_waitlist: 0, drop_in_amount: null, offering_ids: [], price_ids: [priceId] });
    expect((await admin.call("POST", `/api/class-types/${spin}/archive`)).json.data.archived).toBe(true);
    expect((await admin.call("GET", "/api/class-types")).json.data.data.map((t: { name: string }) => t.name)).not.toContain("Spin");
    expect((await admin.call("POST", `/api/class-types/${spin}/restore`)).json.data.archived).toBe(false);
  });

  it("is the organisation's: a gym admin and a trainer read types but cannot change them", async () => {
    expect((await gymAdmin.call("GET", "/api/class-types")).status).toBe(200);
    expect((await gymAdmin.call("POST", "/api/class-types", { name: "Box", duration_minutes: 30, default_capacity: 8 })).status).toBe(403);
    expect((await tess.call("PUT", `/api/class-types/${spin}`, { name: "Box", duration_minutes: 30, default_capacity: 8 })).status).toBe(403);
    expect((await tess.call("GET", `/api/class-types/${spin}`)).status).toBe(200);
  });
});

describe("the timetable", () => {
  let yoga: number;
  let weekly: number;
  beforeAll(async () => {
    yoga = (await admin.call("POST", "/api/class-types", { name: "Yoga", duration_minutes: 60, default_capacity: 3, default_waitlist: 2, colour: "#16a34a" }))
      .json.data.id;
  });
  const schedule = (who: typeof admin, body: Record<string, unknown>) =>
    who.call("POST", "/api/class-schedules", {
      gym_id: ids.north,
      class_type_id: yoga,
      trainer_id: ids.tess,
      repeat: "weekly",
      days: [1, 3],
      starts_on: "2026-09-14",
      start_time: "18:00",
      ...body,
    });

  it("schedules a weekly class and writes its classes eight weeks ahead, at 6 PM on both sides of daylight saving", async () => {
    const res = await schedule(gymAdmin, { room: "Studio 1" });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      repeat: "weekly",
      days: [1, 3],
      starts_on: "2026-09-14",
      ends_on: null,
      end_time: "19:00",
      capacity: 3,
      waitlist_size: 2,
      summary: "Mondays and Wednesdays, 6:00 PM to 7:00 PM",
      class_type: { name: "Yoga" },
      trainer: { name: "Tess Trainer" },
    });
    weekly = res.json.data.id;
    const rows = await env.db.select().from(class_occurrences).where(eq(class_occurrences.schedule_id, weekly));
    expect(rows.length).toBe(17); // Mon 14 Sep to Mon 9 Nov (56 days ahead), two a week
    const list = (await tess.call("GET", `/api/classes?${week("2026-09-21", "2026-10-01")}`)).json.data.data;
    expect(list.map((c: { starts_at: string; places_left: number }) => [c.starts_at, c.places_left])).toEqual([
      ["2026-09-21T06:00:00.000Z", 3],
      ["2026-09-23T06:00:00.000Z", 3],
      ["2026-09-28T05:00:00.000Z", 3],
      ["2026-09-30T05:00:00.000Z", 3],
    ]);
  });

  it("schedules a class once; refuses a day gone, a missing day and a trainer not at the gym", async () => {
    const once = await schedule(admin, { repeat: "once", days: [], starts_on: "2026-09-19", start_time: "09:00", trainer_id: ids.theo, capacity: 8 });
    expect(once.status).toBe(201);
    expect(once.json.data).toMatchObject({ repeat: "once", ends_on: "2026-09-19", summary: "Once, Sat 19 Sep 2026, 9:00 AM to 10:00 AM", capacity: 8 });
    expect((await schedule(admin, { starts_on: "2026-09-01" })).json.errors).toEqual({ starts_on: ["Choose today or a later day"] });
    expect((await schedule(admin, { days: [] })).json.errors).toEqual({ days: ["Choose at least one day"] });
    expect((await schedule(admin, { gym_id: ids.south, trainer_id: ids.theo, start_time: "06:00" })).json.errors).toEqual({
      trainer_id: ["Choose a trainer who works at this gym"],
    });
    expect(
      (
        await tess.call("POST", "/api/class-schedules", {
          gym_id: ids.north,
          class_type_id: yoga,
          trainer_id: ids.tess,
          days: [5],
          starts_on: "2026-09-18",
          start_time: "06:00",
        })
      ).status,
    ).toBe(403);
  });

  it("refuses a trainer's clashes both ways, naming them: classes, appointments, recurring sessions", async () => {
    const clash = await schedule(admin, { days: [3], start_time: "18:30" });
    expect(clash.json.errors).toEqual({ start_time: ["Tess Trainer already runs a class then: Yoga at North, Wed 16 Sep, 6:00 PM to 7:00 PM"] });
    const appt = await admin.call("POST", "/api/appointments", {
      trainer_id: ids.tess,
      member_id: ids.mia,
      gym_id: ids.north,
      starts_at: "2026-09-28T18:30:00+13:00",
      ends_at: "2026-09-28T19:30:00+13:00",
    });
    expect(appt.json.errors).toEqual({ starts_at: ["Tess Trainer runs a class then: Yoga at North, Mon 28 Sep, 6:00 PM to 7:00 PM"] });
    // Far beyond the rows written, the weekly rule still counts.
    const later = await admin.call("POST", "/api/appointments", {
      trainer_id: ids.tess,
      member_id: ids.mia,
      gym_id: ids.north,
      starts_at: "2027-03-01T18:30:00+13:00",
      ends_at: "2027-03-01T19:30:00+13:00",
    });
    expect(later.json.errors.starts_at[0]).toMatch(/^Tess Trainer runs a class then: Yoga at North, Mon 1 Mar/);
    const series = await admin.call("POST", "/api/recurring-schedules", {
      trainer_id: ids.tess,
      member_id: ids.noah,
      gym_id: ids.north,
      days: [5],
      start_time: "07:00",
      end_time: "08:00",
      starts_on: "2026-09-18",
      count: 4,
    });
    expect(series.status).toBe(201);
    const onSeries = await schedule(admin, { days: [5], start_time: "07:30" });
    expect(onSeries.json.errors).toEqual({ start_time: ["Tess Trainer is already booked then: Fri 18 Sep, 7:00 AM to 8:00 AM with Noah Member"] });
  });

  let monday: number;
  it("cancels one class: those booked and waiting are e-mailed once, their bookings cancelled, nobody promoted", async () => {
    const [row] = await env.db
      .select()
      .from(class_occurrences)
      .where(and(eq(class_occurrences.schedule_id, weekly), eq(class_occurrences.occurrence_day, "2026-09-21")));
    monday = row.id;
    const mia = await book(row.id, ids.mia);
    const noah = await book(row.id, ids.noah, "waitlisted");
    const res = await admin.call("DELETE", `/api/classes/${row.id}?reason=${encodeURIComponent("The studio is flooded")}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ cancel_reason: "The studio is flooded", told: 2 });
    const bookings = await env.db
      .select()
      .from(class_bookings)
      .where(inArray(class_bookings.id, [mia.id, noah.id]));
    expect(bookings.map((b) => b.status)).toEqual(["cancelled", "cancelled"]);
    const [mail] = await mailsTo("mia");
    expect(mail.subject).toBe("Yoga on Mon 21 Sep is cancelled");
    expect(mail.text).toContain("Yoga at North on Monday 21 September at 6:00 PM is cancelled: The studio is flooded. Your booking is cancelled with it.");
    expect(await mailsTo("noah")).toHaveLength(1);
    const again = await admin.call("DELETE", `/api/classes/${row.id}`);
    expect(again.json.data.told).toBe(0);
    expect(await mailsTo("mia")).toHaveLength(1);
    // Gone from the lists, but staff see it struck through with cancelled=1.
    expect((await admin.call("GET", `/api/classes?${week("2026-09-21", "2026-09-22")}`)).json.data.data).toEqual([]);
    expect((await admin.call("GET", `/api/classes?${week("2026-09-21", "2026-09-22")}&cancelled=1`)).json.data.data).toHaveLength(1);
  });

  it("changes one class: moved (those booked told), places never below those booked, places added go to those waiting", async () => {
    const [row] = await env.db
      .select()
      .from(class_occurrences)
      .where(and(eq(class_occurrences.schedule_id, weekly), eq(class_occurrences.occurrence_day, "2026-09-23")));
    await book(row.id, ids.mia);
    await book(row.id, ids.noah);
    const body = {
      starts_at: "2026-09-23T19:00:00+12:00",
      ends_at: "2026-09-23T20:00:00+12:00",
      trainer_id: ids.tess,
      room: "Studio 2",
      capacity: 1,
      waitlist_size: 2,
    };
    expect((await admin.call("PUT", `/api/classes/${row.id}`, body)).json.errors).toEqual({ capacity: ["2 members are booked: choose at least 2 places"] });
    await env.db
      .update(class_bookings)
      .set({ status: "waitlisted", waitlisted_at: NOW })
      .where(and(eq(class_bookings.occurrence_id, row.id), eq(class_bookings.user_id, ids.noah)));
    const res = await admin.call("PUT", `/api/classes/${row.id}`, { ...body, capacity: 2 });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ room: "Studio 2", starts_at: "2026-09-23T07:00:00.000Z", booked: 2, waitlisted: 0, places_left: 0 });
    const moved = (await mailsTo("mia")).find((m) => m.subject === "Yoga has moved")!;
    expect(moved.text).toContain("has moved from Wednesday 23 September at 6:00 PM to Wednesday 23 September at 7:00 PM");
    expect((await admin.call("PUT", `/api/classes/${row.id}`, { ...body, ends_at: "2026-09-23T18:00:00+12:00" })).json.errors).toEqual({
      ends_at: ["Choose an end after the start"],
    });
    expect((await tess.call("PUT", `/api/classes/${row.id}`, body)).status).toBe(403);
  });

  it("changes the weekly class from a date: the classes before stay, those after carry their bookings, a day dropped is cancelled", async () => {
    const [keep] = await env.db
      .select()
      .from(class_occurrences)
      .where(and(eq(class_occurrences.schedule_id, weekly), eq(class_occurrences.occurrence_day, "2026-10-05")));
    const [drop] = await env.db
      .select()
      .from(class_occurrences)
      .where(and(eq(class_occurrences.schedule_id, weekly), eq(class_occurrences.occurrence_day, "2026-10-07")));
    const kept = await book(keep.id, ids.mia);
    await book(drop.id, ids.noah);
    const res = await admin.call("PUT", `/api/class-schedules/${weekly}`, {
      from: "2026-10-01",
      days: [1],
      start_time: "17:30",
      duration_minutes: 60,
      trainer_id: ids.tess,
      capacity: 5,
      waitlist_size: 2,
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      previous_id: weekly,
      days: [1],
      starts_on: "2026-10-05",
      summary: "Mondays, 5:30 PM to 6:30 PM",
      capacity: 5,
      classes_cancelled: 5,
    }); // the Wednesdays written, 7 Oct to 4 Nov
    const [before] = await env.db.select().from(class_schedules).where(eq(class_schedules.id, weekly));
    expect(before).toMatchObject({ ends_on: "2026-09-30", rrule: "FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260930T000000Z" });
    const [carried] = await env.db.select().from(class_occurrences).where(eq(class_occurrences.id, keep.id));
    expect(carried).toMatchObject({ schedule_id: res.json.data.id, capacity: 5 });
    expect(carried.starts_at.toISOString()).toBe("2026-10-05T04:30:00.000Z");
    expect((await env.db.select().from(class_bookings).where(eq(class_bookings.id, kept.id)))[0].status).toBe("booked");
    const [dropped] = await env.db.select().from(class_occurrences).where(eq(class_occurrences.id, drop.id));
    expect(dropped.cancelled_at).not.toBeNull();
    expect((await mailsTo("noah")).some((m) => m.subject === "Yoga on Wed 7 Oct is cancelled")).toBe(true);
    const list = (await admin.call("GET", `/api/classes?${week("2026-09-28", "2026-10-13")}`)).json.data.data;
    expect(list.map((c: { occurrence_day: string }) => c.occurrence_day)).toEqual(["2026-09-28", "2026-09-30", "2026-10-05", "2026-10-12"]);
    weekly = res.json.data.id;
  });

  it("ends the weekly class from a date: its classes from then are cancelled and those booked told", async () => {
    const [row] = await env.db
      .select()
      .from(class_occurrences)
      .where(and(eq(class_occurrences.schedule_id, weekly), eq(class_occurrences.occurrence_day, "2026-10-19")));
    await book(row.id, ids.mia);
    const res = await admin.call("DELETE", `/api/class-schedules/${weekly}?from=2026-10-19`);
    expect(res.json.data).toEqual({ ended: true, from: "2026-10-19", classes_cancelled: 4 });
    expect((await mailsTo("mia")).some((m) => m.subject === "Yoga on Mon 19 Oct is cancelled")).toBe(true);
    const schedules = (await admin.call("GET", "/api/class-schedules")).json.data.data;
    expect(schedules.find((s: { id: number }) => s.id === weekly)).toMatchObject({ ends_on: "2026-10-18", ended: false });
    expect(
      (await admin.call("PUT", `/api/class-schedules/${weekly}`, { from: "2026-09-01", days: [1], start_time: "17:30", trainer_id: ids.tess })).json.errors,
    ).toEqual({ from: ["Choose today or a later day: the past stays as it was"] });
    expect(monday).toBeGreaterThan(0);
  });

  it("answers 404 for another organisation's class and schedule", async () => {
    expect((await fx.quiet.call("GET", `/api/classes/${monday}`)).status).toBe(404);
    expect((await fx.quiet.call("DELETE", `/api/classes/${monday}`)).status).toBe(404);
    expect((await fx.quiet.call("GET", `/api/class-schedules/${weekly}`)).status).toBe(404);
  });
});

describe("booking rules", () => {
  it("reads and sets them (organisation admins only), refusing bad numbers", async () => {
    expect((await admin.call("GET", `/api/organisations/${orgId}/class-booking-rules`)).json.data).toEqual({
      class_booking_window_days: 7,
      class_cancel_cutoff_minutes: 120,
      class_max_bookings: 5,
    });
    const res = await admin.call("PUT", `/api/organisations/${orgId}/class-booking-rules`, {
      class_booking_window_days: "14",
      class_cancel_cutoff_minutes: 60,
      class_max_bookings: 3,
    });
    expect(res.json.data).toEqual({ class_booking_window_days: 14, class_cancel_cutoff_minutes: 60, class_max_bookings: 3 });
    const bad = await admin.call("PUT", `/api/organisations/${orgId}/class-booking-rules`, {
      class_booking_window_days: -1,
      class_cancel_cutoff_minutes: "soon",
      class_max_bookings: 0,
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      class_booking_window_days: ["The minimum value allowed is 0"],
      class_cancel_cutoff_minutes: ["Enter a whole number of minutes"],
      class_max_bookings: ["The minimum value allowed is 1"],
    });
    expect(
      (
        await gymAdmin.call("PUT", `/api/organisations/${orgId}/class-booking-rules`, {
          class_booking_window_days: 1,
          class_cancel_cutoff_minutes: 1,
          class_max_bookings: 1,
        })
      ).status,
    ).toBe(403);
  });
});
