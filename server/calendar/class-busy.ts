import { asc, eq, gt, gte, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { addCalendarDays, localDay } from "../../domain/dates";
import { class_occurrences, class_schedules, class_types, gyms } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { occurrenceDays, occurrenceTimes } from "./recurrence";

/**
 * A trainer's group classes overlapping [from, to) (issue 34), for clash checks on both sides: an appointment or
 * recurring session may not overlap a class the trainer runs, nor a class one of those. Classes are rows written a few
 * weeks ahead (server/classes/occurrences.ts); beyond the rows a weekly class's days come from its rule. Read here,
 * below server/classes, so the calendar's own clash check can use it without a folder cycle.
 */
export interface BusyClass {
  occurrence_id: number | null;
  schedule_id: number;
  name: string;
  gym: string;
  starts_at: Date;
  ends_at: Date;
}

export async function trainerClassesBetween(
  t: Tenant,
  trainerId: number,
  from: Date,
  to: Date,
  except: { schedule_id?: number; occurrence_id?: number } = {},
): Promise<BusyClass[]> {
  const rows = await t.db
    .select({
      occurrence_id: class_occurrences.id,
      schedule_id: class_occurrences.schedule_id,
      name: class_types.name,
      gym: gyms.name,
      starts_at: class_occurrences.starts_at,
      ends_at: class_occurrences.ends_at,
    })
    .from(class_occurrences)
    .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
    .innerJoin(gyms, eq(gyms.id, class_occurrences.gym_id))
    .where(
      t.where(
        class_occurrences,
        eq(class_occurrences.trainer_id, trainerId),
        lt(class_occurrences.starts_at, to),
        gt(class_occurrences.ends_at, from),
        isNull(class_occurrences.cancelled_at),
        except.schedule_id ? ne(class_occurrences.schedule_id, except.schedule_id) : undefined,
        except.occurrence_id ? ne(class_occurrences.id, except.occurrence_id) : undefined,
      ),
    )
    .orderBy(asc(class_occurrences.starts_at));
  // Weekly classes past the days written: their rule's days after generated_until.
  const fromDay = localDay(from);
  const toDay = localDay(to);
  const ahead = await t.db
    .select({
      id: class_schedules.id,
      rrule: class_schedules.rrule,
      starts_on: class_schedules.starts_on,
      ends_on: class_schedules.ends_on,
      generated_until: class_schedules.generated_until,
      start_time: class_schedules.start_time,
      duration_minutes: class_schedules.duration_minutes,
      name: class_types.name,
      gym: gyms.name,
    })
    .from(class_schedules)
    .innerJoin(class_types, eq(class_types.id, class_schedules.class_type_id))
    .innerJoin(gyms, eq(gyms.id, class_schedules.gym_id))
    .where(
      t.where(
        class_schedules,
        eq(class_schedules.trainer_id, trainerId),
        isNull(class_schedules.cancelled_at),
        sql`${class_schedules.rrule} is not null`,
        lte(class_schedules.starts_on, toDay),
        or(isNull(class_schedules.ends_on), gte(class_schedules.ends_on, fromDay)),
        or(isNull(class_schedules.generated_until), lt(class_schedules.generated_until, toDay)),
        except.schedule_id ? ne(class_schedules.id, except.schedule_id) : undefined,
      ),
    );
  const out: BusyClass[] = [...rows];
  for (const s of ahead) {
    const start = s.generated_until ? addCalendarDays(s.generated_until, 1) : s.starts_on;
    const first = start > fromDay ? start : fromDay;
    const last = s.ends_on && s.ends_on < toDay ? s.ends_on : toDay;
    for (const day of occurrenceDays(s.rrule!, s.starts_on, first, last)) {
      const { starts_at, ends_at } = occurrenceTimes(day, s.start_time, s.duration_minutes);
      if (starts_at < to && ends_at > from) out.push({ occurrence_id: null, schedule_id: s.id, name: s.name, gym: s.gym, starts_at, ends_at });
    }
  }
  return out.sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime());
}
