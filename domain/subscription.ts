/** Subscription state and the status card colour, derived as SPEC §4 says. */
export type SubscriptionState = "paused" | "cancelled" | "grace_period" | "upcoming" | "active";
export type StatusColour = "green" | "amber" | "red";

export interface SubscriptionFacts {
  pause_start_at?: Date | string | null;
  pause_end_at?: Date | string | null;
  cancelled_at?: Date | string | null;
  grace_period_ends_at?: Date | string | null;
  upcoming_state?: string | null;
  current_period_end?: Date | string | null;
}

const at = (d: Date | string | null | undefined) => (d == null ? null : new Date(d));

/**
 * Leaving pauses aside, the first of these facts a subscription has decides its state; with none it is active.
 * The database's subscription_state_unpaused() is written from this list (server/core/db/domain-rules.ts), and
 * server/core/db/subscription-state.ts adds the pause at query time; tests/api/subscription-state.test.ts walks every
 * combination through both.
 */
export const UNPAUSED_STATE_RULES = [
  ["cancelled_at", "cancelled"],
  ["grace_period_ends_at", "grace_period"],
  ["upcoming_state", "upcoming"],
] as const satisfies readonly (readonly [keyof SubscriptionFacts, SubscriptionState])[];

/** A pause is running at `now`: it has started and not yet ended. */
export function pausedAt(s: SubscriptionFacts, now: Date): boolean {
  const pauseStart = at(s.pause_start_at);
  const pauseEnd = at(s.pause_end_at);
  return !!pauseStart && now >= pauseStart && (!pauseEnd || now < pauseEnd);
}

export function subscriptionState(s: SubscriptionFacts, now: Date = new Date()): SubscriptionState {
  if (pausedAt(s, now)) return "paused";
  // A fact counts when present (not null), as SQL's IS NOT NULL has it.
  for (const [fact, state] of UNPAUSED_STATE_RULES) if (s[fact] != null) return state;
  return "active";
}

export const STATE_LABELS: Record<SubscriptionState, string> = {
  active: "Active",
  paused: "Paused",
  cancelled: "Cancelled",
  grace_period: "Grace period",
  upcoming: "Upcoming",
};

export function statusColour(s: SubscriptionFacts, now: Date = new Date()): StatusColour {
  const state = subscriptionState(s, now);
  if (state === "cancelled") {
    if (s.grace_period_ends_at) return "red";
    const end = at(s.current_period_end);
    return end && now < end ? "green" : "red";
  }
  if (state === "active") return "green";
  return "amber";
}

export interface ScheduledChangeFacts {
  transition_to_price_id?: number | null;
  transition_takes_effect_at?: Date | string | null;
  current_period_end?: Date | string | null;
}

/**
 * A scheduled price change exists when transition_to_price is set; it takes effect at
 * transition_takes_effect_at, or else at the end of the current period (SPEC §4). null when none.
 */
export function scheduledPriceChange(s: ScheduledChangeFacts): { to_price_id: number; takes_effect_at: Date | null } | null {
  if (s.transition_to_price_id == null) return null;
  return { to_price_id: s.transition_to_price_id, takes_effect_at: at(s.transition_takes_effect_at) ?? at(s.current_period_end) };
}

/**
 * Cancelled and still undoable: the cancellation can be taken back until undo_cancellation_until.
 * (The card shows "undo until …" only while this holds.)
 */
export function cancellationUndoableUntil(s: { cancelled_at?: Date | string | null; undo_cancellation_until?: Date | string | null }, now: Date = new Date()): Date | null {
  const until = at(s.undo_cancellation_until);
  return s.cancelled_at && until && now < until ? until : null;
}

/** The next date the member is billed: the end of the current period while the membership runs and recurs. */
export function nextBillingDate(
  s: SubscriptionFacts & { current_period_end?: Date | string | null },
  billingFrequency: string,
  now: Date = new Date(),
): Date | null {
  if (billingFrequency === "one_off") return null;
  const state = subscriptionState(s, now);
  if (state === "cancelled" || state === "upcoming") return null;
  if (state === "paused") return at(s.pause_end_at);
  return at(s.current_period_end);
}
