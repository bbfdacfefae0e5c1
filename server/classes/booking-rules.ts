import { eq, gt, inArray, or, sql } from "drizzle-orm";
import { accessAt, type AccessDecision } from "../../domain/access";
import { formatDateTime } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import { class_bookings, class_occurrences, class_type_inclusions, organisation_users, organisations, payment_types, prices, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * Who may book which class (issue 34, decision 0065), asked before server/classes/places.ts takes a place. The same
 * rules for a member booking themselves and for staff adding them to a roster:
 * - the member's current membership (organisation_users.latest_subscription_id) lets them in now, by the door's own
 *   rule (domain/access.ts);
 * - it includes the class's type (class_type_inclusions: its offering, or its price);
 * - or else the class type has a drop-in price (class_types.drop_in_amount): a member whose membership does not let
 *   them in, or does not include the type, may drop in, paid by their card (./drop-ins.ts) or at the desk when staff
 *   book them, unless a membership payment is owing;
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
  /** Their way to pay when it is a card (a drop-in is charged to it), else null. */
  card: { paymentTypeId: number; lastFour: string | null } | null;
  /** A membership payment failed and is not paid yet: no drop-ins until it is. */
  owing: boolean;
}

/** The class as the rules need it (a listed class or a row). */
export interface ClassFacts {
  gym_id: number;
  starts_at: Date;
  cancelled_at: Date | null;
  class_type: { id: number; name: string; drop_in_amount: number | null };
}

/** Allowed: `dropIn` is the price to pay when the membership does not cover the class (null when it does). */
export type Verdict = { allowed: true; reason: null; dropIn: number | null } | { allowed: false; reason: string };

const DAY = 86_400_000;
const no = (reason: string): Verdict => ({ allowed: false, reason });

/** The organisation's rules, the member's membership and what it includes, and how many upcoming bookings they hold. */
export async function memberFacts(t: Tenant, userId: number, now: Date): Promise<MemberFacts> {
  const [row] = await t.db
    .select({
      home: organisation_users.home_gym_id,
      s: subscriptions,
      offering_id: prices.offering_id,
      card: { id: payment_types.id, type: payment_types.type, details: payment_types.details },
    })
    .from(organisation_users)
    .leftJoin(payment_types, eq(payment_types.id, organisation_users.default_payment_type_id))
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
    card: row?.card?.type === "stripe_card" ? { paymentTypeId: row.card.id, lastFour: String(row.card.details?.last_four ?? "") || null } : null,
    owing: Boolean(s && (s.grace_period_ends_at || s.upcoming_state === "failed")),
  };
}

/** When booking a class opens: the window's days before its start. */
export const bookingOpensAt = (cls: Pick<ClassFacts, "starts_at">, windowDays: number) => new Date(cls.starts_at.getTime() - windowDays * DAY);

/** How a drop-in would be paid: the member's card, or at the desk (staff booking them take the money there). */
export type DropInPayment = "card" | "desk";

/** Whether the member may take a place (or a waitlist place) in the class now, and why not; a drop-in's price when they pay for it. */
export function mayBook(m: MemberFacts, cls: ClassFacts, now: Date, paying: DropInPayment = "card"): Verdict {
  if (cls.cancelled_at) return no("This class was cancelled.");
  if (cls.starts_at <= now) return no("This class has already started.");
  if (m.gymId !== cls.gym_id) return no("This class is not at your gym.");
  const price = cls.class_type.drop_in_amount;
  const included = m.included.has(cls.class_type.id);
  const covered = included && m.access.allowed;
  if (!covered && !price) {
    if (!m.access.allowed) return no(`Your membership does not let you in now: ${m.access.reason.replace(/\.$/, "").toLowerCase()}.`);
    return no(`Your membership does not include ${cls.class_type.name}.`);
  }
  if (!covered && m.owing) return no(`A membership payment is owing: pay it before dropping in to ${cls.class_type.name} (${formatCents(price!)}).`);
  if (!covered && paying === "card" && !m.card)
    return no(`Drop-ins to ${cls.class_type.name} (${formatCents(price!)}) are paid by card: add a card in your payment details first.`);
  const opens = bookingOpensAt(cls, m.rules.windowDays);
  if (opens > now) return no(`Booking opens ${formatDateTime(opens)}.`);
  if (m.upcoming >= m.rules.maxBookings) return no(`You already hold ${m.upcoming} upcoming bookings, the most at once. Cancel one to book another.`);
  return { allowed: true, reason: null, dropIn: covered ? null : price };
}

/** Whether giving up a place now is a late cancellation (inside the cut-off before the start). */
export const isLate = (cls: Pick<ClassFacts, "starts_at">, cutoffMinutes: number, now: Date) =>
  cls.starts_at.getTime() - now.getTime() < cutoffMinutes * 60_000;

/** The member's cancellation: refused once the class has started; late inside the cut-off. */
export function mayCancel(cls: Pick<ClassFacts, "starts_at" | "cancelled_at">, cutoffMinutes: number, now: Date): ({ allowed: true; reason: null } | { allowed: false; reason: string }) & { late: boolean } {
  if (cls.cancelled_at) return { allowed: false, reason: "This class was cancelled.", late: false };
  if (cls.starts_at <= now) return { allowed: false, reason: "This class has already started.", late: false };
  return { allowed: true, reason: null, late: isLate(cls, cutoffMinutes, now) };
}
