import { statusLabel } from "../../domain/status-label";
import { and, asc, eq, isNull, ne, or, sql } from "drizzle-orm";
import { FREQUENCY_LABELS, termShorthand, type BillingFrequency, type TermUnit } from "../../domain/billing";
import { localDay } from "../../domain/dates";
import { nextCharge, pauseDaysRemaining } from "../../domain/lifecycle";
import { cancellationUndoableUntil, statusColour, subscriptionState } from "../../domain/subscription";
import { offering_gyms, offerings, prices } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import type { Membership } from "./membership";
import { owedPeriods } from "./payments";
import { pifAllowed } from "./pif";

/**
 * GET /api/subscriptions/{id}: a membership as its action pages need it (issue 12): its state and card, version,
 * pauses (which can be ended or removed), pause credit, next charge, scheduled change, cancellation, what is owed,
 * the prices it can move to, and which actions apply now (SPEC §4's rules; the user's rights come from the API).
 */
export async function membershipView(t: Tenant, m: Membership, now: Date, rights: { change: boolean; takeMoney: boolean }) {
  const today = localDay(now);
  const s = m.s;
  const state = subscriptionState(s, now);
  const frequency = m.price.billing_frequency as BillingFrequency;
  const owed = await owedPeriods(t, s.id);
  const isPif = frequency === "one_off";
  const options = isPif
    ? []
    : await t.db
        .select({ id: prices.id, amount: prices.amount, billing_frequency: prices.billing_frequency, term_amount: prices.term_amount, term_unit: prices.term_unit, offering: offerings.name })
        .from(prices)
        .innerJoin(offerings, eq(offerings.id, prices.offering_id))
        .where(
          t.where(
            prices,
            eq(prices.billing_frequency, frequency),
            ne(prices.id, s.price_id),
            isNull(prices.term_amount),
            isNull(prices.archived_at),
            isNull(offerings.archived_at),
            or(isNull(prices.gym_id), eq(prices.gym_id, s.gym_id)),
            or(
              eq(offerings.all_gyms_access, true),
              sql`exists (select 1 from ${offering_gyms} og where og.offering_id = ${offerings.id} and og.gym_id = ${s.gym_id})`,
            ),
          ),
        )
        .orderBy(asc(offerings.name), asc(prices.amount));
  const pifOptions = await t.db
    .select({ id: prices.id, amount: prices.amount, term_amount: prices.term_amount, term_unit: prices.term_unit, offering: offerings.name })
    .from(prices)
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .where(t.where(prices, and(eq(prices.billing_frequency, "one_off"), isNull(prices.archived_at), isNull(offerings.archived_at), or(isNull(prices.gym_id), eq(prices.gym_id, s.gym_id)))))
    .orderBy(asc(offerings.name), asc(prices.amount));
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const undoUntil = cancellationUndoableUntil(s, now);
  const running = !s.cancelled_at && !s.upcoming_state;
  const priceLabel = (p: { amount: number; billing_frequency: string; term_amount: number | null; term_unit: string | null; offering: string }) => ({
    id: (p as { id?: number }).id,
    offering: p.offering,
    amount: p.amount,
    frequency: FREQUENCY_LABELS[p.billing_frequency as BillingFrequency],
    term: termShorthand({ billing_frequency: p.billing_frequency as BillingFrequency, term_amount: p.term_amount, term_unit: p.term_unit as TermUnit | null }),
  });
  return {
    id: s.id,
    user_id: s.user_id,
    member: { id: m.member.id, name: m.member.name, email: m.member.email },
    gym: { id: m.gym.id, name: m.gym.name },
    version: s.version,
    state,
    label: statusLabel(s, now),
    colour: statusColour(s, now),
    price: { ...priceLabel({ ...m.price, offering: "" }), id: m.price.id },
    amount: m.facts.amount,
    frequency,
    current_period_start: iso(s.current_period_start),
    paid_until: m.facts.paidUntil,
    next_charge: nextCharge(m.facts, today),
    pauses: m.pauses.map((p) => ({
      id: p.id,
      start: p.start_day,
      end: p.end_day,
      reason: p.reason,
      running: p.start_day <= today && p.end_day > today,
      can_end: p.start_day <= today && p.end_day > today,
      can_remove: p.start_day > today,
      over: p.end_day <= today,
    })),
    pause_days_credit: s.pause_days_credit,
    pause_days_remaining: pauseDaysRemaining(m.facts),
    scheduled_price_change: s.transition_to_price_id && m.toPrice ? { to_price_id: m.toPrice.id, amount: m.toPrice.amount, takes_effect: m.facts.priceChange?.from ?? null } : null,
    cancelled_at: iso(s.cancelled_at),
    undo_cancellation_until: iso(undoUntil),
    /** A cancellation the member asked for with notice, waiting for its day (decision 0058). */
    scheduled_cancellation: s.cancel_at ? { access_until: m.facts.cancelAt!, requested_at: s.cancel_request?.requested_at ?? null } : null,
    is_term_membership: Boolean(s.term_ends_at),
    term_ends_at: iso(s.term_ends_at),
    cooling_period_ends_at: iso(s.cooling_period_ends_at),
    break_fee_percentage: m.gym.break_fee_percentage,
    pif_ends_at: iso(s.pif_ends_at),
    owing: { total: owed.reduce((sum, p) => sum + p.amount + p.surcharge, 0), periods: owed.length },
    price_options: options.map((p) => priceLabel(p)),
    pif_options: pifOptions.map((p) => priceLabel({ ...p, billing_frequency: "one_off" })),
    /** What the user may do here at all: a page says "your role" only when this is what refused (issue 32). */
    rights: { change: rights.change, take_money: rights.takeMoney },
    actions: {
      pause: rights.change && running && !isPif,
      cancel: rights.change && !s.cancelled_at,
      undo_cancel: rights.change && Boolean(undoUntil),
      withdraw_cancel: rights.change && Boolean(s.cancel_at) && !s.cancelled_at,
      price_change: rights.change && running && !isPif,
      remove_price_change: rights.change && Boolean(s.transition_to_price_id),
      start_now: rights.change && !s.cancelled_at && s.upcoming_state === "upcoming" && !isPif,
      manual_payment: rights.takeMoney && owed.length > 0,
      pif: rights.change && rights.takeMoney && pifAllowed({ s }, now) === null,
    },
  };
}
export type MembershipView = Awaited<ReturnType<typeof membershipView>>;
