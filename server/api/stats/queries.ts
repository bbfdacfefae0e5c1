import { count, eq, gte, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { addCalendarDays, localDay, startOfLocalMonth, startOfLocalWeek } from "../../../domain/dates";
import { NON_FAILED_PAYMENT_STATUSES } from "../../../domain/payment";
import { organisation_users, organisations, payments, subscriptions } from "../../db/schema";
import type { Tenant } from "../../db/tenant";
import { collectedBetween, visitsBetween } from "../dashboard/rollups";

const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const scalar = (q: SQLWrapper) => sql<number>`(${q})`.mapWith(Number);

/** "Paused now": a pause that has started and not ended (SPEC §4). */
const pausedNow = (at: Date): SQL =>
  sql`${subscriptions.pause_start_at} <= ${iso(at)} and (${subscriptions.pause_end_at} is null or ${subscriptions.pause_end_at} > ${iso(at)})`;

/** Failed payments (domain/payment.ts), spelled as constants so the planner can use payments_failed_idx. */
const FAILED = sql.raw(`${payments.status.name} not in (${["sent", ...NON_FAILED_PAYMENT_STATUSES].map((s) => `'${s}'`).join(", ")})`);

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
      active: scalar(
        subs(
          sql`${subscriptions.cancelled_at} is null and ${subscriptions.grace_period_ends_at} is null and ${subscriptions.upcoming_state} is null and not coalesce(${pausedNow(at)}, false)`,
        ),
      ),
      paused: scalar(subs(pausedNow(at))),
      grace_period: scalar(subs(sql`${subscriptions.cancelled_at} is null and ${subscriptions.grace_period_ends_at} is not null`)),
      upcoming: scalar(subs(sql`${subscriptions.cancelled_at} is null and ${subscriptions.upcoming_state} is not null`)),
    })
    .from(organisations)
    .where(eq(organisations.id, t.organisationId));
  return { members: row.members, subscriptions: { active: row.active, paused: row.paused, grace_period: row.grace_period, upcoming: row.upcoming } };
}

/**
 * Money and visits: from the daily rollups, whole Auckland days (today counts in full); failed payments of
 * the last 30 days from a partial index of failed ones. One round trip of scalar subqueries.
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
      failed_payments: scalar(
        db
          .select({ n: count() })
          .from(payments)
          .where(t.where(payments, t.inGym(payments), FAILED, gte(payments.created_at, new Date(at.getTime() - 30 * 86_400_000)))),
      ),
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
