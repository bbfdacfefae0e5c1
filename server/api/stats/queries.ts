import { count, eq, isNull, sql } from "drizzle-orm";
import { addCalendarDays, localDay, startOfLocalMonth, startOfLocalWeek } from "../../../domain/dates";
import type { SubscriptionState } from "../../../domain/subscription";
import { organisation_users } from "../../db/schema";
import { memberInState } from "../../db/subscription-state";
import type { Tenant } from "../../db/tenant";
import { dailyTotals, sumDays } from "../dashboard/rollups";

/**
 * Current members of the organisation (or whose home gym is the current gym), and how many of them are in each
 * state by their latest subscription (one member, one state), now: as the members list counts them
 * (server/api/members/list.ts), from the copies on the membership row and its state index (drizzle/0009).
 */
export async function memberStates(t: Tenant, at: Date) {
  const n = (state: SubscriptionState) => sql<number>`count(*) filter (where ${memberInState(state, at)})`.mapWith(Number);
  const [row] = await t.db
    .select({ members: count(), active: n("active"), paused: n("paused"), cancelled: n("cancelled"), grace_period: n("grace_period"), upcoming: n("upcoming") })
    .from(organisation_users)
    .where(
      t.where(
        organisation_users,
        eq(organisation_users.role, "member"),
        isNull(organisation_users.deleted_at),
        t.gymId ? eq(organisation_users.home_gym_id, t.gymId) : undefined,
      ),
    );
  const { members, ...by_state } = row;
  return { members, by_state: by_state as Record<SubscriptionState, number> };
}

/** The headline counts: members, and memberships by state (cancelled ones are not a headline). */
export async function membershipCounts(t: Tenant, at: Date) {
  const { members, by_state } = await memberStates(t, at);
  return { members, subscriptions: { active: by_state.active, paused: by_state.paused, grace_period: by_state.grace_period, upcoming: by_state.upcoming } };
}

/**
 * Money, failed payments and visits, from the daily rollups: whole Auckland days (today counts in full;
 * failed payments are those of the last 30 days, today included). One read of the days since the earliest
 * of those periods began.
 */
export async function activityStats(t: Tenant, at: Date) {
  const today = localDay(at);
  const tomorrow = addCalendarDays(today, 1);
  const monthStart = localDay(startOfLocalMonth(at));
  const lastMonthStart = localDay(startOfLocalMonth(at, -1));
  const failedFrom = addCalendarDays(today, -29);
  const weekStart = localDay(startOfLocalWeek(at));
  const days = await dailyTotals(t, failedFrom < lastMonthStart ? failedFrom : lastMonthStart, tomorrow);
  return {
    visits_today: sumDays(days, "visits", today, tomorrow),
    visits_this_week: sumDays(days, "visits", weekStart, tomorrow),
    failed_payments: sumDays(days, "failed_payments", failedFrom, tomorrow),
    revenue_this_month: sumDays(days, "collected", monthStart, tomorrow),
    revenue_last_month: sumDays(days, "collected", lastMonthStart, monthStart),
  };
}

export type HeadlineStats = Awaited<ReturnType<typeof membershipCounts>> &
  Awaited<ReturnType<typeof activityStats>> & {
    /** When the membership counts were computed (they may be up to DASHBOARD_CACHE_SECONDS old). */
    membership_as_of: string;
  };
