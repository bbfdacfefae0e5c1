import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCalendarDays, localDay, localInstant } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import {
  class_bookings,
  class_type_inclusions,
  class_types,
  mail_outbox,
  push_outbox,
  organisations,
  users,
} from "../../server/core/db/schema";
import { withTenant } from "../../server/core/db/tenant";
import { outboxMailer } from "../../server/core/mail/mailer";
import { takePlace } from "../../server/classes/places";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { browser, itRaces, setup, signedIn } from "./harness";
import { scheduleClasses } from "./class-fixtures";

/**
 * Issue 34, booking: the rules (membership includes the type, the door's access rule, the window, the cut-off, the
 * most bookings), members booking and cancelling themselves, the waitlist moving and telling the promoted member,
 * the roster (add, remove, attendance, message) with its permissions, and the capacity guarantee under 50 members
 * at once (PostgreSQL).
 */
let env: Awaited<ReturnType<typeof setup>>;
const PASSWORD = "classes passphrase";
const DAY = 86_400_000;
// Tomorrow's 18:00 in Auckland: the first class of the weekly Spin; the API's clock is 10:00 today.
const today = localDay(new Date());
const clock = localInstant(today, "10:00");
let ids: Record<string, number>;
let orgId: number;

type Api = ReturnType<typeof createApi>;
const apiAt = (at: Date): Api => createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => at });
/** The same browser (its cookies) on an API whose clock says `at`. */
function at(b: ReturnType<typeof browser>, api: Api) {
  const other = browser(api);
  for (const [k, v] of b.jar) other.jar.set(k, v);
  return other;
}

const schedule = (values: Parameters<typeof scheduleClasses>[3]) => scheduleClasses(env.db, orgId, today, values);

const statusOf = async (bookingId: number) => (await env.db.select().from(class_bookings).where(eq(class_bookings.id, bookingId)))[0].status;

beforeAll(async () => {
  env = await setup();
  const org = await makeOrganisation(env.db, { name: "Class Gyms", multi_gym: true });
  orgId = org.id;
  const north = await makeGym(env.db, org.id, "North");
  const south = await makeGym(env.db, org.id, "South");
  const offering = await makeOffering(env.db, org.id, { name: "Anytime" });
  const price = await makePrice(env.db, offering, { amount: 1999, billing_frequency: "weekly" });
  const cheap = await makeOffering(env.db, org.id, { name: "Gym only" });
  const cheapPrice = await makePrice(env.db, cheap, { amount: 999, billing_frequency: "weekly" });
  const hash = await hashPassword(PASSWORD);
  const person = async (name: string, email: string, push = false) =>
    (await makeUser(env.db, { name, email, password_hash: hash, push_notifications: push, current_organisation_id: org.id })).id;
  const member = async (name: string, email: string, p: { id: number; organisation_id: number } = price, extra: Record<string, unknown> = {}, push = false) => {
    const id = await person(name, email, push);
    const s = await makeSubscription(env.db, p, id, north.id, {
      current_period_start: new Date(clock.getTime() - 3 * DAY),
      current_period_end: new Date(clock.getTime() + 4 * DAY),
      ...extra,
    });
    await addMember(env.db, id, org.id, north.id, { latest_subscription_id: s.id });
    return id;
  };
  const admin = await person("Ada Admin", "ada@classes.example");
  await addStaff(env.db, admin, org.id, "admin");
  const tess = await person("Tess Trainer", "tess@classes.example");
  await addStaff(env.db, tess, org.id, "personal_trainer", [{ gymId: north.id, role: "personal_trainer" }]);
  const sam = await person("Sam South", "sam@classes.example");
  await addStaff(env.db, sam, org.id, "personal_trainer", [{ gymId: south.id, role: "personal_trainer" }]);
  const mia = await member("Mia Member", "mia@classes.example", price, {}, true);
  const noah = await member("Noah Member", "noah@classes.example");
  const gus = await member("Gus Gymonly", "gus@classes.example", cheapPrice);
  const pia = await member("Pia Paused", "pia@classes.example", price, {
    paused_at: new Date(clock.getTime() - DAY),
    pause_start_at: new Date(clock.getTime() - DAY),
    pause_end_at: new Date(clock.getTime() + 30 * DAY),
  });
  const [spin] = await env.db
    .insert(class_types)
    .values({ organisation_id: org.id, name: "Spin", duration_minutes: 45, default_capacity: 2, colour: "#dd3300" })
    .returning();
  const [yoga] = await env.db
    .insert(class_types)
    .values({ organisation_id: org.id, name: "Yoga", duration_minutes: 45, default_capacity: 10, colour: "#3366aa", drop_in_amount: 1500 })
    .returning();
  await env.db.insert(class_type_inclusions).values([
    { organisation_id: org.id, class_type_id: spin.id, offering_id: offering.id },
    { organisation_id: org.id, class_type_id: yoga.id, price_id: price.id },
  ]);
  ids = { north: north.id, south: south.id, admin, tess, sam, mia, noah, gus, pia, spin: spin.id, yoga: yoga.id, price: price.id };
});
afterAll(() => env.close());

