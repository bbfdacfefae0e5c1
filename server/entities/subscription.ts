import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import { startOfLocalDay } from "../../domain/dates";
import { pauseDays, pauseDaysRemaining } from "../../domain/lifecycle";
import { cancellationUndoableUntil } from "../../domain/subscription";
import { payments, subscription_pauses, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import type { EntityContext } from "./context";
import { pricesById, type PriceEntity } from "./price";

/**
 * SPEC §3 Subscription, as a member's latest membership, a member's own active one and a new one are answered: its
 * own fields, its price and the price it moves to (each SPEC's Price), its pauses (removed ones left out) and the
 * credit they leave, and its payments (the latest ten, newest first, in short; its first and latest named besides).
 * Built for a batch of subscriptions in a fixed number of queries.
 */

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** How many of a membership's payments it lists, newest first (its first is named besides). */
export const RECENT_PAYMENTS = 10;

const paymentColumns = {
  subscription_id: payments.subscription_id,
  id: payments.id,
  amount: payments.amount,
  surcharge: payments.surcharge,
  status: payments.status,
  period_start_at: payments.period_start_at,
  period_end_at: payments.period_end_at,
  created_at: payments.created_at,
};

/**
 * Each membership's latest RECENT_PAYMENTS, numbered newest first, and its first (`oldest` 1). A weekly membership of
 * some years has hundreds: each is read from the member's payments index (organisation, user, made) by a lateral read
 * that stops at ten, so a page of members costs a few rows each, not all their history (the members list's budget).
 */
/** The payment columns of a lateral read, by name (selecting the subscription's own columns too would cost each page). */
const fieldsOf = <S extends { [K in keyof typeof paymentColumns]: unknown }>(sub: S) =>
  Object.fromEntries(Object.keys(paymentColumns).map((k) => [k, sub[k as keyof typeof paymentColumns]])) as { [K in keyof typeof paymentColumns]: S[K] };

async function paymentsPicked(t: Tenant, found: number[]) {
  const ofIt = and(eq(payments.organisation_id, t.organisationId), eq(payments.user_id, subscriptions.user_id), eq(payments.subscription_id, subscriptions.id));
  const recent = t.db
    .select(paymentColumns)
    .from(payments)
    .where(ofIt)
    .orderBy(desc(payments.created_at), desc(payments.id))
    .limit(RECENT_PAYMENTS)
    .as("recent");
  const first = t.db.select(paymentColumns).from(payments).where(ofIt).orderBy(asc(payments.created_at), asc(payments.id)).limit(1).as("first");
  const inThese = t.where(subscriptions, inArray(subscriptions.id, found));
  const [latest, firsts] = await Promise.all([
    t.db.select(fieldsOf(recent)).from(subscriptions).crossJoinLateral(recent).where(inThese),
    t.db.select(fieldsOf(first)).from(subscriptions).crossJoinLateral(first).where(inThese),
  ]);
  const newestFirst = latest.sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || b.id - a.id);
  const rank = new Map<number, number>();
  const picked = newestFirst.map((p) => {
    const newest = (rank.get(p.subscription_id!) ?? 0) + 1;
    rank.set(p.subscription_id!, newest);
    return { ...p, newest, oldest: 0 };
  });
  for (const p of firsts) {
    const already = picked.find((x) => x.id === p.id);
    if (already) already.oldest = 1;
    else picked.push({ ...p, newest: RECENT_PAYMENTS + 1, oldest: 1 });
  }
  return picked;
}

