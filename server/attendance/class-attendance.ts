import { and, asc, eq, gt, inArray, isNull, lte } from "drizzle-orm";
import type { Db } from "../core/db/client";
import { class_bookings, class_occurrences, class_types } from "../core/db/schema";
import { withTenant, type Tenant } from "../core/db/tenant";

/**
 * Attendance (issue 34, decision 0065 "Attendance"), a folder of its own so the door and the desk, which record
 * visits, need not reach into the classes (whose drop-ins reach billing, which reaches the doors). A member who is
 * let in at a gym — at the front desk, the kiosk or a door — during a class's window there (from
 * ARRIVE_BEFORE_MINUTES before it starts until it ends) has come to it: their booking becomes `attended`, pointing at
 * the visit. When the class has ended, those still only `booked` never came: the `class-attendance` job marks them
 * `no_show` and closes the class's attendance.
 *
 * Neither changes who holds a place (booked and attended both hold one, server/classes/places.ts), so no lock is
 * taken: each is one conditional UPDATE on `status = 'booked'`, and the window (before the end) and the job (after
 * it) never both apply to one booking.
 */
export const ARRIVE_BEFORE_MINUTES = 30;

/** The member's booked classes at `gymId` whose window holds `at`, marked attended by `visitId`. Answers them. */
export async function markAttended(t: Tenant, p: { userId: number; gymId: number; visitId: number; at: Date }) {
  const windowOpen = new Date(p.at.getTime() + ARRIVE_BEFORE_MINUTES * 60_000);
  const inWindow = t.db
    .select({ id: class_occurrences.id })
    .from(class_occurrences)
    .where(
      t.where(
        class_occurrences,
        eq(class_occurrences.gym_id, p.gymId),
        lte(class_occurrences.starts_at, windowOpen),
        gt(class_occurrences.ends_at, p.at),
        isNull(class_occurrences.cancelled_at),
      ),
    );
  return t.db
    .update(class_bookings)
    .set({ status: "attended", attended_at: p.at, visit_id: p.visitId, updated_at: p.at })
    .where(t.where(class_bookings, eq(class_bookings.user_id, p.userId), eq(class_bookings.status, "booked"), inArray(class_bookings.occurrence_id, inWindow)))
    .returning({ id: class_bookings.id, occurrence_id: class_bookings.occurrence_id });
}

/** The classes a visit marked attended, as the check-in's result names them. */
export async function classesAttendedBy(t: Tenant, visitId: number) {
  return t.db
    .select({
      booking_id: class_bookings.id,
      class_id: class_occurrences.id,
      name: class_types.name,
      starts_at: class_occurrences.starts_at,
      ends_at: class_occurrences.ends_at,
    })
    .from(class_bookings)
    .innerJoin(class_occurrences, eq(class_occurrences.id, class_bookings.occurrence_id))
    .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
    .where(t.where(class_bookings, eq(class_bookings.visit_id, visitId), eq(class_bookings.status, "attended")))
    .orderBy(asc(class_occurrences.starts_at));
}

/**
 * One organisation's ended classes: those booked who never came are no-shows, and the class's attendance is closed
 * (so the job never looks at it again). Cancelled classes have no attendance to close. Answers what changed.
 */
export async function closeAttendance(t: Tenant, now: Date) {
  const ended = await t.db
    .update(class_occurrences)
    .set({ attendance_closed_at: now, updated_at: now })
    .where(
      t.where(class_occurrences, lte(class_occurrences.ends_at, now), isNull(class_occurrences.attendance_closed_at), isNull(class_occurrences.cancelled_at)),
    )
    .returning({ id: class_occurrences.id });
  if (!ended.length) return { classes: 0, no_shows: 0 };
  const missed = await t.db
    .update(class_bookings)
    .set({ status: "no_show", updated_at: now })
    .where(
      t.where(
        class_bookings,
        eq(class_bookings.status, "booked"),
        inArray(
          class_bookings.occurrence_id,
          ended.map((e) => e.id),
        ),
      ),
    )
    .returning({ id: class_bookings.id });
  return { classes: ended.length, no_shows: missed.length };
}

/** The `class-attendance` job: every organisation with an ended class whose attendance is open, each on its own. */
export async function closeEndedClasses(db: Db, now: Date) {
  const due = await db
    .selectDistinct({ organisation_id: class_occurrences.organisation_id })
    .from(class_occurrences)
    .where(and(lte(class_occurrences.ends_at, now), isNull(class_occurrences.attendance_closed_at), isNull(class_occurrences.cancelled_at)));
  let classes = 0;
  let noShows = 0;
  for (const { organisation_id } of due) {
    const done = await withTenant(db, organisation_id, null, (t) => closeAttendance(t, now), { atomic: true });
    classes += done.classes;
    noShows += done.no_shows;
  }
  return { organisations: due.length, classes, no_shows: noShows };
}
