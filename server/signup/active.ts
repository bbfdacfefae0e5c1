import { asc, desc, eq } from "drizzle-orm";
import { accessAt } from "../../domain/access";
import { FREQUENCY_LABELS, termShorthand, type BillingFrequency, type TermUnit } from "../../domain/billing";
import { localDay } from "../../domain/dates";
import { paymentOutcome } from "../../domain/payment";
import { subscriptionState } from "../../domain/subscription";
import { surchargeFor, type PaymentTypeKind } from "../../domain/surcharge";
import { gyms, offerings, payment_types, payments, prices, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { memberDoor } from "../doors/member-door";

/**
 * GET /api/me/active-subscription: the member's latest membership here as the sign-up's last pages show it: what
 * they joined, its state, the first payment and how it went, the next charge, and whether the door lets them in.
 * Null when they have none yet.
 */
export async function activeSubscription(t: Tenant, userId: number, now: Date) {
  const [row] = await t.db
    .select({ s: subscriptions, price: prices, offering: { id: offerings.id, name: offerings.name }, gym: { id: gyms.id, name: gyms.name, basisPoints: gyms.card_surcharge_basis_points, fixed: gyms.card_surcharge_fixed } })
    .from(subscriptions)
    .innerJoin(prices, eq(prices.id, subscriptions.price_id))
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .innerJoin(gyms, eq(gyms.id, subscriptions.gym_id))
    .where(t.where(subscriptions, eq(subscriptions.user_id, userId)))
    .orderBy(desc(subscriptions.id))
    .limit(1);
  if (!row) return null;
  const { s, price } = row;
  const [first] = await t.db
    .select({ p: payments, kind: payment_types.type, details: payment_types.details })
    .from(payments)
    .leftJoin(payment_types, eq(payment_types.id, payments.payment_type_id))
    .where(eq(payments.subscription_id, s.id))
    .orderBy(asc(payments.id))
    .limit(1);
  const frequency = price.billing_frequency as BillingFrequency;
  const kind = (first?.kind ?? null) as PaymentTypeKind | null;
  const state = subscriptionState(s, now);
  const recurring = frequency !== "one_off";
  const nextAmount = recurring ? price.amount + (kind ? surchargeFor(price.amount, kind, row.gym) : 0) : null;
  const access = await memberDoor(t, userId, s.gym_id, accessAt(s, now));
  const day = (d: Date | null) => (d ? localDay(d) : null);
  return {
    id: s.id,
    state,
    /** The first payment was declined: the member is not in, and may connect another method and confirm again. */
    failed: s.upcoming_state === "failed",
    gym: { id: row.gym.id, name: row.gym.name },
    offering: row.offering,
    price: {
      id: price.id,
      amount: price.amount,
      billing_frequency: frequency,
      frequency_label: FREQUENCY_LABELS[frequency],
      term: termShorthand({ billing_frequency: frequency, term_amount: price.term_amount, term_unit: price.term_unit as TermUnit | null }),
    },
    start_date: day(s.current_period_start),
    term_ends: day(s.term_ends_at),
    cooling_off_ends: day(s.cooling_period_ends_at),
    pif_ends: day(s.pif_ends_at),
    first_payment: first
      ? {
          id: first.p.id,
          amount: first.p.amount,
          surcharge: first.p.surcharge,
          total: first.p.amount + first.p.surcharge,
          joining_fee: Number((first.p.meta as { joining_fee?: number } | null)?.joining_fee ?? 0),
          is_pro_rata: first.p.is_pro_rata,
          status: first.p.status,
          outcome: paymentOutcome(first.p.status),
          error: first.p.error_description,
          charge_date: first.p.expected_charge_date,
          method: kind,
          last_four: first.details?.last_four == null ? null : String(first.details.last_four),
        }
      : null,
    next_charge: recurring && s.current_period_end && !s.cancelled_at ? { date: localDay(s.current_period_end), amount: nextAmount } : null,
    access,
  };
}
