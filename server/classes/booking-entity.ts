import { eq } from "drizzle-orm";
import { class_bookings, class_occurrences, class_types, gyms, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * A class booking (issue 34) as the API answers it (every booking route) and the `booking.created` /
 * `booking.cancelled` webhooks send it: its status
 * and when each step happened, who it is for, how it was made, and the class it is in (enough to show it without
 * asking again).
 */
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function classBookingEntity(t: Tenant, id: number) {
  const [r] = await t.db
    .select({
      b: class_bookings,
      user_name: users.name,
      user_email: users.email,
      starts_at: class_occurrences.starts_at,
      ends_at: class_occurrences.ends_at,
      gym_id: class_occurrences.gym_id,
      gym_name: gyms.name,
      type_id: class_types.id,
      type_name: class_types.name,
      class_cancelled_at: class_occurrences.cancelled_at,
    })
    .from(class_bookings)
    .innerJoin(users, eq(users.id, class_bookings.user_id))
    .innerJoin(class_occurrences, eq(class_occurrences.id, class_bookings.occurrence_id))
    .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
    .innerJoin(gyms, eq(gyms.id, class_occurrences.gym_id))
    .where(t.where(class_bookings, eq(class_bookings.id, id)));
  if (!r) return null;
  const b = r.b;
  return {
    id: b.id,
    status: b.status,
    source: b.source,
    user: { id: b.user_id, name: r.user_name, email: r.user_email },
    class: {
      id: b.occurrence_id,
      class_type: { id: r.type_id, name: r.type_name },
      gym: { id: r.gym_id, name: r.gym_name },
      starts_at: r.starts_at.toISOString(),
      ends_at: r.ends_at.toISOString(),
      cancelled_at: iso(r.class_cancelled_at),
    },
    waitlisted_at: iso(b.waitlisted_at),
    booked_at: iso(b.booked_at),
    cancelled_at: iso(b.cancelled_at),
    attended_at: iso(b.attended_at),
    visit_id: b.visit_id,
    /** A drop-in's price when booked (null: the membership covers it) and its payment (charged once a place is held). */
    drop_in_amount: b.drop_in_amount,
    payment_id: b.payment_id,
    created_at: b.created_at.toISOString(),
  };
}
export type ClassBookingEntity = NonNullable<Awaited<ReturnType<typeof classBookingEntity>>>;
