import { formatDate } from "./dates";
import { subscriptionState, type SubscriptionFacts } from "./subscription";

/**
 * Whether a member's subscription lets them in at `now` (the door, and the debug pages that explain it), and the
 * rule that decided, in words staff understand. One definition: a door integration grants or revokes with it.
 * - Active: in. A grace period: in until it ends (the member keeps access while a failed payment is retried).
 * - Paused, not started (upcoming), or stopped because a grace period ran out unpaid (upcoming_state 'failed'): out.
 * - Cancelled: in until the end of the period already paid for, unless it was cancelled while owing (grace).
 * - Paid in full: in until pif_ends_at.
 */
export interface AccessFacts extends SubscriptionFacts {
  pif_ends_at?: Date | string | null;
}

export interface AccessDecision {
  allowed: boolean;
  reason: string;
}

const at = (d: Date | string | null | undefined) => (d == null ? null : new Date(d));

export function accessAt(s: AccessFacts | null | undefined, now: Date = new Date()): AccessDecision {
  if (!s) return { allowed: false, reason: "No membership." };
  const pifEnds = at(s.pif_ends_at);
  if (pifEnds && now >= pifEnds) return { allowed: false, reason: `The paid-in-full membership ended on ${formatDate(pifEnds)}.` };
  switch (subscriptionState(s, now)) {
    case "paused":
      return { allowed: false, reason: "The membership is paused." };
    case "cancelled": {
      const paidUntil = at(s.current_period_end);
      if (s.grace_period_ends_at) return { allowed: false, reason: "Cancelled while a payment was owing." };
      if (paidUntil && now < paidUntil) return { allowed: true, reason: `Cancelled, and paid up until ${formatDate(paidUntil)}.` };
      return { allowed: false, reason: "The membership is cancelled." };
    }
    case "grace_period": {
      const ends = at(s.grace_period_ends_at)!;
      if (now < ends) return { allowed: true, reason: `A payment failed; the grace period lets them in until ${formatDate(ends)}.` };
      return { allowed: false, reason: `A payment failed and the grace period ended on ${formatDate(ends)}.` };
    }
    case "upcoming":
      return s.upcoming_state === "failed"
        ? { allowed: false, reason: "A payment failed and was not paid within the grace period." }
        : { allowed: false, reason: "The membership has not started yet." };
    case "active":
      return { allowed: true, reason: pifEnds ? `Paid in full until ${formatDate(pifEnds)}.` : "The membership is active and paid up." };
  }
}
