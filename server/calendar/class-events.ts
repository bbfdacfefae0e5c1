import { and, eq, gt, inArray, isNull, lt } from "drizzle-orm";
import { class_bookings, class_occurrences, class_types, gyms } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * A member's classes in their private calendar feed (issue 34, ./feed.ts; here, not in server/classes, which already reads this folder): each class they hold a place
 * in or wait for, in [from, to). A class cancelled, or a booking given up, drops out (the phone removes the event).
 */
export async function bookedClassEvents(t: Tenant, userId: number, from: Date, to: Date) {
  return t.db
    .select({
      booking_id: class_bookings.id,
      status: class_bookings.status,
      occurrence_id: class_occurrences.id,
      starts_at: class_occurrences.starts_at,
      ends_at: class_occurrences.ends_at,
      room: class_occurrences.room,
      name: class_types.name,
      gym: gyms.name,
    })
    .from(class_bookings)
    .innerJoin(class_occurrences, eq(class_occurrences.id, class_bookings.occurrence_id))
    .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
    .innerJoin(gyms, eq(gyms.id, class_occurrences.gym_id))
    .where(
      t.where(
        class_bookings,
        and(
          eq(class_bookings.user_id, userId),
          inArray(class_bookings.status, ["booked", "attended", "waitlisted"]),
          lt(class_occurrences.starts_at, to),
          gt(class_occurrences.ends_at, from),
        ),
      ),
    );
}

/**
 * The classes a trainer teaches in [from, to), for their feed beside their sessions. A cancelled class drops out, as a
 * cancelled appointment does (the phone removes the event); one handed to another trainer moves to their feed.
 */
export async function taughtClassEvents(t: Tenant, trainerId: number, from: Date, to: Date) {
  return t.db
    .select({
      occurrence_id: class_occurrences.id,
      starts_at: class_occurrences.starts_at,
      ends_at: class_occurrences.ends_at,
      room: class_occurrences.room,
      name: class_types.name,
      gym: gyms.name,
    })
    .from(class_occurrences)
    .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
    .innerJoin(gyms, eq(gyms.id, class_occurrences.gym_id))
    .where(
      t.where(
        class_occurrences,
        and(
          eq(class_occurrences.trainer_id, trainerId),
          isNull(class_occurrences.cancelled_at),
          lt(class_occurrences.starts_at, to),
          gt(class_occurrences.ends_at, from),
        ),
      ),
    );
}
