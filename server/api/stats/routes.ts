import { Hono } from "hono";
import { count, eq, gte, isNull, sql } from "drizzle-orm";
import { startOfLocalMonth, startOfLocalWeek, startOfToday } from "../../../domain/dates";
import { NON_FAILED_PAYMENT_STATUSES } from "../../../domain/payment";
import { organisation_users, payments, subscriptions, visits } from "../../db/schema";
import type { ApiEnv } from "../context";
import { now, requireStaff } from "../middleware";

/** GET /api/stats: the dashboard's headline counts for the current organisation and gym. */
export const statsRoutes = new Hono<ApiEnv>().get("/stats", requireStaff, async (c) => {
  const t = c.var.tenant;
  const at = now(c);
  const gym = t.gymId;

  const [members, states, visitsToday, visitsWeek, failed, revenue, revenueLast] = await Promise.all([
    t.db
      .select({ n: count() })
      .from(organisation_users)
      .where(
        t.where(
          organisation_users,
          eq(organisation_users.role, "member"),
          isNull(organisation_users.deleted_at),
          gym ? eq(organisation_users.home_gym_id, gym) : undefined,
        ),
      ),
    t.db
      .select({
        active: sql<number>`count(*) filter (where ${subscriptions.cancelled_at} is null and ${subscriptions.grace_period_ends_at} is null and ${subscriptions.upcoming_state} is null and not (${subscriptions.pause_start_at} is not null and ${subscriptions.pause_start_at} <= ${at} and (${subscriptions.pause_end_at} is null or ${subscriptions.pause_end_at} > ${at})))`.mapWith(Number),
        paused: sql<number>`count(*) filter (where ${subscriptions.pause_start_at} <= ${at} and (${subscriptions.pause_end_at} is null or ${subscriptions.pause_end_at} > ${at}))`.mapWith(Number),
        grace_period: sql<number>`count(*) filter (where ${subscriptions.cancelled_at} is null and ${subscriptions.grace_period_ends_at} is not null)`.mapWith(Number),
        upcoming: sql<number>`count(*) filter (where ${subscriptions.cancelled_at} is null and ${subscriptions.upcoming_state} is not null)`.mapWith(Number),
      })
      .from(subscriptions)
      .where(t.where(subscriptions, t.inGym(subscriptions))),
    t.db.select({ n: count() }).from(visits).where(t.where(visits, t.inGym(visits), gte(visits.visited_at, startOfToday(at)))),
    t.db.select({ n: count() }).from(visits).where(t.where(visits, t.inGym(visits), gte(visits.visited_at, startOfLocalWeek(at)))),
    t.db
      .select({ n: count() })
      .from(payments)
      .where(
        t.where(
          payments,
          t.inGym(payments),
          sql`${payments.status} <> 'sent'`,
          sql`${payments.status} not in (${sql.join(NON_FAILED_PAYMENT_STATUSES.map((s) => sql`${s}`), sql`, `)})`,
          gte(payments.created_at, new Date(at.getTime() - 30 * 86400_000)),
        ),
      ),
    sumSent(t, startOfLocalMonth(at), at),
    sumSent(t, startOfLocalMonth(at, -1), startOfLocalMonth(at)),
  ]);

  return c.json({
    data: {
      members: members[0].n,
      subscriptions: states[0],
      visits_today: visitsToday[0].n,
      visits_this_week: visitsWeek[0].n,
      failed_payments: failed[0].n,
      revenue_this_month: revenue,
      revenue_last_month: revenueLast,
    },
  });

  async function sumSent(tt: typeof t, from: Date, to: Date) {
    const [row] = await tt.db
      .select({ total: sql<number>`coalesce(sum(${payments.amount}), 0)`.mapWith(Number) })
      .from(payments)
      .where(
        tt.where(payments, tt.inGym(payments), eq(payments.status, "sent"), gte(payments.created_at, from), sql`${payments.created_at} < ${to}`),
      );
    return row.total;
  }
});

