import { addCalendarDays, localDay, startOfLocalMonth, startOfLocalWeek } from "../../../domain/dates";
import type { Tenant } from "../../db/tenant";
import { dailyTotals, sumDays } from "../dashboard/rollups";

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

export type HeadlineStats = {
  members: number;
  /** Memberships by state (cancelled ones are not a headline). */
  subscriptions: Record<"active" | "paused" | "grace_period" | "upcoming", number>;
} & Awaited<ReturnType<typeof activityStats>> & {
    /** When the membership counts were computed (they may be up to DASHBOARD_CACHE_SECONDS old). */
    membership_as_of: string;
  };
