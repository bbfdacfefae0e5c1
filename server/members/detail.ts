import { statusLabel } from "../../domain/status-label";
import { heldElsewhere } from "./custody";
import { eq } from "drizzle-orm";
import { termShorthand, type BillingFrequency, type TermUnit } from "../../domain/billing";
import { confidenceText, hearAboutUsText } from "../../domain/member";
import { cancellationUndoableUntil, nextBillingDate, scheduledPriceChange, statusColour, subscriptionState } from "../../domain/subscription";
import { gyms, offerings, prices, subscriptions } from "../core/db/schema";
import type { EntityContext } from "../entities/context";
import { memberEntities } from "../entities/member";
import type { Tenant } from "../core/db/tenant";
import type { FoundMember } from "./find";

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

async function priceSummary(t: Tenant, priceId: number) {
  const [p] = await t.db
    .select({ price: prices, offering: { id: offerings.id, name: offerings.name } })
    .from(prices)
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .where(t.where(prices, eq(prices.id, priceId)));
  if (!p) return null;
  const frequency = p.price.billing_frequency as BillingFrequency;
  return {
    id: p.price.id,
    amount: p.price.amount,
    billing_frequency: frequency,
    term: termShorthand({ billing_frequency: frequency, term_amount: p.price.term_amount, term_unit: p.price.term_unit as TermUnit | null }),
    term_amount: p.price.term_amount,
    term_unit: p.price.term_unit,
    offering: p.offering,
  };
}

/** The member's latest subscription as the status card reads it, every derivation from domain/subscription.ts. */
export async function statusCard(t: Tenant, subscriptionId: number | null, at: Date) {
  if (!subscriptionId) return null;
  const [s] = await t.db
    .select()
    .from(subscriptions)
    .where(t.where(subscriptions, eq(subscriptions.id, subscriptionId)));
  if (!s) return null;
  const price = await priceSummary(t, s.price_id);
  const change = scheduledPriceChange({ ...s });
  const state = subscriptionState(s, at);
  const nextBilling = price ? nextBillingDate(s, price.billing_frequency, at) : null;
  return {
    id: s.id,
    state,
    label: statusLabel(s, at),
    colour: statusColour(s, at),
    created_at: iso(s.created_at),
    current_period_start: iso(s.current_period_start),
    current_period_end: iso(s.current_period_end),
    // A waiting cancellation (decision 0058) takes nothing from its day on.
    next_billing_date: iso(nextBilling && s.cancel_at && nextBilling >= s.cancel_at ? null : nextBilling),
    price,
    amount: s.force_price_amount ?? price?.amount ?? null,
    force_price_amount: s.force_price_amount,
    pause_start_at: iso(s.pause_start_at),
    pause_end_at: iso(s.pause_end_at),
    pause_days_credit: s.pause_days_credit,
    cancelled_at: iso(s.cancelled_at),
    undo_cancellation_until: iso(cancellationUndoableUntil(s, at)),
    cancellation_reasons: s.cancellation_reasons ?? [],
    cancellation_comments: s.cancellation_comments,
    cancelled_during_cooling_off_period: s.cancelled_during_cooling_off_period,
    grace_period_ends_at: iso(s.grace_period_ends_at),
    upcoming_state: s.upcoming_state,
    is_term_membership: Boolean(s.term_ends_at || price?.term_amount),
    cooling_period_ends_at: iso(s.cooling_period_ends_at),
    term_ends_at: iso(s.term_ends_at),
    pif_ends_at: iso(s.pif_ends_at),
    scheduled_cancellation: s.cancel_at ? { access_until: iso(s.cancel_at), requested_at: s.cancel_request?.requested_at ?? null, reasons: s.cancel_request?.reasons ?? [] } : null,
    scheduled_price_change: change ? { to_price: await priceSummary(t, change.to_price_id), takes_effect_at: iso(change.takes_effect_at) } : null,
  };
}

/**
 * GET /api/members/{id}: SPEC §3 Member (server/entities/member.ts), with what the member page reads beside it: labels
 * for the survey answers, the home gym, when they joined and last came, and the status card's derivations on their
 * latest subscription.
 */
export async function memberDetail(t: Tenant, found: FoundMember, ctx: EntityContext) {
  const { user: u, membership: m } = found;
  const [home] = m.home_gym_id
    ? await t.db
        .select({ id: gyms.id, name: gyms.name })
        .from(gyms)
        .where(t.where(gyms, eq(gyms.id, m.home_gym_id)))
    : [];
  const entity = (await memberEntities(t, [u.id], ctx)).get(u.id)!;
  const card = await statusCard(t, m.latest_subscription_id, ctx.at);
  const latest = entity.latest_subscription;
  return {
    ...entity,
    /** Another organisation holds this person too: their own details are theirs to change (decision 0048). */
    details_held_elsewhere: await heldElsewhere(t, u.id),
    confidence_and_experience_label: confidenceText(u.confidence_and_experience),
    hear_about_us_other: u.hear_about_us_other,
    hear_about_us_label: hearAboutUsText(u.hear_about_us, u.hear_about_us_other),
    home_gym: home ?? null,
    joined_at: iso(m.created_at),
    last_visit_at: iso(m.last_visit_at),
    pending_invite: m.pending_invite,
    latest_subscription: latest && card ? { ...latest, ...card, price: { ...latest.price, term: latest.price.formatted_term } } : null,
  };
}
export type MemberDetail = Awaited<ReturnType<typeof memberDetail>>;
