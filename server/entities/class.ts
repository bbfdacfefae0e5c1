import type { Tenant } from "../core/db/tenant";
import { classById, type ListedClass } from "../classes/listing";

/**
 * A class (one occurrence on a gym's timetable, issue 34) as the API and the `class.cancelled` webhook give it: its
 * times, type, trainer and gym, places and waitlist with how many are left, and whether (and why) it was cancelled.
 */
export function classEntity(c: ListedClass) {
  return {
    id: c.id,
    gym: { id: c.gym_id, name: c.gym },
    schedule_id: c.schedule_id,
    day: c.occurrence_day,
    starts_at: c.starts_at.toISOString(),
    ends_at: c.ends_at.toISOString(),
    class_type: { id: c.class_type.id, name: c.class_type.name, colour: c.class_type.colour },
    trainer: { id: c.trainer.id, name: c.trainer.name },
    room: c.room,
    capacity: c.capacity,
    waitlist_size: c.waitlist_size,
    booked: c.booked,
    waitlisted: c.waitlisted,
    places_left: c.places_left,
    waitlist_left: c.waitlist_left,
    cancelled_at: c.cancelled_at ? c.cancelled_at.toISOString() : null,
    cancel_reason: c.cancel_reason,
  };
}
export type ClassEntity = ReturnType<typeof classEntity>;

/** One class of this organisation, or null. */
export async function classEntityById(t: Tenant, id: number): Promise<ClassEntity | null> {
  const c = await classById(t, id);
  return c && classEntity(c);
}
