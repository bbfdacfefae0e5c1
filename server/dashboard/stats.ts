import { addCalendarDays, localDay, localMonthStart, localWeekStart } from "../../domain/dates";
import type { Tenant } from "../core/db/tenant";
import { periodTotals } from "./rollups";

/**
 * Money, failed payments and visits, from the daily rollups: whole Auckland days (today counts in full;
 * failed payments are those of the last 30 days, today included). One read for the five periods.
 */
export async function activityStats(t: Tenant, at: Date) {
  const today = localDay(at);
  const tomorrow = addCalendarDays(today, 1);
  const monthStart = localMonthStart(at);
  const lastMonthStart = localMonthStart(at, -1);
  const failedFrom = addCalendarDays(today, -29);
  const weekStart = localWeekStart(at);
  const [todays, thisWeek, lastThirtyDays, thisMonth, lastMonth] = await periodTotals(t, [
    { from: today, to: tomorrow },
    { from: weekStart, to: tomorrow },
    { from: failedFrom, to: tomorrow },
    { from: monthStart, to: tomorrow },
    { from: lastMonthStart, to: monthStart },
  ]);
  return {
    visits_today: todays.visits,
    visits_this_week: thisWeek.visits,
    failed_payments: lastThirtyDays.failed_payments,
    /** Net of refunds and chargebacks (drizzle/0036); what they took back is beside it. */
    revenue_this_month: thisMonth.collected,
    revenue_last_month: lastMonth.collected,
    returned_this_month: thisMonth.returned,
    returned_last_month: lastMonth.returned,
  };
}

type MoneyFigure = "failed_payments" | "revenue_this_month" | "revenue_last_month" | "returned_this_month" | "returned_last_month";

export type HeadlineStats = {
  members: number;
  /** Memberships by state (cancelled ones are not a headline). */
  subscriptions: Record<"active" | "paused" | "grace_period" | "upcoming", number>;
} & Omit<Awaited<ReturnType<typeof activityStats>>, MoneyFigure> & {
    /** Null for staff who may not see money in this gym (server/core/permissions.ts). */
    [K in MoneyFigure]: number | null;
  } & {
    /** When the membership counts were counted (at most DASHBOARD_CACHE_SECONDS ago). */
    membership_as_of: string;
  };
