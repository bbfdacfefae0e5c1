import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { preparedFor } from "../../db/prepared";
import { daily_revenue, daily_visits } from "../../db/schema";
import type { Tenant } from "../../db/tenant";

/**
 * Reads of the daily rollups (drizzle/0003_dashboard_rollups.sql): money collected, failed payments and
 * successful visits per Auckland day, for the tenant's organisation and current gym (or every gym).
 * Days are 'yyyy-MM-dd' strings (domain/dates.ts localDay); `to` is exclusive.
 *
 * The dashboard asks for a few months of days (at most ~190 rows per gym and table) and sums them here, so
 * the read has one fixed shape and runs as a prepared statement: every dashboard view makes it.
 */
export interface DayTotals {
  collected: number;
  failed_payments: number;
  visits: number;
}

const range = { from: sql.placeholder("from"), to: sql.placeholder("to") };

/** Money and visits per day, one row per table and day, in one statement (a round trip per table cost as much as the read). */
function totalsByDay(db: Db, perGym: boolean) {
  const r = daily_revenue;
  const v = daily_visits;
  const zero = sql<number>`0`.mapWith(Number);
  return db
    .select({ day: r.day, collected: sql<number>`sum(${r.collected})`.mapWith(Number), failed_payments: sql<number>`sum(${r.failed_payments})`.mapWith(Number), visits: zero })
    .from(r)
    .where(and(eq(r.organisation_id, sql.placeholder("org")), perGym ? eq(r.gym_id, sql.placeholder("gym")) : undefined, gte(r.day, range.from), lt(r.day, range.to)))
    .groupBy(r.day)
    .unionAll(
      db
        .select({ day: v.day, collected: zero, failed_payments: zero, visits: sql<number>`sum(${v.visits})`.mapWith(Number) })
        .from(v)
        .where(and(eq(v.organisation_id, sql.placeholder("org")), perGym ? eq(v.gym_id, sql.placeholder("gym")) : undefined, gte(v.day, range.from), lt(v.day, range.to)))
        .groupBy(v.day),
    );
}

const totalsInGym = preparedFor((db) => totalsByDay(db, true).prepare("rollup_totals_gym"));
const totalsAllGyms = preparedFor((db) => totalsByDay(db, false).prepare("rollup_totals_all"));

/** Each day from `from` to `to` that has any money, failed payment or visit, with its totals. */
export async function dailyTotals(t: Tenant, from: string, to: string): Promise<Map<string, DayTotals>> {
  const rows = await (t.gymId ? totalsInGym : totalsAllGyms)(t.db).execute({ org: t.organisationId, gym: t.gymId ?? 0, from, to });
  const days = new Map<string, DayTotals>();
  for (const row of rows) {
    const d = days.get(row.day);
    if (!d) days.set(row.day, { collected: row.collected, failed_payments: row.failed_payments, visits: row.visits });
    else {
      d.collected += row.collected;
      d.failed_payments += row.failed_payments;
      d.visits += row.visits;
    }
  }
  return days;
}

/** The sum of one figure over the days from `from` to `to` (exclusive). */
export function sumDays(days: Map<string, DayTotals>, figure: keyof DayTotals, from: string, to: string): number {
  let total = 0;
  for (const [day, d] of days) if (day >= from && day < to) total += d[figure];
  return total;
}
