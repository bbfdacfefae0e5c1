import { asc, eq, gt, inArray, lt, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { class_bookings, class_occurrences, class_types, gyms, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * Classes as the timetables show them (issue 34): the staff timetable and calendar, the member's timetable, the API's
 * lists. One read for a span: each class with its type, trainer and gym, how many hold a place and wait, and (for a
 * member) their own booking. Counts come from the bookings (server/classes/places.ts keeps them exact).
 */
const trainer = alias(users, "class_trainer");

export interface ClassFilter {
  gymIds?: number[];
  trainerId?: number;
  classTypeId?: number;
  /** Cancelled classes too (staff see them struck through; members do not). */
  withCancelled?: boolean;
}

export const classView = {
  id: class_occurrences.id,
  gym_id: class_occurrences.gym_id,
  gym: gyms.name,
  schedule_id: class_occurrences.schedule_id,
  occurrence_day: class_occurrences.occurrence_day,
  starts_at: class_occurrences.starts_at,
  ends_at: class_occurrences.ends_at,
  room: class_occurrences.room,
  capacity: class_occurrences.capacity,
  waitlist_size: class_occurrences.waitlist_size,
  cancelled_at: class_occurrences.cancelled_at,
  cancel_reason: class_occurrences.cancel_reason,
  class_type: { id: class_types.id, name: class_types.name, colour: class_types.colour, description: class_types.description, drop_in_amount: class_types.drop_in_amount },
  trainer: { id: trainer.id, name: trainer.name, calendar_colour: trainer.calendar_colour },
};

/** The classes overlapping [from, to), earliest first, with their counts (and `userId`'s own booking when given). */
export async function classesBetween(t: Tenant, from: Date, to: Date, filter: ClassFilter = {}, userId?: number) {
  const where: (SQL | undefined)[] = [
    lt(class_occurrences.starts_at, to),
    gt(class_occurrences.ends_at, from),
    filter.gymIds ? inArray(class_occurrences.gym_id, filter.gymIds.length ? filter.gymIds : [-1]) : undefined,
    filter.trainerId ? eq(class_occurrences.trainer_id, filter.trainerId) : undefined,
    filter.classTypeId ? eq(class_occurrences.class_type_id, filter.classTypeId) : undefined,
    filter.withCancelled ? undefined : sql`${class_occurrences.cancelled_at} is null`,
  ];
  const rows = await t.db
    .select(classView)
    .from(class_occurrences)
    .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
    .innerJoin(trainer, eq(trainer.id, class_occurrences.trainer_id))
    .innerJoin(gyms, eq(gyms.id, class_occurrences.gym_id))
    .where(t.where(class_occurrences, ...where))
    .orderBy(asc(class_occurrences.starts_at), asc(class_occurrences.id));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [counts, mine] = await Promise.all([
    t.db
      .select({
        occurrence_id: class_bookings.occurrence_id,
        booked: sql<number>`count(*) filter (where ${class_bookings.status} in ('booked', 'attended'))`.mapWith(Number),
        waitlisted: sql<number>`count(*) filter (where ${class_bookings.status} = 'waitlisted')`.mapWith(Number),
      })
      .from(class_bookings)
      .where(t.where(class_bookings, inArray(class_bookings.occurrence_id, ids), inArray(class_bookings.status, ["booked", "attended", "waitlisted"])))
      .groupBy(class_bookings.occurrence_id),
    userId
      ? t.db
          .select({
            id: class_bookings.id,
            occurrence_id: class_bookings.occurrence_id,
            status: class_bookings.status,
            drop_in_amount: class_bookings.drop_in_amount,
            // A drop-in's payment: pending while its card is charged, sent once paid, failed when declined.
            payment_status: sql<string | null>`(select p.status from payments p where p.id = ${class_bookings.payment_id})`,
          })
          .from(class_bookings)
          .where(t.where(class_bookings, inArray(class_bookings.occurrence_id, ids), eq(class_bookings.user_id, userId), sql`${class_bookings.status} not in ('cancelled', 'late_cancelled')`))
      : Promise.resolve([]),
  ]);
  const countOf = new Map(counts.map((c) => [c.occurrence_id, c]));
  const mineOf = new Map(mine.map((m) => [m.occurrence_id, m]));
  return rows.map((r) => {
    const c = countOf.get(r.id);
    const booked = c?.booked ?? 0;
    const waitlisted = c?.waitlisted ?? 0;
    const own = mineOf.get(r.id);
    return {
      ...r,
      booked,
      waitlisted,
      places_left: Math.max(0, r.capacity - booked),
      waitlist_left: Math.max(0, r.waitlist_size - waitlisted),
      my_booking: own ? { id: own.id, status: own.status, drop_in_amount: own.drop_in_amount, payment_status: own.payment_status } : null,
    };
  });
}

export type ListedClass = Awaited<ReturnType<typeof classesBetween>>[number];

/** One class as listed, or null. */
export async function classById(t: Tenant, id: number, userId?: number): Promise<ListedClass | null> {
  const [row] = await t.db.select({ starts_at: class_occurrences.starts_at, ends_at: class_occurrences.ends_at }).from(class_occurrences).where(t.where(class_occurrences, eq(class_occurrences.id, id)));
  if (!row) return null;
  const found = await classesBetween(t, row.starts_at, row.ends_at, { withCancelled: true }, userId);
  return found.find((c) => c.id === id) ?? null;
}
