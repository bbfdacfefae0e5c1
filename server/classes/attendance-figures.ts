import { asc, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import { addCalendarDays, localWeekStart, startOfLocalDay } from "../../domain/dates";
import { class_bookings, class_occurrences, class_types, gyms } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * What attendance adds up to (issue 34): a member's classes for their page (how many attended, missed and cancelled
 * late; what is booked next; the last few), and the dashboard's class occupancy per week.
 */

const LISTED = 8;

const classOf = {
  booking_id: class_bookings.id,
  status: class_bookings.status,
  class_id: class_occurrences.id,
  name: class_types.name,
  colour: class_types.colour,
  gym: gyms.name,
  starts_at: class_occurrences.starts_at,
  ends_at: class_occurrences.ends_at,
  cancelled_at: class_occurrences.cancelled_at,
};

/** GET /api/members/{id}/classes: the member's totals, their next classes (booked or waiting) and their last ones. */
export async function memberClasses(t: Tenant, userId: number, now: Date) {
  const mine = (...more: SQL[]) => t.where(class_bookings, eq(class_bookings.user_id, userId), ...more);
  const joined = () =>
    t.db
      .select(classOf)
      .from(class_bookings)
      .innerJoin(class_occurrences, eq(class_occurrences.id, class_bookings.occurrence_id))
      .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
      .innerJoin(gyms, eq(gyms.id, class_occurrences.gym_id));
  const [totals, upcoming, recent] = await Promise.all([
    t.db
      .select({ status: class_bookings.status, n: sql<number>`count(*)`.mapWith(Number) })
      .from(class_bookings)
      .where(mine())
      .groupBy(class_bookings.status),
    joined()
      .where(mine(gt(class_occurrences.ends_at, now), inArray(class_bookings.status, ["booked", "waitlisted", "attended"])))
      .orderBy(asc(class_occurrences.starts_at))
      .limit(LISTED),
    joined()
      .where(mine(lte(class_occurrences.ends_at, now), inArray(class_bookings.status, ["attended", "no_show", "late_cancelled"])))
      .orderBy(desc(class_occurrences.starts_at))
      .limit(LISTED),
  ]);
  const count = (status: string) => totals.find((x) => x.status === status)?.n ?? 0;
  const out = (rows: typeof upcoming) =>
    rows.map((r) => ({ ...r, starts_at: r.starts_at.toISOString(), ends_at: r.ends_at.toISOString(), cancelled_at: r.cancelled_at?.toISOString() ?? null }));
  return {
    attended: count("attended"),
    no_shows: count("no_show"),
    late_cancelled: count("late_cancelled"),
    upcoming: out(upcoming),
    recent: out(recent),
  };
}

/**
 * The dashboard's class occupancy: for each of the last `weeks` Auckland weeks (this one whole, as booked so far), the
 * classes run at the current gym (every gym without one), their places, the places taken (booked, attended or a
 * no-show: a place held at the start) and attended, and occupancy = taken / places in whole percent (null without
 * classes). Cancelled classes count for nothing.
 */
export async function classOccupancyByWeek(t: Tenant, now: Date, weeks: number) {
  const thisWeek = localWeekStart(now);
  const first = addCalendarDays(thisWeek, -7 * (weeks - 1));
  const from = startOfLocalDay(first);
  const to = startOfLocalDay(addCalendarDays(thisWeek, 7));
  const week = sql<string>`to_char(date_trunc('week', ${class_occurrences.starts_at} at time zone 'Pacific/Auckland'), 'YYYY-MM-DD')`;
  const taken = t.db
    .select({
      occurrence_id: class_bookings.occurrence_id,
      taken: sql<number>`count(*) filter (where ${class_bookings.status} in ('booked', 'attended', 'no_show'))`.as("taken"),
      attended: sql<number>`count(*) filter (where ${class_bookings.status} = 'attended')`.as("attended"),
    })
    .from(class_bookings)
    .innerJoin(class_occurrences, eq(class_occurrences.id, class_bookings.occurrence_id))
    .where(t.where(class_bookings, gte(class_occurrences.starts_at, from), lt(class_occurrences.starts_at, to), t.inGym(class_occurrences)))
    .groupBy(class_bookings.occurrence_id)
    .as("taken");
  const rows = await t.db
    .select({
      week_start: week,
      classes: sql<number>`count(*)`.mapWith(Number),
      places: sql<number>`sum(${class_occurrences.capacity})`.mapWith(Number),
      taken: sql<number>`coalesce(sum(${taken.taken}), 0)`.mapWith(Number),
      attended: sql<number>`coalesce(sum(${taken.attended}), 0)`.mapWith(Number),
    })
    .from(class_occurrences)
    .leftJoin(taken, eq(taken.occurrence_id, class_occurrences.id))
    .where(
      t.where(
        class_occurrences,
        gte(class_occurrences.starts_at, from),
        lt(class_occurrences.starts_at, to),
        sql`${class_occurrences.cancelled_at} is null`,
        t.inGym(class_occurrences),
      ),
    )
    .groupBy(week);
  const byWeek = new Map(rows.map((r) => [r.week_start, r]));
  return Array.from({ length: weeks }, (_, i) => {
    const week_start = addCalendarDays(first, 7 * i);
    const r = byWeek.get(week_start);
    const places = r?.places ?? 0;
    const takenPlaces = r?.taken ?? 0;
    return {
      week_start,
      classes: r?.classes ?? 0,
      places,
      taken: takenPlaces,
      attended: r?.attended ?? 0,
      occupancy: places ? Math.round((100 * takenPlaces) / places) : null,
    };
  });
}
