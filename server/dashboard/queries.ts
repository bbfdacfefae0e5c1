import { and, eq, isNull, sql } from "drizzle-orm";
import { localMonthStart, TIME_ZONE } from "../../domain/dates";
import { organisation_users, subscriptions } from "../core/db/schema";
import { iso, pausedAt } from "../core/db/subscription-state";
import type { Tenant } from "../core/db/tenant";
import { periodTotals } from "./rollups";

/**
 * The dashboard's charts. Calendar logic (week and month boundaries) runs in SQL with `at time zone`
 * Pacific/Auckland: local midnights are converted to instants one by one, so a DST change moves the
 * boundary instant by an hour instead of putting a day in the wrong week or month.
 */

const tz = sql`${TIME_ZONE}::text`;
/** "Now" as an Auckland wall-clock timestamp, the base of week and month arithmetic. */
const localNow = (at: Date) => sql`(${iso(at)} at time zone ${tz})`;


/** A member's place in the organisation, joined to each of their subscriptions (primary key lookup). */
const membership = and(eq(organisation_users.organisation_id, subscriptions.organisation_id), eq(organisation_users.user_id, subscriptions.user_id));


export type ActiveUsersWeek = { week_start: string; active: number };

/**
 * Members with a running subscription at the end of each Auckland week (Monday start) from `oldest` weeks
 * back to `newest` (0 is the current week, 1 the one before…), oldest first; the current week is measured
 * now rather than at its (future) end. The route asks for finished and current weeks apart, to cache the
 * finished ones longer.
 *
 * A member counts at instant E when one of their subscriptions, at E:
 *  - had started: created_at <= E (there is no separate start date; the first period starts within days);
 *  - is not upcoming: an upcoming subscription (upcoming_state set) has never started, so it counts in no week;
 *  - was not cancelled yet: cancelled_at is null or after E (the cancellation, not the end of the paid period,
 *    so the latest week agrees with the "Cancelled" state);
 *  - was not paused: no pause with pause_start_at <= E < pause_end_at. Only the latest pause is stored,
 *    so earlier pauses are not subtracted from past weeks;
 *  - belonged to someone still a member of the organisation (not removed before E).
 * A failed payment's grace period still counts as active: the member keeps their membership, and when
 * the grace period began is not stored, so it could not be subtracted from past weeks anyway.
 * One query: generate_series gives the weeks, each joined to the subscriptions that were running then.
 */
export async function activeUsersInWeeks(t: Tenant, at: Date, newest: number, oldest: number): Promise<ActiveUsersWeek[]> {
  const db = t.db;
  const firstWeekStart = sql`((date_trunc('week', ${localNow(at)}) - ${oldest}::int * interval '1 week') at time zone ${tz})`;
  // Rows that could be running in some week of the range; the join below decides which weeks.
  const live = db
    .select({
      user_id: subscriptions.user_id,
      created_at: subscriptions.created_at,
      cancelled_at: subscriptions.cancelled_at,
      pause_start_at: subscriptions.pause_start_at,
      pause_end_at: subscriptions.pause_end_at,
      removed_at: organisation_users.deleted_at,
    })
    .from(subscriptions)
    .innerJoin(organisation_users, membership)
    .where(
      t.where(
        subscriptions,
        t.inGym(subscriptions),
        isNull(subscriptions.upcoming_state),
        sql`${subscriptions.created_at} <= ${iso(at)}`,
        sql`(${subscriptions.cancelled_at} is null or ${subscriptions.cancelled_at} > ${firstWeekStart})`,
        sql`(${organisation_users.deleted_at} is null or ${organisation_users.deleted_at} > ${firstWeekStart})`
      )
    )
    .as("live");

  // Week i = 0 is the current one; its end is now.
  const weekRows = sql`(
    select ws as week_start,
           case when i = 0 then ${iso(at)} else ((ws + interval '1 week') at time zone ${tz}) end as ends_at
    from generate_series(${newest}::int, ${oldest}::int) as i,
         lateral (select date_trunc('week', ${localNow(at)}) - i * interval '1 week' as ws) as w
  ) as weeks`;
  const end = sql`weeks.ends_at`;

  return db
    .select({
      week_start: sql<string>`to_char(weeks.week_start, 'YYYY-MM-DD')`,
      active: sql<number>`count(distinct ${live.user_id})`.mapWith(Number),
    })
    .from(weekRows)
    .leftJoin(
      live,
      sql`${live.created_at} <= ${end}
        and (${live.cancelled_at} is null or ${live.cancelled_at} > ${end})
        and not ${pausedAt(live.pause_start_at, live.pause_end_at, end)}
        and (${live.removed_at} is null or ${live.removed_at} > ${end})`
    )
    .groupBy(sql`weeks.week_start`)
    .orderBy(sql`weeks.week_start`);
}


export type CostAndVisitMonth = { month: string; revenue: number; returned: number; visits: number; cost_per_visit: number | null };

/**
 * The current Auckland month and the five before, oldest first: money collected (payments with status
 * 'sent', by the day they were created, as GET /api/stats counts it), net of refunds made and chargebacks lost (by
 * the day each settled), with what those gave back beside it (`returned`, issue 28), successful visits (a refused door
 * entry is not a visit), and revenue per visit in whole cents (null when there were no visits).
 * Read from the daily rollups: at most 6 × 31 days per gym, whatever the number of payments and visits.
 */
export async function costAndVisitBreakdown(t: Tenant, at: Date): Promise<CostAndVisitMonth[]> {
  const months = Array.from({ length: 6 }, (_, i) => {
    const start = localMonthStart(at, i - 5);
    return { month: start.slice(0, 7), start, end: localMonthStart(at, i - 4) };
  });
  const totals = await periodTotals(t, months.map((m) => ({ from: m.start, to: m.end })));
  return months.map((m, i) => {
    const { collected: revenue, returned, visits } = totals[i];
    return { month: m.month, revenue, returned, visits, cost_per_visit: visits > 0 ? Math.round(revenue / visits) : null };
  });
}
