import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { addCalendarDays, localDay } from "../../domain/dates";
import type { Db } from "../core/db/client";
import { class_occurrences, class_schedules } from "../core/db/schema";
import { withTenant, type Tenant } from "../core/db/tenant";
import { occurrenceDays, occurrenceTimes } from "../calendar/recurrence";

/**
 * A class schedule's occurrences as rows (issue 34, decision 0065). Members book places in a class, so each class
 * on each day is a row bookings can point at and lock; a weekly class is written ahead to HORIZON_DAYS from today
 * and the `class-timetable` job carries every live schedule forward daily. Rows are keyed by (schedule, day): writing
 * again never doubles one, and a class moved or cancelled on its own keeps its row.
 */
export const HORIZON_DAYS = 56;

type ScheduleRow = typeof class_schedules.$inferSelect;

/** The days a schedule puts a class on, from `fromDay` to `toDay` (inclusive): its rule's, or its one day. */
export function scheduleDays(s: Pick<ScheduleRow, "rrule" | "starts_on" | "ends_on">, fromDay: string, toDay: string): string[] {
  const to = s.ends_on && s.ends_on < toDay ? s.ends_on : toDay;
  if (!s.rrule) return s.starts_on >= fromDay && s.starts_on <= to ? [s.starts_on] : [];
  return occurrenceDays(s.rrule, s.starts_on, fromDay > s.starts_on ? fromDay : s.starts_on, to);
}

/**
 * Writes the schedule's classes from `fromDay` up to the horizon (or its end), leaving rows that exist alone, and
 * records how far it has written. Returns how many rows were new.
 */
export async function writeOccurrences(t: Tenant, s: ScheduleRow, fromDay: string, today: string): Promise<number> {
  if (s.cancelled_at) return 0;
  const until = addCalendarDays(today, HORIZON_DAYS);
  const start = s.generated_until && s.generated_until >= fromDay ? addCalendarDays(s.generated_until, 1) : fromDay;
  const days = scheduleDays(s, start, until);
  let made = 0;
  if (days.length) {
    const rows = days.map((day) => {
      const { starts_at, ends_at } = occurrenceTimes(day, s.start_time, s.duration_minutes);
      return t.owned({
        gym_id: s.gym_id,
        class_type_id: s.class_type_id,
        schedule_id: s.id,
        occurrence_day: day,
        starts_at,
        ends_at,
        trainer_id: s.trainer_id,
        room: s.room,
        capacity: s.capacity,
        waitlist_size: s.waitlist_size,
      });
    });
    const inserted = await t.db.insert(class_occurrences).values(rows).onConflictDoNothing().returning({ id: class_occurrences.id });
    made = inserted.length;
  }
  await t.db
    .update(class_schedules)
    .set({ generated_until: s.ends_on && s.ends_on < until ? s.ends_on : until })
    .where(t.where(class_schedules, eq(class_schedules.id, s.id)));
  return made;
}

/**
 * The daily carry-forward: every live weekly schedule of every organisation whose rows stop short of the horizon.
 * Each organisation's schedules are written in its own transaction, behind its own row-level security.
 */
export async function carryTimetablesForward(db: Db, now: Date): Promise<{ organisations: number; occurrences: number }> {
  const today = localDay(now);
  const until = addCalendarDays(today, HORIZON_DAYS);
  const due = await db
    .selectDistinct({ organisation_id: class_schedules.organisation_id })
    .from(class_schedules)
    .where(
      and(
        isNull(class_schedules.cancelled_at),
        sql`${class_schedules.rrule} is not null`,
        or(isNull(class_schedules.ends_on), sql`${class_schedules.ends_on} > coalesce(${class_schedules.generated_until}, ${class_schedules.starts_on} - 1)`),
        or(isNull(class_schedules.generated_until), lt(class_schedules.generated_until, until)),
      ),
    );
  let occurrences = 0;
  for (const { organisation_id } of due) {
    occurrences += await withTenant(
      db,
      organisation_id,
      null,
      async (t) => {
        const schedules = await t.db
          .select()
          .from(class_schedules)
          .where(t.where(class_schedules, isNull(class_schedules.cancelled_at), sql`${class_schedules.rrule} is not null`, or(isNull(class_schedules.generated_until), lt(class_schedules.generated_until, until))));
        let n = 0;
        for (const s of schedules) n += await writeOccurrences(t, s, today, today);
        return n;
      },
      { atomic: true },
    );
  }
  return { organisations: due.length, occurrences };
}
