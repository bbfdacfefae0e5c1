import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { preparedFor } from "../../db/prepared";
import { daily_revenue, daily_visits } from "../../db/schema";
import type { Tenant } from "../../db/tenant";

/**
 * Reads of the daily rollups (drizzle/0003_dashboard_rollups.sql): money collected, failed payments and
 * successful visits per Auckland day, for the tenant's organisation and current gym (or every gym).
 * Days are 'yyyy-MM-dd' strings (domain/dates.ts localDay); `to` is exclusive.
 *
 * The dashboard asks for a few months of days (at most ~190 rows per gym) and sums them here, so each
 * read has one fixed shape and runs as a prepared statement: every dashboard view makes these reads.
 */
export interface DayTotals {
  collected: number;
  failed_payments: number;
  visits: number;
}

const range = { from: sql.placeholder("from"), to: sql.placeholder("to") };

function revenueByDay(db: Db, perGym: boolean) {
  const r = daily_revenue;
  return db
    .select({ day: r.day, collected: sql<number>`sum(${r.collected})`.mapWith(Number), failed_payments: sql<number>`sum(${r.failed_payments})`.mapWith(Number) })
    .from(r)
    .where(and(eq(r.organisation_id, sql.placeholder("org")), perGym ? eq(r.gym_id, sql.placeholder("gym")) : undefined, gte(r.day, range.from), lt(r.day, range.to)))
    .groupBy(r.day)
    .orderBy(asc(r.day));
}

function visitsByDay(db: Db, perGym: boolean) {
  const v = daily_visits;
  return db
    .select({ day: v.day, visits: sql<number>`sum(${v.visits})`.mapWith(Number) })
    .from(v)
    .where(and(eq(v.organisation_id, sql.placeholder("org")), perGym ? eq(v.gym_id, sql.placeholder("gym")) : undefined, gte(v.day, range.from), lt(v.day, range.to)))
    .groupBy(v.day)
    .orderBy(asc(v.day));
}

const revenueInGym = preparedFor((db) => revenueByDay(db, true).prepare("rollup_revenue_gym"));
const revenueAllGyms = preparedFor((db) => revenueByDay(db, false).prepare("rollup_revenue_all"));
const visitsInGym = preparedFor((db) => visitsByDay(db, true).prepare("rollup_visits_gym"));
const visitsAllGyms = preparedFor((db) => visitsByDay(db, false).prepare("rollup_visits_all"));

/** Each day from `from` to `to` that has any money, failed payment or visit, with its totals. */
export async function dailyTotals(t: Tenant, from: string, to: string): Promise<Map<string, DayTotals>> {
  const values = { org: t.organisationId, gym: t.gymId ?? 0, from, to };
  const [revenue, visits] = await Promise.all([
    (t.gymId ? revenueInGym : revenueAllGyms)(t.db).execute(values),
    (t.gymId ? visitsInGym : visitsAllGyms)(t.db).execute(values),
  ]);
  const days = new Map<string, DayTotals>();
  const at = (day: string) => {
    let d = days.get(day);
    if (!d) days.set(day, (d = { collected: 0, failed_payments: 0, visits: 0 }));
    return d;
  };
  for (const r of revenue) Object.assign(at(r.day), { collected: r.collected, failed_payments: r.failed_payments });
  for (const v of visits) at(v.day).visits = v.visits;
  return days;
}

/** The sum of one figure over the days from `from` to `to` (exclusive). */
export function sumDays(days: Map<string, DayTotals>, figure: keyof DayTotals, from: string, to: string): number {
  let total = 0;
  for (const [day, d] of days) if (day >= from && day < to) total += d[figure];
  return total;
}
