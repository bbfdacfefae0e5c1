import { eq } from "drizzle-orm";
import type { ClassBookingRules } from "../../domain/schemas/class-types";
import { organisations } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * The organisation's booking rules for classes (issue 34, decision 0065): how many days ahead booking opens, how many
 * minutes before a class a member may still cancel without it counting as late, and how many upcoming bookings a
 * member may hold at once. Read by server/classes/booking-rules.ts when members book.
 */
const columns = {
  class_booking_window_days: organisations.class_booking_window_days,
  class_cancel_cutoff_minutes: organisations.class_cancel_cutoff_minutes,
  class_max_bookings: organisations.class_max_bookings,
};

export async function readClassBookingRules(t: Tenant): Promise<ClassBookingRules> {
  const [rules] = await t.db.select(columns).from(organisations).where(eq(organisations.id, t.organisationId));
  return rules;
}

export async function setClassBookingRules(t: Tenant, rules: ClassBookingRules, now: Date): Promise<ClassBookingRules> {
  const [after] = await t.db
    .update(organisations)
    .set({ ...rules, updated_at: now })
    .where(eq(organisations.id, t.organisationId))
    .returning(columns);
  return after;
}
