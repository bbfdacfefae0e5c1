import { eq } from "drizzle-orm";
import type { Db } from "../../server/core/db/client";
import { class_occurrences, class_schedules } from "../../server/core/db/schema";
import { withTenant } from "../../server/core/db/tenant";
import { writeOccurrences } from "../../server/classes/occurrences";

/**
 * A class schedule written straight to the database, with its classes (occurrences) as the timetable writes them:
 * the classes suites' fixture. Weekly unless `rrule` is null (once). Answers the classes' ids, earliest first.
 */
export async function scheduleClasses(
  db: Db,
  organisationId: number,
  today: string,
  values: { gym: number; type: number; trainer: number; capacity: number; waitlist: number; starts_on: string; start_time: string; rrule?: string | null },
) {
  return withTenant(
    db,
    organisationId,
    null,
    async (t) => {
      const [s] = await t.db
        .insert(class_schedules)
        .values(
          t.owned({
            gym_id: values.gym,
            class_type_id: values.type,
            trainer_id: values.trainer,
            capacity: values.capacity,
            waitlist_size: values.waitlist,
            rrule: values.rrule === undefined ? "FREQ=WEEKLY" : values.rrule,
            starts_on: values.starts_on,
            start_time: values.start_time,
            duration_minutes: 45,
            created_by: values.trainer,
          }),
        )
        .returning();
      await writeOccurrences(t, s, values.starts_on, today);
      const rows = await t.db
        .select({ id: class_occurrences.id })
        .from(class_occurrences)
        .where(t.where(class_occurrences, eq(class_occurrences.schedule_id, s.id)))
        .orderBy(class_occurrences.starts_at);
      return rows.map((r) => r.id);
    },
    { atomic: true },
  );
}
