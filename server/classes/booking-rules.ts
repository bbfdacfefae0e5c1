import { eq, gt, inArray, or, sql } from "drizzle-orm";
import { accessAt, type AccessDecision } from "../../domain/access";
import { formatDateTime } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import { class_bookings, class_occurrences, class_type_inclusions, organisation_users, organisations, prices, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * Who may book which class (issue 34, decision 0065), asked before server/classes/places.ts takes a place. The same
 * rules for a member booking themselves and for staff adding them to a roster:
 * - the member's current membership (organisation_users.latest_subscription_id) lets them in now, by the door's own
 *   rule (domain/access.ts);
 * - it includes the class's type (class_type_inclusions: its offering, or its price). Drop-ins (a class type's
 *   drop_in_amount) are refused with their price and "ask at the desk" until a drop-in is charged through the payment
 *   machinery (decision 0065, "Booking");
 * - the class is at their gym (the membership's, else their home gym), neither cancelled nor started, and within the
 *   organisation's booking window;
 * - they hold fewer than the organisation's most upcoming bookings (waitlist places count).
 * Cancelling less than the cut-off before the start is allowed but late (the booking is marked late_cancelled).
 */
export interface MemberFacts {
  userId: number;
  gymId: number | null;
  access: AccessDecision;
  /** Class types the membership includes. */
  included: Set<number>;
  upcoming: number;
  rules: { windowDays: number; cutoffMinutes: number; maxBookings: number };
}

/** The class as the rules need it (a listed class or a row). */
export interface ClassFacts {
  gym_id: number;
  starts_at: Date;
  cancelled_at: Date | null;
  class_type: { id: number; name: string; drop_in_amount: number | null };
}

export type Verdict = { allowed: true; reason: null } | { allowed: false; reason: string };

const DAY = 86_400_000;
const no = (reason: string): Verdict => ({ allowed: false, reason });

/** The organisation's rules, the member's membership and what it includes, and how many upcoming bookings they hold. */
export async function memberFacts(t: Tenant, userId: number, now: Date): Promise<MemberFacts> {
  const [row] = await t.db
    .select({ home: organisation_users.home_gym_id, s: subscriptions, offering_id: prices.offering_id })
    .from(organisation_users)
    .leftJoin(subscriptions, eq(subscriptions.id, organisation_users.latest_subscription_id))
    .leftJoin(prices, eq(prices.id, subscriptions.price_id))
    .where(
      t.where(organisation_users, eq(organisation_users.user_id, userId), eq(organisation_users.role, "member"), sql`${organisation_users.deleted_at} is null`),
    );
  const [org] = await t.db
    .select({
      windowDays: organisations.class_booking_window_days,
      cutoffMinutes: organisations.class_cancel_cutoff_minutes,
      maxBookings: organisations.class_max_bookings,
    })
    .from(organisations)
    .where(eq(organisations.id, t.organisationId));
  const s = row?.s ?? null;
  const included = s
    ? await t.db
        .select({ id: class_type_inclusions.class_type_id })
        .from(class_type_inclusions)
        .where(
          t.where(
            class_type_inclusions,
            or(eq(class_type_inclusions.price_id, s.price_id), row?.offering_id ? eq(class_type_inclusions.offering_id, row.offering_id) : undefined),
          ),
        )
    : [];
  const [{ upcoming }] = await t.db
    .select({ upcoming: sql<number>`count(*)`.mapWith(Number) })
    .from(class_bookings)
    .innerJoin(class_occurrences, eq(class_occurrences.id, class_bookings.occurrence_id))
    .where(
      t.where(
        class_bookings,
        eq(class_bookings.user_id, userId),
        inArray(class_bookings.status, ["booked", "waitlisted"]),
        gt(class_occurrences.starts_at, now),
        sql`${class_occurrences.cancelled_at} is null`,
      ),
    );
  return {
    userId,
    gymId: s?.gym_id ?? row?.home ?? null,
    access: row ? accessAt(s, now) : { allowed: false, reason: "Not a member here." },
    included: new Set(included.map((i) => i.id)),
    upcoming,
    rules: org,
  };
}

/** When booking a class opens: the window's days before its start. */
export const bookingOpensAt = (cls: Pick<ClassFacts, "starts_at">, windowDays: number) => new Date(cls.starts_at.getTime() - windowDays * DAY);

/** Whether the member may take a place (or a waitlist place) in the class now, and why not. */
export function mayBook(m: MemberFacts, cls: ClassFacts, now: Date): Verdict {
  if (cls.cancelled_at) return no("This class was cancelled.");
  if (cls.starts_at <= now) return no("This class has already started.");
  if (m.gymId !== cls.gym_id) return no("This class is not at your gym.");
  if (!m.access.allowed) return no(`Your membership does not let you in now: ${m.access.reason.replace(/\.$/, "").toLowerCase()}.`);
  if (!m.included.has(cls.class_type.id))
    return no(
      cls.class_type.drop_in_amount
        ? `Your membership does not include ${cls.class_type.name}. Drop-ins (${formatCents(cls.class_type.drop_in_amount)}) are not booked here: ask at the desk.`
        : `Your membership does not include ${cls.class_type.name}.`,
    );
  const opens = bookingOpensAt(cls, m.rules.windowDays);
  if (opens > now) return no(`Booking opens ${formatDateTime(opens)}.`);
  if (m.upcoming >= m.rules.maxBookings) return no(`You already hold ${m.upcoming} upcoming bookings, the most at once. Cancel one to book another.`);
  return { allowed: true, reason: null };
}

/** Whether giving up a place now is a late cancellation (inside the cut-off before the start). */
export const isLate = (cls: Pick<ClassFacts, "starts_at">, cutoffMinutes: number, now: Date) =>
  cls.starts_at.getTime() - now.getTime() < cutoffMinutes * 60_000;

/** The member's cancellation: refused once the class has started; late inside the cut-off. */
export function mayCancel(cls: Pick<ClassFacts, "starts_at" | "cancelled_at">, cutoffMinutes: number, now: Date): Verdict & { late: boolean } {
  if (cls.cancelled_at) return { allowed: false, reason: "This class was cancelled.", late: false };
  if (cls.starts_at <= now) return { allowed: false, reason: "This class has already started.", late: false };
  return { allowed: true, reason: null, late: isLate(cls, cutoffMinutes, now) };
}
