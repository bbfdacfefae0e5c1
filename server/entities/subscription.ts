import { and, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { startOfLocalDay } from "../../domain/dates";
import { pauseDays, pauseDaysRemaining } from "../../domain/lifecycle";
import { cancellationUndoableUntil } from "../../domain/subscription";
import { inIds, ofOrganisation, preparedFor } from "../core/db/prepared";
import { payments, subscription_pauses, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import type { EntityContext } from "./context";
import { jsonArray, jsonObject, qualified as col } from "./sql";
import { currentGymSurcharge, pricesFrom, pricesJson, type PriceEntity, type PricesRead } from "./price";

/**
 * SPEC §3 Subscription, as a member's latest membership, a member's own active one and a new one are answered: its
 * own fields, its price and the price it moves to (each SPEC's Price), its pauses (removed ones left out) and the
 * credit they leave, and its payments (the latest ten, newest first, in short; its first and latest named besides).
 * Built for a batch of subscriptions in a fixed number of queries.
 */

/** How many of a membership's payments it lists, newest first (its first is named besides). */
export const RECENT_PAYMENTS = 10;

/** A payment in short, exactly as the entity gives it. */
const paymentInShort = {
  id: payments.id,
  amount: payments.amount,
  surcharge: payments.surcharge,
  status: payments.status,
  period_start_at: payments.period_start_at,
  period_end_at: payments.period_end_at,
  created_at: payments.created_at,
};

/**
 * The subscription's payments in `order`, the first `limit` of them, each made into JSON only once picked (in the
 * subquery `alias`), not for every payment the pick sorts. Read from the member's payments index (organisation,
 * user, made): a weekly membership of some years has hundreds, and a page costs a few rows a member, not their history.
 */
const paymentsPicked = (alias: string, order: "asc" | "desc", limit: number) => {
  const columns = sql.join(Object.values(paymentInShort).map(col), sql`, `);
  const direction = sql.raw(order);
  const picked = sql`(select ${columns} from ${payments}
    where ${col(payments.organisation_id)} = ${col(subscriptions.organisation_id)} and ${col(payments.user_id)} = ${col(subscriptions.user_id)}
      and ${col(payments.subscription_id)} = ${col(subscriptions.id)}
    order by ${col(payments.created_at)} ${direction}, ${col(payments.id)} ${direction} limit ${sql.raw(String(limit))}) ${sql.identifier(alias)}`;
  const at = (column: PgColumn) => sql`${sql.identifier(alias)}.${sql.identifier(column.name)}`;
  return { picked, json: jsonObject(paymentInShort, alias), order: sql`${at(payments.created_at)} ${direction}, ${at(payments.id)} ${direction}` };
};
const recent = paymentsPicked("recent", "desc", RECENT_PAYMENTS);
const first = paymentsPicked("first", "asc", 1);

/** What a Subscription is built from, as subscriptionJson gives it: times already as the entity writes them. */
export interface SubscriptionRead {
  id: number;
  price_id: number;
  transition_to_price_id: number | null;
  current_period_start: string | null;
  current_period_end: string | null;
  paused_at: string | null;
  cancelled_at: string | null;
  undo_cancellation_until: string | null;
  grace_period_ends_at: string | null;
  pause_start_at: string | null;
  pause_end_at: string | null;
  pause_days_credit: number;
  upcoming_state: string | null;
  initial_state: string | null;
  force_price_amount: number | null;
  cooling_period_ends_at: string | null;
  term_ends_at: string | null;
  cancelled_during_cooling_off_period: boolean;
  transition_takes_effect_at: string | null;
  version: number;
  private_price_link_id: number | null;
  pif_ends_at: string | null;
  cancellation_reasons: string[] | null;
  cancellation_comments: string | null;
  pauses: { id: number; start_day: string; end_day: string; reason: string | null }[];
  recent_payments: PaymentInShort[];
  first_payment: PaymentInShort | null;
}

/**
 * The row of `subscriptions` in scope as one JSON object (SubscriptionRead): its own fields, its pauses (removed ones
 * left out), its latest RECENT_PAYMENTS newest first and its first payment (server/entities/sql.ts). The members' own
 * read (server/entities/member.ts) joins each member's latest and takes it from here too.
 */
export const subscriptionJson = jsonObject({
  id: subscriptions.id,
  price_id: subscriptions.price_id,
  transition_to_price_id: subscriptions.transition_to_price_id,
  current_period_start: subscriptions.current_period_start,
  current_period_end: subscriptions.current_period_end,
  paused_at: subscriptions.paused_at,
  cancelled_at: subscriptions.cancelled_at,
  undo_cancellation_until: subscriptions.undo_cancellation_until,
  grace_period_ends_at: subscriptions.grace_period_ends_at,
  pause_start_at: subscriptions.pause_start_at,
  pause_end_at: subscriptions.pause_end_at,
  pause_days_credit: subscriptions.pause_days_credit,
  upcoming_state: subscriptions.upcoming_state,
  initial_state: subscriptions.initial_state,
  force_price_amount: subscriptions.force_price_amount,
  cooling_period_ends_at: subscriptions.cooling_period_ends_at,
  term_ends_at: subscriptions.term_ends_at,
  cancelled_during_cooling_off_period: subscriptions.cancelled_during_cooling_off_period,
  transition_takes_effect_at: subscriptions.transition_takes_effect_at,
  version: subscriptions.version,
  private_price_link_id: subscriptions.private_price_link_id,
  pif_ends_at: subscriptions.pif_ends_at,
  cancellation_reasons: subscriptions.cancellation_reasons,
  cancellation_comments: subscriptions.cancellation_comments,
  pauses: jsonArray(
    jsonObject({
      id: subscription_pauses.id,
      start_day: subscription_pauses.start_day,
      end_day: subscription_pauses.end_day,
      reason: subscription_pauses.reason,
    }),
    sql`${subscription_pauses} where ${col(subscription_pauses.organisation_id)} = ${col(subscriptions.organisation_id)}
      and ${col(subscription_pauses.subscription_id)} = ${col(subscriptions.id)} and ${col(subscription_pauses.removed_at)} is null`,
    sql`${col(subscription_pauses.start_day)}, ${col(subscription_pauses.id)}`,
  ),
  recent_payments: jsonArray(recent.json, recent.picked, recent.order),
  first_payment: sql`(select ${first.json} from ${first.picked})`,
});

/**
 * The prices of the subscriptions in scope (their own and the ones they move to), for a statement over
 * `subscriptions` that aggregates them (the array_aggs belong to that statement, whose rows are its subscriptions).
 */
export const theirPricesJson = pricesJson(sql`array_agg(${col(subscriptions.price_id)}) || array_agg(${col(subscriptions.transition_to_price_id)})`);

/** Subscriptions by id, with their prices, as JSON: one prepared statement (server/core/db/prepared.ts). */
const subscriptionsRead = preparedFor((db) =>
  db
    .select({
      subscriptions: sql<SubscriptionRead[]>`coalesce(json_agg(${subscriptionJson}), '[]')`,
      prices: theirPricesJson,
      current_gym: currentGymSurcharge,
    })
    .from(subscriptions)
    .where(and(ofOrganisation(subscriptions), inIds(subscriptions.id, "ids")))
    .prepare("subscription_entities"),
);

/** SPEC's Subscription for each id of this organisation, by id. */
export async function subscriptionEntities(t: Tenant, ids: number[], ctx: EntityContext) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<number, SubscriptionEntity>();
  const [{ subscriptions: found, ...prices }] = await subscriptionsRead(t.db).execute({ org: t.organisationId, ids: unique, gym: t.gymId });
  return subscriptionsFrom(t, found, prices, ctx);
}

/** SPEC's Subscription for each one read (subscriptionJson), by id, with their prices as read (theirPricesJson). */
export async function subscriptionsFrom(t: Tenant, rows: SubscriptionRead[], prices: PricesRead, ctx: EntityContext) {
  const out = new Map<number, SubscriptionEntity>();
  if (!rows.length) return out;
  const priceOf = await pricesFrom(t, prices, ctx);
  for (const s of rows) {
    const price = priceOf.get(s.price_id)!;
    const undoUntil = cancellationUndoableUntil(s, ctx.at);
    out.set(s.id, {
      id: s.id,
      current_period_start: s.current_period_start,
      current_period_end: s.current_period_end,
      paused_at: s.paused_at,
      cancelled_at: s.cancelled_at,
      grace_period_ends_at: s.grace_period_ends_at,
      price,
      payments: s.recent_payments,
      pause_start_at: s.pause_start_at,
      pause_end_at: s.pause_end_at,
      pause_days_credit: s.pause_days_credit,
      pause_days_remaining: pauseDaysRemaining({ pauseDaysCredit: s.pause_days_credit, pauses: s.pauses.map((p) => ({ start: p.start_day, end: p.end_day })) }),
      pauses: s.pauses.map((p) => ({
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
      undo_cancellation_until: undoUntil ? undoUntil.toISOString() : null,
      force_price_amount: s.force_price_amount,
      cooling_period_ends_at: s.cooling_period_ends_at,
      is_term_membership: Boolean(s.term_ends_at || price.is_term_membership),
      currently_within_term_membership: Boolean(s.term_ends_at && ctx.at < new Date(s.term_ends_at)),
      on_term_membership_price: price.is_term_membership,
      term_ends_at: s.term_ends_at,
      cancelled_during_cooling_off_period: s.cancelled_during_cooling_off_period,
      transition_to_price: s.transition_to_price_id ? priceOf.get(s.transition_to_price_id) ?? null : null,
      transition_takes_effect_at: s.transition_takes_effect_at,
      version: s.version,
      private_price_link_id: s.private_price_link_id,
      pif_ends_at: s.pif_ends_at,
      first_payment: s.first_payment,
      latest_payment: s.recent_payments[0] ?? null,
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
