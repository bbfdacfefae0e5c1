import { and, asc, eq, isNull } from "drizzle-orm";
import type { BillingFrequency } from "../../domain/billing";
import { localDay } from "../../domain/dates";
import type { MembershipFacts, PauseFacts } from "../../domain/lifecycle";
import { gyms, organisations, prices, subscription_pauses, subscriptions, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ApiError, notFound } from "../core/errors";

/**
 * A subscription of the tenant's organisation with what the membership actions (issue 12) need to decide and
 * preview: its price, gym, pauses and member, and its facts in Auckland days (domain/lifecycle.ts).
 */
export async function loadMembership(t: Tenant, id: number) {
  const [row] = await t.db
    .select({
      s: subscriptions,
      price: prices,
      gym: gyms,
      organisation: { failed_payment_grace_period: organisations.failed_payment_grace_period, failed_payment_grace_period_unit: organisations.failed_payment_grace_period_unit },
      member: { id: users.id, name: users.name, email: users.email, email_notifications: users.email_notifications },
    })
    .from(subscriptions)
    .innerJoin(prices, eq(prices.id, subscriptions.price_id))
    .innerJoin(gyms, eq(gyms.id, subscriptions.gym_id))
    .innerJoin(organisations, eq(organisations.id, subscriptions.organisation_id))
    .innerJoin(users, eq(users.id, subscriptions.user_id))
    .where(t.where(subscriptions, eq(subscriptions.id, id)));
  if (!row) throw notFound("No such membership.");
  const pauses = await t.db
    .select()
    .from(subscription_pauses)
    .where(t.where(subscription_pauses, eq(subscription_pauses.subscription_id, id), isNull(subscription_pauses.removed_at)))
    .orderBy(asc(subscription_pauses.start_day));
  const [to] = row.s.transition_to_price_id ? await t.db.select().from(prices).where(t.where(prices, eq(prices.id, row.s.transition_to_price_id))) : [];
  return { ...row, pauses, toPrice: to ?? null, facts: membershipFacts(row.s, row.price, pauses, to?.amount ?? null) };
}
export type Membership = Awaited<ReturnType<typeof loadMembership>>;

export function membershipFacts(
  s: typeof subscriptions.$inferSelect,
  price: Pick<typeof prices.$inferSelect, "amount" | "billing_frequency">,
  pauses: Pick<typeof subscription_pauses.$inferSelect, "id" | "start_day" | "end_day">[],
  toAmount: number | null = null,
): MembershipFacts {
  const day = (d: Date | null) => (d ? localDay(d) : null);
  const pauseFacts: PauseFacts[] = pauses.map((p) => ({ id: p.id, start: p.start_day, end: p.end_day }));
  // A pause set on the subscription without a row of its own (before the table existed) still counts.
  if (!pauseFacts.length && s.pause_start_at && s.pause_end_at) pauseFacts.push({ start: localDay(s.pause_start_at), end: localDay(s.pause_end_at) });
  return {
    frequency: price.billing_frequency as BillingFrequency,
    amount: s.force_price_amount ?? price.amount,
    anchor: s.billing_anchor,
    paidUntil: day(s.current_period_end),
    pauses: pauseFacts,
    cancelledAt: s.cancelled_at,
    graceEndsAt: s.grace_period_ends_at,
    upcomingState: s.upcoming_state,
    termEndsAt: day(s.term_ends_at),
    coolingEndsAt: day(s.cooling_period_ends_at),
    pifEndsAt: day(s.pif_ends_at),
    priceChange: s.transition_to_price_id && toAmount !== null ? { from: localDay(s.transition_takes_effect_at ?? s.current_period_end!), amount: toAmount } : null,
    pauseDaysCredit: s.pause_days_credit,
    cancelAt: day(s.cancel_at),
  };
}

/** What the history keeps of a subscription before and after a change. */
export function snapshot(s: typeof subscriptions.$inferSelect) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    price_id: s.price_id,
    force_price_amount: s.force_price_amount,
    current_period_start: iso(s.current_period_start),
    current_period_end: iso(s.current_period_end),
    pause_start_at: iso(s.pause_start_at),
    pause_end_at: iso(s.pause_end_at),
    pause_days_credit: s.pause_days_credit,
    cancelled_at: iso(s.cancelled_at),
    undo_cancellation_until: iso(s.undo_cancellation_until),
    grace_period_ends_at: iso(s.grace_period_ends_at),
    upcoming_state: s.upcoming_state,
    transition_to_price_id: s.transition_to_price_id,
    transition_takes_effect_at: iso(s.transition_takes_effect_at),
    cancel_at: iso(s.cancel_at),
    version: s.version,
  };
}

/** The membership changed since the page showed it: nothing is applied. */
export const changedSince = () =>
  new ApiError(409, "This membership was changed by someone else since you opened this page. Nothing was changed: look at it again and redo your change.", "conflict", {
    version: ["The membership has changed since this page was loaded"],
  });

/**
 * Writes `values` to the subscription if it is still at `version` (and moves its version on): the one way the
 * actions change a subscription, so two staff acting at once cannot both apply. Answers the row after.
 */
export async function changeSubscription(t: Tenant, id: number, version: number, values: Partial<typeof subscriptions.$inferInsert>) {
  const [after] = await t.db
    .update(subscriptions)
    .set({ ...values, version: version + 1, updated_at: new Date() })
    .where(t.where(subscriptions, and(eq(subscriptions.id, id), eq(subscriptions.version, version))))
    .returning();
  if (!after) throw changedSince();
  return after;
}
