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

export function subscriptionState(s: SubscriptionFacts, now: Date = new Date()): SubscriptionState {
  const pauseStart = at(s.pause_start_at);
  const pauseEnd = at(s.pause_end_at);
  if (pauseStart && now >= pauseStart && (!pauseEnd || now < pauseEnd)) return "paused";
  if (s.cancelled_at) return "cancelled";
  if (s.grace_period_ends_at) return "grace_period";
  if (s.upcoming_state) return "upcoming";
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
