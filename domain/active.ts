import { formatDateTime } from "./dates";
import { pausedAt } from "./subscription";

/**
 * Whether a subscription counts its member as active at instant `at`: the dashboard's "active users" rule
 * (server/dashboard/queries.ts activeUsersInWeeks holds it in SQL, condition for condition), in words, for
 * /active-user-debugging. A member is active when any of their subscriptions is.
 */
export interface ActiveFacts {
  created_at: Date | string;
  upcoming_state: string | null;
  cancelled_at: Date | string | null;
  pause_start_at: Date | string | null;
  pause_end_at: Date | string | null;
  /** When the member was removed from the organisation (organisation_users.deleted_at). */
  removed_at: Date | string | null;
}

export interface ActiveCondition {
  rule: string;
  holds: boolean;
  detail: string;
}

const d = (v: Date | string | null) => (v == null ? null : new Date(v));

export function activeConditions(s: ActiveFacts, at: Date): ActiveCondition[] {
  const created = d(s.created_at)!;
  const cancelled = d(s.cancelled_at);
  const removed = d(s.removed_at);
  const paused = pausedAt(s, at);
  return [
    { rule: "Had started", holds: created <= at, detail: `Sold ${formatDateTime(created)}` },
    { rule: "Is not upcoming", holds: s.upcoming_state == null, detail: s.upcoming_state ? `Upcoming (${s.upcoming_state}): it never started` : "Not upcoming" },
    { rule: "Was not cancelled yet", holds: !cancelled || cancelled > at, detail: cancelled ? `Cancelled ${formatDateTime(cancelled)}` : "Not cancelled" },
    {
      rule: "Was not paused",
      holds: !paused,
      detail: s.pause_start_at ? `Paused ${formatDateTime(d(s.pause_start_at)!)} – ${s.pause_end_at ? formatDateTime(d(s.pause_end_at)!) : "no end"}` : "Never paused",
    },
    { rule: "Was still a member", holds: !removed || removed > at, detail: removed ? `Removed ${formatDateTime(removed)}` : "Still a member" },
  ];
}