describe("a member's timetable and bookings (GET /api/me/classes, POST/DELETE /api/me/class-bookings)", () => {
  let spin: number[];
  let yogaSouth: number;
  beforeAll(async () => {
    // Spin at North tomorrow 18:00 weekly (2 places, 1 on the waitlist); Yoga at South tomorrow.
    spin = await schedule({
      gym: ids.north,
      type: ids.spin,
      trainer: ids.tess,
      capacity: 2,
      waitlist: 1,
      starts_on: addCalendarDays(today, 1),
      start_time: "18:00",
    });
    [yogaSouth] = await schedule({
      gym: ids.south,
      type: ids.yoga,
      trainer: ids.sam,
      capacity: 5,
      waitlist: 0,
      starts_on: addCalendarDays(today, 1),
      start_time: "07:00",
      rrule: null,
    });
  });

  it("lists this week and next at the member's gym, with places left and what they may do", async () => {
    const b = at(await signedIn(env.api, env.db, "mia@classes.example", PASSWORD), apiAt(clock));
    const res = await b.call("GET", "/api/me/classes");
    expect(res.status).toBe(200);
    const list = res.json.data.classes;
    expect(list.every((c: { gym: string }) => c.gym === "North")).toBe(true);
    const first = list.find((c: { id: number }) => c.id === spin[0]);
    expect(first).toMatchObject({ class_type: { name: "Spin" }, places_left: 2, waitlist_left: 1, action: "book", my_booking: null });
    // The window (7 days): the class in 8 days is shown, not yet open, and says when it opens.
    const later = list.find((c: { id: number }) => c.id === spin[1]);
    expect(later.action).toBeNull();
    expect(later.reason).toMatch(/^Booking opens /);
    expect(res.json.data.rules).toMatchObject({ booking_window_days: 7, cancel_cutoff_minutes: 120, max_bookings: 5 });
  });

  it("books, then waitlists when full, then refuses when the waitlist is full too", async () => {
    const api = apiAt(clock);
    const mia = at(await signedIn(env.api, env.db, "mia@classes.example", PASSWORD), api);
    const noah = at(await signedIn(env.api, env.db, "noah@classes.example", PASSWORD), api);
    const booked = await mia.call("POST", "/api/me/class-bookings", { class_id: spin[0] });
    expect(booked.status).toBe(201);
    expect(booked.json.data.status).toBe("booked");
    const twice = await mia.call("POST", "/api/me/class-bookings", { class_id: spin[0] });
    expect(twice.status).toBe(422);
    expect(twice.json.errors.class_id[0]).toBe("Already booked into this class");
    expect((await noah.call("POST", "/api/me/class-bookings", { class_id: spin[0] })).json.data.status).toBe("booked");
    // Full: Gus may not (not included), Pia may not (paused); an admin books a third member onto the waitlist.
    const gus = at(await signedIn(env.api, env.db, "gus@classes.example", PASSWORD), api);
    const refused = await gus.call("POST", "/api/me/class-bookings", { class_id: spin[0] });
    expect(refused.status).toBe(422);
    expect(refused.json.errors.class_id[0]).toBe("Your membership does not include Spin.");
    const pia = at(await signedIn(env.api, env.db, "pia@classes.example", PASSWORD), api);
    const paused = await pia.call("POST", "/api/me/class-bookings", { class_id: spin[0] });
    expect(paused.status).toBe(422);
    expect(paused.json.message).toMatch(/^Your membership does not let you in now: .*paused/);
    const listed = (await mia.call("GET", "/api/me/classes?week=0")).json.data.classes.find((c: { id: number }) => c.id === spin[0]);
    expect(listed).toMatchObject({ action: "cancel", my_booking: { status: "booked" }, places_left: 0, waitlist_left: 1 });
  });

  it("refuses a class at another gym, an unknown class, and bad input with the field's message", async () => {
    const mia = at(await signedIn(env.api, env.db, "mia@classes.example", PASSWORD), apiAt(clock));
    const elsewhere = await mia.call("POST", "/api/me/class-bookings", { class_id: yogaSouth });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.json.message).toBe("This class is not at your gym.");
    expect((await mia.call("POST", "/api/me/class-bookings", { class_id: 2147483647 })).status).toBe(404);
    const bad = await mia.call("POST", "/api/me/class-bookings", { class_id: "spin" });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.class_id).toEqual(["Choose a class"]);
    expect((await mia.call("GET", "/api/me/classes?week=9")).status).toBe(422);
  });

  it("a cancelled place goes to the first on the waitlist, who is e-mailed; a late cancellation is marked so", async () => {
    const api = apiAt(clock);
    const admin = at(await signedIn(env.api, env.db, "ada@classes.example", PASSWORD), api);
    // The waitlisted member: a new one at North whose membership includes Spin, booked in by staff.
    const waiting = await admin.call("POST", `/api/classes/${spin[0]}/bookings`, { member_id: ids.pia });
    expect(waiting.status).toBe(422);
    expect(waiting.json.errors.member_id[0]).toMatch(/paused/);
    const zed = (await makeUser(env.db, { name: "Zed Waiting", email: "zed@classes.example", push_notifications: true })).id;
    const s = await makeSubscription(env.db, { id: ids.price, organisation_id: orgId }, zed, ids.north, {
      current_period_start: new Date(clock.getTime() - DAY),
      current_period_end: new Date(clock.getTime() + 6 * DAY),
    });
    await addMember(env.db, zed, orgId, ids.north, { latest_subscription_id: s.id });
    const wl = await admin.call("POST", `/api/classes/${spin[0]}/bookings`, { member_id: zed });
    expect(wl.status).toBe(201);
    expect(wl.json.data).toMatchObject({ status: "waitlisted", source: "staff" });

    // Noah cancels in good time: his place goes to Zed, who gets the e-mail.
    const noah = at(await signedIn(env.api, env.db, "noah@classes.example", PASSWORD), api);
    const own = (await noah.call("GET", "/api/me/classes")).json.data.classes.find((c: { id: number }) => c.id === spin[0]).my_booking;
    const gone = await noah.call("DELETE", `/api/me/class-bookings/${own.id}`);
    expect(gone.status).toBe(200);
    expect(gone.json.data).toMatchObject({ late: false, booking: { status: "cancelled" } });
    expect(await statusOf(wl.json.data.id)).toBe("booked");
    const mail = (await env.db.select().from(mail_outbox)).filter((m) => m.to === "zed@classes.example").at(-1);
    expect(mail?.subject).toBe("You have a place in Spin");
    // Zed allows push: pushed too, once, with the same heading.
    const pushed = await env.db
      .select()
      .from(push_outbox)
      .where(eq(push_outbox.idempotency_key, `class-place:${wl.json.data.id}`));
    expect(pushed.map((p) => p.heading)).toEqual(["You have a place in Spin"]);
    // Cancelling again changes nothing, and another's booking is not found.
    expect((await noah.call("DELETE", `/api/me/class-bookings/${own.id}`)).status).toBe(422);
    expect((await noah.call("DELETE", `/api/me/class-bookings/${wl.json.data.id}`)).status).toBe(404);

    // Mia cancels an hour before the start: late (the cut-off is two hours), her place freed all the same.
    const hourBefore = new Date(localInstant(addCalendarDays(today, 1), "18:00").getTime() - 3600_000);
    const mia = await signedIn(apiAt(hourBefore), env.db, "mia@classes.example", PASSWORD);
    const mine = (await mia.call("GET", "/api/me/classes")).json.data.classes.find((c: { id: number }) => c.id === spin[0]);
    expect(mine).toMatchObject({ action: "cancel", late: true });
    const late = await mia.call("DELETE", `/api/me/class-bookings/${mine.my_booking.id}`);
    expect(late.json.data).toMatchObject({ late: true, booking: { status: "late_cancelled" } });
    // Once the class has started nobody cancels.
    const zedPassword = await hashPassword(PASSWORD);
    await env.db.update(users).set({ password_hash: zedPassword }).where(eq(users.id, zed));
    const started = await signedIn(apiAt(localInstant(addCalendarDays(today, 1), "18:05")), env.db, "zed@classes.example", PASSWORD);
    const refused = await started.call("DELETE", `/api/me/class-bookings/${wl.json.data.id}`);
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe("This class has already started.");
  });

  it("holds a member to the organisation's most upcoming bookings", async () => {
    await env.db.update(organisations).set({ class_max_bookings: 1 }).where(eq(organisations.id, orgId));
    try {
      const other = await schedule({
        gym: ids.north,
        type: ids.yoga,
        trainer: ids.tess,
        capacity: 5,
        waitlist: 0,
        starts_on: addCalendarDays(today, 2),
        start_time: "06:00",
        rrule: null,
      });
      const gus = at(await signedIn(env.api, env.db, "noah@classes.example", PASSWORD), apiAt(clock));
      expect((await gus.call("POST", "/api/me/class-bookings", { class_id: other[0] })).status).toBe(201);
      const second = await gus.call("POST", "/api/me/class-bookings", { class_id: spin[0] });
      expect(second.status).toBe(422);
      expect(second.json.message).toMatch(/the most at once/);
    } finally {
      await env.db.update(organisations).set({ class_max_bookings: 5 }).where(eq(organisations.id, orgId));
    }
  });

  it("refuses a class the membership does not include, naming a drop-in's price and the card it needs (classes-drop-ins.test.ts books them)", async () => {
    const [yoga] = await schedule({ gym: ids.north, type: ids.yoga, trainer: ids.tess, capacity: 5, waitlist: 0, starts_on: addCalendarDays(today, 2), start_time: "08:00", rrule: null });
    const gus = at(await signedIn(env.api, env.db, "gus@classes.example", PASSWORD), apiAt(clock));
    const listed = (await gus.call("GET", "/api/me/classes")).json.data.classes.find((c: { id: number }) => c.id === yoga);
    expect(listed).toMatchObject({ action: null, reason: "Drop-ins to Yoga ($15.00) are paid by card: add a card in your payment details first." });
    expect((await gus.call("POST", "/api/me/class-bookings", { class_id: yoga })).status).toBe(422);
    // Mia's price includes Yoga (an inclusion by price, not offering).
    const mia = at(await signedIn(env.api, env.db, "mia@classes.example", PASSWORD), apiAt(clock));
    expect((await mia.call("GET", "/api/me/classes")).json.data.classes.find((c: { id: number }) => c.id === yoga).action).toBe("book");
  });

  it("refuses staff on the member routes", async () => {
    const admin = await signedIn(env.api, env.db, "ada@classes.example", PASSWORD);
    expect((await admin.call("GET", "/api/me/classes")).status).toBe(403);
    expect((await admin.call("POST", "/api/me/class-bookings", { class_id: spin[0] })).status).toBe(403);
  });
});

