import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../server/core/db/values";
import { DEMO_ACCOUNTS, seedDemo, type DemoSummary } from "../../server/seed/demo-data";
import { setup } from "./harness";

/**
 * Issue 34: the demo has group classes (server/seed/demo-classes.ts): a weekly timetable of 60 classes at the four
 * gyms, seven weeks past with attendance closed, and bookings that keep the rules places.ts keeps. The demo as `npm start` seeds it (300 members).
 */
const now = new Date();
let env: Awaited<ReturnType<typeof setup>>;
let summary: DemoSummary;

beforeAll(async () => {
  env = await setup();
  summary = await seedDemo(env.db, { now });
});
afterAll(() => env.close());

const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await env.db.execute(query));

describe("the demo's classes", () => {
  it("has class types in both organisations, included by their memberships, and 60 weekly classes at the four gyms", async () => {
    expect(summary.class_types).toBe(10);
    const perGym = await rows<{ gym: string; n: number }>(sql`select g.name as gym, count(*)::int as n from class_schedules s join gyms g on g.id = s.gym_id
      where s.rrule like 'FREQ=WEEKLY%' group by g.name order by g.name`);
    expect(perGym.reduce((sum, g) => sum + g.n, 0)).toBe(60);
    expect(perGym).toHaveLength(4);
    const [{ n: inclusions }] = await rows<{ n: number }>(sql`select count(*)::int as n from class_type_inclusions`);
    expect(inclusions).toBeGreaterThan(9);
    // Written eight weeks ahead, and seven weeks back.
    expect(summary.classes).toBeGreaterThanOrEqual(60 * 15);
  });

  it("never has a trainer in two classes at once, nor in a class over one of their appointments", async () => {
    const clashes = await rows(sql`select a.id from class_occurrences a join class_occurrences b on a.trainer_id = b.trainer_id and a.id < b.id
      and a.starts_at < b.ends_at and b.starts_at < a.ends_at and a.cancelled_at is null and b.cancelled_at is null`);
    expect(clashes).toEqual([]);
    const overAppointments = await rows(sql`select o.id from class_occurrences o join appointments a on a.trainer_id = o.trainer_id
      and a.starts_at < o.ends_at and o.starts_at < a.ends_at where o.cancelled_at is null`);
    expect(overAppointments).toEqual([]);
  });

  it("keeps each class's places and waitlist, one booking a member a class, and at most five upcoming a member", async () => {
    const over = await rows(sql`select o.id from class_occurrences o join class_bookings b on b.occurrence_id = o.id group by o.id
      having count(*) filter (where b.status in ('booked', 'attended')) > min(o.capacity) or count(*) filter (where b.status = 'waitlisted') > min(o.waitlist_size)`);
    expect(over).toEqual([]);
    const waitingWithRoom =
      await rows(sql`select o.id from class_occurrences o join class_bookings b on b.occurrence_id = o.id where o.starts_at > now() group by o.id
      having count(*) filter (where b.status = 'waitlisted') > 0 and count(*) filter (where b.status in ('booked', 'attended')) < min(o.capacity)`);
    expect(waitingWithRoom).toEqual([]);
    const busy = await rows(sql`select b.user_id from class_bookings b join class_occurrences o on o.id = b.occurrence_id
      where o.starts_at > ${now} and b.status = 'booked' group by b.user_id having count(*) > 5`);
    expect(busy).toEqual([]);
    expect(summary.class_bookings).toBeGreaterThan(500);
  });

  it("has closed the attendance of every ended class: attended, no-shows and late cancellations, nobody still booked", async () => {
    const [ended] = await rows<{
      open: number;
      booked: number;
    }>(sql`select count(*) filter (where o.attendance_closed_at is null and o.cancelled_at is null)::int as open,
      count(b.id) filter (where b.status = 'booked')::int as booked from class_occurrences o left join class_bookings b on b.occurrence_id = o.id where o.ends_at <= ${now}`);
    expect(ended).toEqual({ open: 0, booked: 0 });
    const statuses = await rows<{ status: string }>(
      sql`select distinct b.status from class_bookings b join class_occurrences o on o.id = b.occurrence_id where o.ends_at <= ${now}`,
    );
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(["attended", "no_show", "late_cancelled"]));
    const [{ n: upcomingFull }] = await rows<{ n: number }>(
      sql`select count(distinct b.occurrence_id)::int as n from class_bookings b where b.status = 'waitlisted'`,
    );
    expect(upcomingFull).toBeGreaterThan(0);
  });

  it("gives Morgan Member classes attended and classes booked", async () => {
    const mine = await rows<{ status: string; n: number }>(sql`select b.status, count(*)::int as n from class_bookings b join users u on u.id = b.user_id
      where u.email = ${DEMO_ACCOUNTS.member} group by b.status`);
    const of = Object.fromEntries(mine.map((m) => [m.status, m.n]));
    expect(of.attended).toBeGreaterThanOrEqual(3);
    expect(of.booked).toBeGreaterThanOrEqual(2);
    // Open Studio, starting ten minutes after the seed: a class to check in to, whenever the demo is seeded.
    const [open] = await rows<{
      starts_at: Date;
      status: string;
    }>(sql`select o.starts_at, b.status from class_occurrences o join class_types k on k.id = o.class_type_id
      join class_bookings b on b.occurrence_id = o.id join users u on u.id = b.user_id where k.name = 'Open Studio' and u.email = ${DEMO_ACCOUNTS.member}`);
    expect(open.status).toBe("booked");
    expect(new Date(open.starts_at).getTime() - now.getTime()).toBeGreaterThan(4 * 60_000);
  });
});
