import { and, eq, gte, lt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { appointments, class_bookings, class_occurrences, gyms, organisations } from "../../server/core/db/schema";
import { addMember, makeOffering, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { calendarFixture, type CalendarFixture } from "./calendar-fixture";
import { itRaces, signedIn } from "./harness";

/**
 * Group classes' two advisory locks (issue 34), each proved by requests racing on PostgreSQL (scripts/mutate.ts
 * removes each lock and expects these to fail):
 * - the per-member lock in server/classes/bookings.ts: a member one short of the most bookings at once, booking ten
 *   different classes at once, gets one of them;
 * - the per-trainer lock (server/calendar/entries.ts TRAINER_LOCK, taken by appointments and by classes in
 *   server/classes/clashes.ts): classes and appointments for one trainer at overlapping times, asked for at once, are
 *   written once.
 * The clock is Monday 14 September 2026.
 */
const NOW = new Date("2026-09-14T09:00:00+12:00");
const PASSWORD = "calendar passphrase";
const AT_ONCE = 10;
let fx: CalendarFixture;
let orgId: number;
let classType: number;

beforeAll(async () => {
  fx = await calendarFixture("guard.", { now: NOW });
  orgId = (await fx.env.db.select().from(gyms).where(eq(gyms.id, fx.ids.north)))[0].organisation_id;
});
afterAll(() => fx?.env?.close?.());

/**
 * The tenant pool opens its connections as they are first asked for, each taking a while: without this the first
 * racer would be done before the others had a connection, and the race would be no race.
 */
const warm = (who: CalendarFixture["admin"], path: string) => Promise.all(Array.from({ length: AT_ONCE }, () => who.call("GET", path)));

/** One class of the type, once, on `day` at `time`. */
function oneClass(trainer: number, day: string, time: string) {
  return fx.admin.call("POST", "/api/class-schedules", {
    gym_id: fx.ids.north,
    class_type_id: classType,
    trainer_id: trainer,
    repeat: "once",
    starts_on: day,
    start_time: time,
    duration_minutes: 30,
  });
}

describe("a member's bookings, one at a time (the per-member lock)", () => {
  itRaces(
    `one short of the most at once, ${AT_ONCE} different classes booked at once: one booked, the rest refused by the limit`,
    async () => {
      const { env, api } = fx;
      const offering = await makeOffering(env.db, orgId, { name: "Classes" });
      const price = await makePrice(env.db, offering, { amount: 2500, billing_frequency: "weekly" });
      classType = (await fx.admin.call("POST", "/api/class-types", { name: "Spin", duration_minutes: 30, default_capacity: 10, offering_ids: [offering.id] }))
        .json.data.id;
      await env.db.update(organisations).set({ class_max_bookings: 3 }).where(eq(organisations.id, orgId));
      const email = fx.email("racer");
      const racer = await makeUser(env.db, { name: "Rita Racer", email, password_hash: await hashPassword(PASSWORD), current_organisation_id: orgId });
      const s = await makeSubscription(env.db, price, racer.id, fx.ids.north, {
        current_period_start: new Date(NOW.getTime() - 86_400_000),
        current_period_end: new Date(NOW.getTime() + 14 * 86_400_000),
      });
      await addMember(env.db, racer.id, orgId, fx.ids.north, { latest_subscription_id: s.id });
      // Twelve classes on Tuesday, an hour apart: two booked first, then ten at once.
      const classes: number[] = [];
      for (let h = 6; h < 18; h++) {
        const made = await oneClass(fx.ids.tess, "2026-09-15", `${String(h).padStart(2, "0")}:00`);
        expect(made.status).toBe(201);
        const [row] = await env.db.select().from(class_occurrences).where(eq(class_occurrences.schedule_id, made.json.data.id));
        classes.push(row.id);
      }
      const rita = await signedIn(api, env.db, email, PASSWORD);
      for (const id of classes.slice(0, 2)) expect((await rita.call("POST", "/api/me/class-bookings", { class_id: id })).status).toBe(201);

      await warm(rita, "/api/me/classes");
      const answers = await Promise.all(classes.slice(2).map((id) => rita.call("POST", "/api/me/class-bookings", { class_id: id })));
      expect(answers.filter((a) => a.status === 201).length).toBe(1);
      const refused = answers.filter((a) => a.status !== 201);
      expect(refused.map((a) => [a.status, a.json.message])).toEqual(
        Array(AT_ONCE - 1).fill([422, "You already hold 3 upcoming bookings, the most at once. Cancel one to book another."]),
      );
      const held = await env.db.select().from(class_bookings).where(eq(class_bookings.user_id, racer.id));
      expect(held.length).toBe(3);
    },
    60_000,
  );
});

describe("a trainer in one place at a time (the per-trainer lock, classes and appointments alike)", () => {
  itRaces(
    `${AT_ONCE} classes and appointments for one trainer over the same hour, asked for at once: one written, the rest refused`,
    async () => {
      const { env, ids } = fx;
      classType ??= (await fx.admin.call("POST", "/api/class-types", { name: "Spin", duration_minutes: 30, default_capacity: 10 })).json.data.id;
      // Different members for the appointments, so only the trainer's lock stands between them.
      const members: number[] = [];
      for (let i = 0; i < AT_ONCE / 2; i++) {
        const u = await makeUser(env.db, { name: `Member ${i}`, email: fx.email(`member${i}`) });
        await addMember(env.db, u.id, orgId, ids.north);
        members.push(u.id);
      }
      // Wednesday from 07:00, each a few minutes later than the one before: every pair overlaps.
      const time = (i: number) => `07:${String(i * 2).padStart(2, "0")}`;
      await warm(fx.admin, "/api/class-schedules");
      const attempts = Array.from({ length: AT_ONCE }, (_, i) =>
        i % 2
          ? fx.admin.call("POST", "/api/appointments", {
              trainer_id: ids.theo,
              member_id: members[(i - 1) / 2],
              gym_id: ids.north,
              starts_at: `2026-09-16T${time(i)}:00+12:00`,
              ends_at: `2026-09-16T${time(i + 15)}:00+12:00`,
            })
          : oneClass(ids.theo, "2026-09-16", time(i)),
      );
      const answers = await Promise.all(attempts);
      expect(answers.filter((a) => a.status === 201).length).toBe(1);
      for (const a of answers.filter((x) => x.status !== 201)) {
        expect(a.status).toBe(422);
        expect(Object.values(a.json.errors).flat()[0]).toMatch(/^Theo Trainer (is already booked|runs a class|already runs a class) then/);
      }
      const day = { from: new Date("2026-09-16T00:00:00+12:00"), to: new Date("2026-09-17T00:00:00+12:00") };
      const classesWritten = await env.db
        .select()
        .from(class_occurrences)
        .where(and(eq(class_occurrences.trainer_id, ids.theo), gte(class_occurrences.starts_at, day.from), lt(class_occurrences.starts_at, day.to)));
      const appointmentsWritten = await env.db
        .select()
        .from(appointments)
        .where(and(eq(appointments.trainer_id, ids.theo), gte(appointments.starts_at, day.from), lt(appointments.starts_at, day.to)));
      expect(classesWritten.length + appointmentsWritten.length).toBe(1);
    },
    60_000,
  );
});