describe("the roster (GET /api/classes/{id}/roster, bookings, attendance, messages)", () => {
  let cls: number;
  beforeAll(async () => {
    [cls] = await schedule({
      gym: ids.north,
      type: ids.spin,
      trainer: ids.tess,
      capacity: 3,
      waitlist: 2,
      starts_on: addCalendarDays(today, 3),
      start_time: "12:00",
      rrule: null,
    });
  });

  it("staff at the class's gym add and remove members and see everyone by status; another gym's trainer may not", async () => {
    const api = apiAt(clock);
    const tess = at(await signedIn(env.api, env.db, "tess@classes.example", PASSWORD), api);
    const added = await tess.call("POST", `/api/classes/${cls}/bookings`, { member_id: ids.mia });
    expect(added.status).toBe(201);
    expect((await tess.call("POST", `/api/classes/${cls}/bookings`, { member_id: ids.noah })).status).toBe(201);
    const notIncluded = await tess.call("POST", `/api/classes/${cls}/bookings`, { member_id: ids.gus });
    expect(notIncluded.status).toBe(422);
    expect(notIncluded.json.errors.member_id).toEqual(["Your membership does not include Spin."]);
    const sam = at(await signedIn(env.api, env.db, "sam@classes.example", PASSWORD), api);
    expect((await sam.call("GET", `/api/classes/${cls}/roster`)).status).toBe(403);
    expect((await sam.call("POST", `/api/classes/${cls}/bookings`, { member_id: ids.mia })).status).toBe(403);
    expect((await sam.call("DELETE", `/api/class-bookings/${added.json.data.id}`)).status).toBe(403);

    const removed = await tess.call("DELETE", `/api/class-bookings/${added.json.data.id}`);
    expect(removed.json.data.booking.status).toBe("cancelled");
    const roster = await tess.call("GET", `/api/classes/${cls}/roster`);
    expect(roster.status).toBe(200);
    expect(roster.json.data.class).toMatchObject({ id: cls, booked: 1, places_left: 2 });
    expect(roster.json.data.bookings.map((b: { member: { name: string }; status: string }) => [b.member.name, b.status])).toEqual([
      ["Noah Member", "booked"],
      ["Mia Member", "cancelled"],
    ]);
    expect(roster.json.data.attendance_open).toBe(false);
  });

  it("marks attendance from 30 minutes before the start, only for those holding a place", async () => {
    const starts = localInstant(addCalendarDays(today, 3), "12:00");
    const noahBooking = (
      await env.db
        .select()
        .from(class_bookings)
        .where(and(eq(class_bookings.occurrence_id, cls), eq(class_bookings.user_id, ids.noah)))
    )[0];
    const early = at(await signedIn(env.api, env.db, "tess@classes.example", PASSWORD), apiAt(clock));
    const tooEarly = await early.call("POST", `/api/class-bookings/${noahBooking.id}/attendance`, { attended: true });
    expect(tooEarly.status).toBe(422);
    expect(tooEarly.json.errors.attended[0]).toMatch(/30 minutes before/);
    const tess = await signedIn(apiAt(new Date(starts.getTime() + 10 * 60_000)), env.db, "tess@classes.example", PASSWORD);
    const came = await tess.call("POST", `/api/class-bookings/${noahBooking.id}/attendance`, { attended: "1" });
    expect(came.status).toBe(200);
    expect(came.json.data.status).toBe("attended");
    expect((await tess.call("POST", `/api/class-bookings/${noahBooking.id}/attendance`, { attended: false })).json.data.status).toBe("no_show");
    const cancelled = (
      await env.db
        .select()
        .from(class_bookings)
        .where(and(eq(class_bookings.occurrence_id, cls), eq(class_bookings.user_id, ids.mia)))
    )[0];
    expect((await tess.call("POST", `/api/class-bookings/${cancelled.id}/attendance`, { attended: true })).status).toBe(422);
    expect((await tess.call("POST", `/api/class-bookings/${noahBooking.id}/attendance`, {})).json.errors.attended).toEqual(["Value is required"]);
    expect((await tess.call("POST", `/api/class-bookings/${noahBooking.id}/attendance`, { attended: true })).json.data.status).toBe("attended");
  });

  it("messages everyone holding a place", async () => {
    const tess = at(await signedIn(env.api, env.db, "tess@classes.example", PASSWORD), apiAt(clock));
    await tess.call("POST", `/api/classes/${cls}/bookings`, { member_id: ids.mia });
    const sent = await tess.call("POST", `/api/classes/${cls}/messages`, { body: "Bring a towel, please." });
    expect(sent.status).toBe(201);
    expect(sent.json.data.sent_to).toBe(2);
    const mail = (await env.db.select().from(mail_outbox)).filter((m) => m.to === "mia@classes.example").at(-1);
    expect(mail?.text).toContain("Bring a towel, please.");
    expect((await tess.call("POST", `/api/classes/${cls}/messages`, { body: " " })).json.errors.body).toEqual(["Value is required"]);
  });
});

