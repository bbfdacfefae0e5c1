import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SubscriptionState } from "../../../domain/subscription";
import { organisation_users } from "./schema";

/**
 * domain/subscription.ts's subscriptionState, in SQL, for queries that count or filter members by state. The
 * part that does not move with the clock is kept on the membership row by drizzle/0009's triggers with
 * subscription_state_unpaused, written from the domain's UNPAUSED_STATE_RULES (server/core/db/domain-rules.ts);
 * whether a pause is running is decided here, at query time, as the domain's pausedAt decides it.
 * tests/api/subscription-state.test.ts checks every combination of the facts against the domain function.
 */
export const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Paused at `at`: a pause has started and not yet ended. */
export const pausedAt = (start: SQLWrapper, end: SQLWrapper, at: SQLWrapper) =>
  sql`coalesce(${start} <= ${at} and (${end} is null or ${end} > ${at}), false)`;

/** A member (organisation_users row) whose latest subscription's pause is running at `at`. */
export const memberPausedAt = (at: Date) => pausedAt(organisation_users.latest_pause_start_at, organisation_users.latest_pause_end_at, iso(at));

/**
 * A member (organisation_users row) whose latest subscription is in `state` at `at`, from the copies of its
 * facts on the membership row (drizzle/0009: latest_state is the state leaving pauses aside, by the same rule).
 * Paused is a range over latest_pause_start_at, so its partial index finds the few paused members.
 */
export function memberInState(state: SubscriptionState, at: Date): SQL {
  const paused = memberPausedAt(at);
  if (state === "paused") return sql`${organisation_users.latest_pause_start_at} <= ${iso(at)} and ${paused}`;
  return sql`${organisation_users.latest_state} = ${state} and not ${paused}`;
}
