import { count, eq, gte, isNull, lt, notInArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { startOfLocalMonth, startOfLocalWeek, startOfToday } from "../../../domain/dates";
import { NON_FAILED_PAYMENT_STATUSES } from "../../../domain/payment";
import { organisation_users, organisations, payments, subscriptions, visits } from "../../db/schema";
import type { Tenant } from "../../db/tenant";

const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const scalar = (q: SQLWrapper) => sql<number>`(${q})`.mapWith(Number);

/** "Paused now": a pause that has started and not ended (SPEC §4). */
const pausedNow = (at: Date): SQL =>
  sql`${subscriptions.pause_start_at} <= ${iso(at)} and (${subscriptions.pause_end_at} is null or ${subscriptions.pause_end_at} > ${iso(at)})`;

/**
 * The dashboard's headline counts for the tenant's organisation (and current gym), in one round trip:
 * each figure is a scalar subquery served by an (organisation_id, …) index.
 */
export async function headlineStats(t: Tenant, at: Date) {
  const db = t.db;
  const subs = (cond: SQL) => db.select({ n: count() }).from(subscriptions).where(t.where(subscriptions, t.inGym(subscriptions), cond));
  const visitsSince = (from: Date) => db.select({ n: count() }).from(visits).where(t.where(visits, t.inGym(visits), gte(visits.visited_at, from)));
  const collected = (from: Date, to: Date) =>
    db
      .select({ total: sql`coalesce(sum(${payments.amount}), 0)` })
      .from(payments)
      .where(t.where(payments, t.inGym(payments), eq(payments.status, "sent"), gte(payments.created_at, from), lt(payments.created_at, to)));

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
      visits_today: scalar(visitsSince(startOfToday(at))),
      visits_this_week: scalar(visitsSince(startOfLocalWeek(at))),
      failed_payments: scalar(
        db
          .select({ n: count() })
          .from(payments)
          .where(
            t.where(
              payments,
              t.inGym(payments),
              notInArray(payments.status, ["sent", ...NON_FAILED_PAYMENT_STATUSES]),
              gte(payments.created_at, new Date(at.getTime() - 30 * 86_400_000)),
            ),
          ),
      ),
      revenue_this_month: scalar(collected(startOfLocalMonth(at), at)),
      revenue_last_month: scalar(collected(startOfLocalMonth(at, -1), startOfLocalMonth(at))),
    })
    .from(organisations)
    .where(eq(organisations.id, t.organisationId));

  return {
    members: row.members,
    subscriptions: { active: row.active, paused: row.paused, grace_period: row.grace_period, upcoming: row.upcoming },
    visits_today: row.visits_today,
    visits_this_week: row.visits_this_week,
    failed_payments: row.failed_payments,
    revenue_this_month: row.revenue_this_month,
    revenue_last_month: row.revenue_last_month,
  };
}