describe("the capacity guarantee", () => {
  itRaces(
    "50 members at once for a class's last 5 places: exactly 5 booked, the rest waitlisted, none twice",
    async () => {
      const [cls] = await schedule({
        gym: ids.north,
        type: ids.spin,
        trainer: ids.tess,
        capacity: 8,
        waitlist: 100,
        starts_on: addCalendarDays(today, 4),
        start_time: "09:00",
        rrule: null,
      });
      const firstThree = await Promise.all(
        [ids.mia, ids.noah, ids.gus].map((u) =>
          withTenant(env.db, orgId, null, (t) => takePlace(t, cls, { userId: u, source: "staff", createdBy: ids.admin }, clock), { atomic: true }),
        ),
      );
      expect(firstThree.every((b) => b.status === "booked")).toBe(true);
      const many: number[] = [];
      for (let i = 0; i < 50; i++) {
        const u = await makeUser(env.db, { name: `Racer ${i}`, email: `racer${i}@classes.example` });
        await addMember(env.db, u.id, orgId, ids.north);
        many.push(u.id);
      }
      const results = await Promise.allSettled(
        many.map((u) => withTenant(env.db, orgId, null, (t) => takePlace(t, cls, { userId: u, source: "member", createdBy: u }, clock), { atomic: true })),
      );
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      const rows = await env.db.select().from(class_bookings).where(eq(class_bookings.occurrence_id, cls));
      expect(rows.filter((r) => r.status === "booked").length).toBe(8);
      expect(rows.filter((r) => r.status === "waitlisted").length).toBe(45);
      expect(new Set(rows.map((r) => r.user_id)).size).toBe(rows.length);
    },
    60_000,
  );

  itRaces(
    "50 members at once through the API for the last 5 places",
    async () => {
      const [cls] = await schedule({
        gym: ids.north,
        type: ids.spin,
        trainer: ids.tess,
        capacity: 5,
        waitlist: 100,
        starts_on: addCalendarDays(today, 5),
        start_time: "09:00",
        rrule: null,
      });
      const api = apiAt(clock);
      const hash = await hashPassword(PASSWORD);
      const sessions = [];
      for (let i = 0; i < 50; i++) {
        const email = `api-racer${i}@classes.example`;
        const u = await makeUser(env.db, { name: `Api Racer ${i}`, email, password_hash: hash, current_organisation_id: orgId });
        const s = await makeSubscription(env.db, { id: ids.price, organisation_id: orgId }, u.id, ids.north, {
          current_period_start: new Date(clock.getTime() - DAY),
          current_period_end: new Date(clock.getTime() + 6 * DAY),
        });
        await addMember(env.db, u.id, orgId, ids.north, { latest_subscription_id: s.id });
        sessions.push(at(await signedIn(env.api, env.db, email, PASSWORD), api));
      }
      const answers = await Promise.all(sessions.map((b) => b.call("POST", "/api/me/class-bookings", { class_id: cls })));
      expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
      const rows = await env.db.select().from(class_bookings).where(eq(class_bookings.occurrence_id, cls));
      expect(rows.filter((r) => r.status === "booked").length).toBe(5);
      expect(rows.filter((r) => r.status === "waitlisted").length).toBe(45);
      expect(new Set(rows.map((r) => r.user_id)).size).toBe(50);
    },
    120_000,
  );
});

