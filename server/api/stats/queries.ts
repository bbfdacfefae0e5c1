import { count, eq, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { addCalendarDays, localDay, startOfLocalMonth, startOfLocalWeek } from "../../../domain/dates";
import { organisation_users, organisations, subscriptions } from "../../db/schema";
import { inState } from "../../db/subscription-state";
import type { Tenant } from "../../db/tenant";
import { dailyTotals, sumDays } from "../dashboard/rollups";

const scalar = (q: SQLWrapper) => sql<number>`(${q})`.mapWith(Number);

/** Members of the organisation (or whose home gym is the current gym) and subscriptions by state, now. */
export async function membershipCounts(t: Tenant, at: Date) {
  const db = t.db;
  const subs = (cond: SQL) => db.select({ n: count() }).from(subscriptions).where(t.where(subscriptions, t.inGym(subscriptions), cond));
  const [row] = await db
    .select({
      members: scalar(
        db
          .select({ n: count() })
          .from(organisation_users)
          .where(
            t.where(
              organisation_users,
              eq(organisation_users.role, "member"),
              isNull(organisation_users.deleted_at),
              t.gymId ? eq(organisation_users.home_gym_id, t.gymId) : undefined,
            ),
          ),
      ),
      active: scalar(subs(inState("active", at))),
      paused: scalar(subs(inState("paused", at))),
      grace_period: scalar(subs(inState("grace_period", at))),
      upcoming: scalar(subs(inState("upcoming", at))),
    })
    .from(organisations)
    .where(eq(organisations.id, t.organisationId));
  return { members: row.members, subscriptions: { active: row.active, paused: row.paused, grace_period: row.grace_period, upcoming: row.upcoming } };
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
