import { sql } from "drizzle-orm";
import type { Db } from "../core/db/client";
import { preparedFor } from "../core/db/prepared";
import { daily_revenue, daily_visits } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * Reads of the daily rollups (drizzle/0003_dashboard_rollups.sql): money collected (net of refunds and chargebacks
 * since drizzle/0036, which also keeps what was given back: `returned`), failed payments and successful visits per
 * Auckland day, for the tenant's organisation and current gym (or every gym).
 *
 * Every dashboard view makes this read, so it is one prepared statement of fixed shape: the periods go in as
 * two arrays of Auckland days ('yyyy-MM-dd', `to` exclusive) and come back summed, one row per period. Summing
 * in PostgreSQL keeps the answer to a handful of rows: a row per day (up to ~190 per table) cost the server
 * more to decode than the read itself.
 */
export interface PeriodTotals {
  /** Net: payments collected less refunds made and chargebacks lost, each on the day it settled. */
  collected: number;
  /** What was given back (refunds made, chargebacks lost) in the period, already taken off `collected`. */
  returned: number;
  failed_payments: number;
  visits: number;
}

export type Period = { from: string; to: string };

function totalsByPeriod(db: Db, perGym: boolean) {
  const r = daily_revenue;
  const v = daily_visits;
  const inGym = (gymId: typeof r.gym_id | typeof v.gym_id) => (perGym ? sql`and ${gymId} = ${sql.placeholder("gym")}` : sql``);
  return db
    .select({
      n: sql<number>`p.n`.mapWith(Number),
      collected: sql<number>`coalesce(rev.collected, 0)`.mapWith(Number),
      returned: sql<number>`coalesce(rev.returned, 0)`.mapWith(Number),
      failed_payments: sql<number>`coalesce(rev.failed_payments, 0)`.mapWith(Number),
      visits: sql<number>`coalesce(vis.visits, 0)`.mapWith(Number),
    })
    .from(
      sql`unnest(${sql.placeholder("from")}::date[], ${sql.placeholder("to")}::date[]) with ordinality as p(day_from, day_to, n)
        left join lateral (
          select sum(${r.collected}) as collected, sum(${r.returned}) as returned, sum(${r.failed_payments}) as failed_payments from ${r}
          where ${r.organisation_id} = ${sql.placeholder("org")} ${inGym(r.gym_id)} and ${r.day} >= p.day_from and ${r.day} < p.day_to
        ) rev on true
        left join lateral (
          select sum(${v.visits}) as visits from ${v}
          where ${v.organisation_id} = ${sql.placeholder("org")} ${inGym(v.gym_id)} and ${v.day} >= p.day_from and ${v.day} < p.day_to
        ) vis on true`,
    )
    .orderBy(sql`p.n`);
}

const totalsInGym = preparedFor((db) => totalsByPeriod(db, true).prepare("rollup_periods_gym"));
const totalsAllGyms = preparedFor((db) => totalsByPeriod(db, false).prepare("rollup_periods_all"));

/** Money (net, and what was given back), failed payments and visits in each period, in the order given. */
export async function periodTotals(t: Tenant, periods: Period[]): Promise<PeriodTotals[]> {
  const rows = await (t.gymId ? totalsInGym : totalsAllGyms)(t.db).execute({
    org: t.organisationId,
    gym: t.gymId ?? 0,
    from: periods.map((p) => p.from),
    to: periods.map((p) => p.to),
  });
  return rows.map(({ collected, returned, failed_payments, visits }) => ({ collected, returned, failed_payments, visits }));
}