/** SPEC's Subscription for each id of this organisation, by id. */
export async function subscriptionEntities(t: Tenant, ids: number[], ctx: EntityContext) {
  const out = new Map<number, SubscriptionEntity>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const rows = await t.db
    .select()
    .from(subscriptions)
    .where(t.where(subscriptions, inArray(subscriptions.id, unique)));
  if (!rows.length) return out;
  const found = rows.map((s) => s.id);
  const [priceList, pauses, picked] = await Promise.all([
    pricesById(
      t,
      rows.flatMap((s) => [s.price_id, ...(s.transition_to_price_id ? [s.transition_to_price_id] : [])]),
      ctx,
    ),
    t.db
      .select()
      .from(subscription_pauses)
      .where(t.where(subscription_pauses, and(inArray(subscription_pauses.subscription_id, found), isNull(subscription_pauses.removed_at))))
      .orderBy(asc(subscription_pauses.start_day), asc(subscription_pauses.id)),
    paymentsPicked(t, found),
  ]);
  const priceOf = new Map(priceList.map((p) => [p.id, p]));
  for (const s of rows) {
    const price = priceOf.get(s.price_id)!;
    const own = pauses.filter((p) => p.subscription_id === s.id);
    const theirPayments = picked.filter((p) => p.subscription_id === s.id);
    const inShort = ({ subscription_id: _s, newest: _n, oldest: _o, ...p }: (typeof picked)[number]): PaymentInShort => ({
      ...p,
      period_start_at: iso(p.period_start_at),
      period_end_at: iso(p.period_end_at),
      created_at: iso(p.created_at)!,
    });
    const list = theirPayments
      .filter((p) => Number(p.newest) <= RECENT_PAYMENTS)
      .sort((a, b) => Number(a.newest) - Number(b.newest))
      .map(inShort);
    const first = theirPayments.find((p) => Number(p.oldest) === 1);
    out.set(s.id, {
      id: s.id,
      current_period_start: iso(s.current_period_start),
      current_period_end: iso(s.current_period_end),
      paused_at: iso(s.paused_at),
      cancelled_at: iso(s.cancelled_at),
      grace_period_ends_at: iso(s.grace_period_ends_at),
      price,
      payments: list,
      pause_start_at: iso(s.pause_start_at),
      pause_end_at: iso(s.pause_end_at),
      pause_days_credit: s.pause_days_credit,
      pause_days_remaining: pauseDaysRemaining({ pauseDaysCredit: s.pause_days_credit, pauses: own.map((p) => ({ start: p.start_day, end: p.end_day })) }),
      pauses: own.map((p) => ({
        id: p.id,
        pause_start_at: startOfLocalDay(p.start_day).toISOString(),
        pause_end_at: startOfLocalDay(p.end_day).toISOString(),
        start_day: p.start_day,
        end_day: p.end_day,
        days: pauseDays({ start: p.start_day, end: p.end_day }),
        reason: p.reason,
      })),
      upcoming_state: s.upcoming_state,
      initial_state: s.initial_state,
      // While a cancellation can still be taken back; null once the window has closed (or nothing was cancelled).
      undo_cancellation_until: iso(cancellationUndoableUntil(s, ctx.at)),
      force_price_amount: s.force_price_amount,
      cooling_period_ends_at: iso(s.cooling_period_ends_at),
      is_term_membership: Boolean(s.term_ends_at || price.is_term_membership),
      currently_within_term_membership: Boolean(s.term_ends_at && ctx.at < s.term_ends_at),
      on_term_membership_price: price.is_term_membership,
      term_ends_at: iso(s.term_ends_at),
      cancelled_during_cooling_off_period: s.cancelled_during_cooling_off_period,
      transition_to_price: s.transition_to_price_id ? priceOf.get(s.transition_to_price_id) ?? null : null,
      transition_takes_effect_at: iso(s.transition_takes_effect_at),
      version: s.version,
      private_price_link_id: s.private_price_link_id,
      pif_ends_at: iso(s.pif_ends_at),
      first_payment: first ? inShort(first) : null,
      latest_payment: list[0] ?? null,
      cancellation_reasons: s.cancellation_reasons ?? [],
      cancellation_comments: s.cancellation_comments,
    });
  }
  return out;
}

export interface SubscriptionEntity {
  id: number;
  current_period_start: string | null;
  current_period_end: string | null;
  paused_at: string | null;
  cancelled_at: string | null;
  grace_period_ends_at: string | null;
  price: PriceEntity;
  payments: PaymentInShort[];
  pause_start_at: string | null;
  pause_end_at: string | null;
  pause_days_credit: number;
  pause_days_remaining: number;
  pauses: { id: number; pause_start_at: string; pause_end_at: string; start_day: string; end_day: string; days: number; reason: string | null }[];
  upcoming_state: string | null;
  initial_state: string | null;
  undo_cancellation_until: string | null;
  force_price_amount: number | null;
  cooling_period_ends_at: string | null;
  is_term_membership: boolean;
  currently_within_term_membership: boolean;
  on_term_membership_price: boolean;
  term_ends_at: string | null;
  cancelled_during_cooling_off_period: boolean;
  transition_to_price: PriceEntity | null;
  transition_takes_effect_at: string | null;
  version: number;
  private_price_link_id: number | null;
  pif_ends_at: string | null;
  first_payment: PaymentInShort | null;
  latest_payment: PaymentInShort | null;
  cancellation_reasons: string[];
  cancellation_comments: string | null;
}

export interface PaymentInShort {
  id: number;
  amount: number;
  surcharge: number;
  status: string;
  period_start_at: string | null;
  period_end_at: string | null;
  created_at: string;
}