describe("the member's private calendar feed (GET/POST/DELETE /api/me/calendar-feed)", () => {
  it("holds the classes they booked or wait for, in an organisation without the calendar; a new link ends the old", async () => {
    const [cls] = await schedule({
      gym: ids.north,
      type: ids.spin,
      trainer: ids.tess,
      capacity: 1,
      waitlist: 2,
      starts_on: addCalendarDays(today, 6),
      start_time: "07:30",
      rrule: null,
    });
    const api = apiAt(clock);
    const mia = at(await signedIn(env.api, env.db, "mia@classes.example", PASSWORD), api);
    const noah = at(await signedIn(env.api, env.db, "noah@classes.example", PASSWORD), api);
    expect((await mia.call("POST", "/api/me/class-bookings", { class_id: cls })).status).toBe(201);
    expect((await noah.call("POST", "/api/me/class-bookings", { class_id: cls })).json.data.status).toBe("waitlisted");
    expect((await mia.call("GET", "/api/me/calendar-feed")).json.data.url).toBeNull();
    const made = await mia.call("POST", "/api/me/calendar-feed");
    expect(made.status).toBe(201);
    const path = new URL(made.json.data.url).pathname;
    const feed = await browser(api).call("GET", path);
    expect(feed.status).toBe(200);
    expect(feed.json).toContain("SUMMARY:Spin");
    expect(feed.json).toContain(`UID:class-${cls}-member@`);
    const noahFeed = await browser(api).call("GET", new URL((await noah.call("POST", "/api/me/calendar-feed")).json.data.url).pathname);
    expect(noahFeed.json).toContain("SUMMARY:Spin (waitlist)");
    // A new link: the old one opens nothing; none at all: neither.
    const renewed = await mia.call("POST", "/api/me/calendar-feed");
    expect((await browser(api).call("GET", path)).status).toBe(404);
    expect((await mia.call("DELETE", "/api/me/calendar-feed")).json.data.url).toBeNull();
    expect((await browser(api).call("GET", new URL(renewed.json.data.url).pathname)).status).toBe(404);
    const admin = await signedIn(env.api, env.db, "ada@classes.example", PASSWORD);
    expect((await admin.call("POST", "/api/me/calendar-feed")).status).toBe(403);
  });
});
