import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SubscriptionState } from "../../domain/subscription";
import { organisation_users, subscriptions } from "./schema";

/**
 * domain/subscription.ts's subscriptionState, in SQL, for queries that count or filter by state.
 * The two must agree; tests/api/members.test.ts checks the list's states against the domain function.
 */
export const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Paused at `at`: a pause has started and not yet ended. */
export const pausedAt = (start: SQLWrapper, end: SQLWrapper, at: SQLWrapper) =>
  sql`coalesce(${start} <= ${at} and (${end} is null or ${end} > ${at}), false)`;

const pausedNow = (at: Date) => pausedAt(subscriptions.pause_start_at, subscriptions.pause_end_at, iso(at));

/** Paused, then cancelled, grace period, upcoming, else active (null when there is no subscription row). */
export const subscriptionStateSql = (at: Date) => sql<SubscriptionState | null>`case
  when ${subscriptions.id} is null then null
  when ${pausedNow(at)} then 'paused'
  when ${subscriptions.cancelled_at} is not null then 'cancelled'
  when ${subscriptions.grace_period_ends_at} is not null then 'grace_period'
  when ${subscriptions.upcoming_state} is not null then 'upcoming'
  else 'active' end`;

/** A condition true when the subscription row is in `state` at `at` (index-friendly spelling of the case above). */
export function inState(state: SubscriptionState, at: Date): SQL {
  const notPaused = sql`not ${pausedNow(at)}`;
  switch (state) {
    case "paused":
      return pausedNow(at);
    case "cancelled":
      return sql`${notPaused} and ${subscriptions.cancelled_at} is not null`;
    case "grace_period":
      return sql`${notPaused} and ${subscriptions.cancelled_at} is null and ${subscriptions.grace_period_ends_at} is not null`;
    case "upcoming":
      return sql`${notPaused} and ${subscriptions.cancelled_at} is null and ${subscriptions.grace_period_ends_at} is null and ${subscriptions.upcoming_state} is not null`;
    case "active":
      return sql`${notPaused} and ${subscriptions.cancelled_at} is null and ${subscriptions.grace_period_ends_at} is null and ${subscriptions.upcoming_state} is null`;
  }
}

/**
 * A member (organisation_users row) whose latest subscription is in `state` at `at`, from the copies of its
 * facts on the membership row (drizzle/0009: latest_state is the state leaving pauses aside, by the same rule).
 * Paused is a range over latest_pause_start_at, so its partial index finds the few paused members.
 */
export function memberInState(state: SubscriptionState, at: Date): SQL {
  const paused = pausedAt(organisation_users.latest_pause_start_at, organisation_users.latest_pause_end_at, iso(at));
  if (state === "paused") return sql`${organisation_users.latest_pause_start_at} <= ${iso(at)} and ${paused}`;
  return sql`${organisation_users.latest_state} = ${state} and not ${paused}`;
}
