import { sql, type SQLWrapper } from "drizzle-orm";
import { daily_revenue, daily_visits } from "../../db/schema";
import type { Tenant } from "../../db/tenant";

/**
 * Reads of the daily rollups (drizzle/0003_dashboard_rollups.sql): money collected and successful visits
 * per Auckland day, for the tenant's organisation and current gym. Days are 'yyyy-MM-dd' strings
 * (domain/dates.ts localDay); `to` is exclusive. Each is a scalar subquery to embed in a larger select,
 * served by the rollup's (organisation_id, gym_id, day) key.
 */
const sumOver = (t: Tenant, table: typeof daily_revenue | typeof daily_visits, column: SQLWrapper, from: string, to: string) =>
  sql<number>`(${t.db
    .select({ total: sql`coalesce(sum(${column}), 0)` })
    .from(table)
    .where(t.where(table, t.inGym(table), sql`${table.day} >= ${from}::date and ${table.day} < ${to}::date`))})`.mapWith(Number);

export const collectedBetween = (t: Tenant, from: string, to: string) => sumOver(t, daily_revenue, daily_revenue.collected, from, to);
export const failedPaymentsBetween = (t: Tenant, from: string, to: string) => sumOver(t, daily_revenue, daily_revenue.failed_payments, from, to);
export const visitsBetween = (t: Tenant, from: string, to: string) => sumOver(t, daily_visits, daily_visits.visits, from, to);
