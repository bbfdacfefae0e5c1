import { formatLocal } from "./dates";
import { STATE_LABELS, subscriptionState, type SubscriptionFacts } from "./subscription";

/**
 * A membership's state on a badge, as staff read it (issue 32): a cancellation whose paid period still runs is green
 * (SPEC §4) because the member still gets in, so its badge says until when. Not in ./subscription.ts: that module
 * reaches the browser, and this one brings the time zone's formatting.
 */
export function statusLabel(s: SubscriptionFacts, now: Date = new Date()): string {
  const state = subscriptionState(s, now);
  const paidUntil = s.current_period_end == null ? null : new Date(s.current_period_end);
  if (state === "cancelled" && !s.grace_period_ends_at && paidUntil && now < paidUntil) return `Cancelled, access until ${formatLocal(paidUntil, "d MMM")}`;
  return STATE_LABELS[state];
}
