import { count, eq, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { addCalendarDays, localDay, startOfLocalMonth, startOfLocalWeek } from "../../../domain/dates";
import { organisation_users, organisations, subscriptions } from "../../db/schema";
import { inState } from "../../db/subscription-state";
import type { Tenant } from "../../db/tenant";
import { collectedBetween, failedPaymentsBetween, visitsBetween } from "../dashboard/rollups";

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
 * failed payments are those of the last 30 days, today included). One round trip of scalar subqueries.
 */
export async function activityStats(t: Tenant, at: Date) {
  const db = t.db;
  const today = localDay(at);
  const tomorrow = addCalendarDays(today, 1);
  const monthStart = localDay(startOfLocalMonth(at));
  const [row] = await db
    .select({
      visits_today: visitsBetween(t, today, tomorrow),
      visits_this_week: visitsBetween(t, localDay(startOfLocalWeek(at)), tomorrow),
      failed_payments: failedPaymentsBetween(t, addCalendarDays(today, -29), tomorrow),
      revenue_this_month: collectedBetween(t, monthStart, tomorrow),
      revenue_last_month: collectedBetween(t, localDay(startOfLocalMonth(at, -1)), monthStart),
    })
    .from(organisations)
    .where(eq(organisations.id, t.organisationId));
  return row;
}

export type HeadlineStats = Awaited<ReturnType<typeof membershipCounts>> &
  Awaited<ReturnType<typeof activityStats>> & {
    /** When the membership counts were computed (they may be up to DASHBOARD_CACHE_SECONDS old). */
    membership_as_of: string;
  };
