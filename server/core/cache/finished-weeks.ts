import { max, ne } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { localWeekStart } from "../../../domain/dates";
import { member_imports } from "../db/schema";
import type { Tenant } from "../db/tenant";

/**
 * Active members in the finished weeks before the current one. They scan subscriptions (0.5–1 s at 100,000
 * members), since the membership rows do not keep who was running at each week's end.
 *
 * A finished week's count reads subscriptions' creation, cancellation and pause dates and memberships' removal
 * dates up to that week's end. The API never writes those in the past (an edit changes the profile; a delete
 * removes the member from now on), so a finished week never changes and every worker process computes the same
 * figures: each process keeps them until the week rolls over (the key holds the current week), at most 500
 * organisation, gym and length combinations, computed once however many ask (lru-cache's fetch).
 * The one write that rewrites history is an import: it brings removed members back (their removal date goes), so
 * the key also holds when the organisation's imports last wrote, read each time (one indexed row). Another such
 * write must do the same, or clear this in every process.
 */
/** One week's count of active members (server/dashboard/queries.ts activeUsersInWeeks answers these). */
export type ActiveUsersWeek = { week_start: string; active: number };
/** The dashboard's query comes with each ask, so this cache (kept in the API's dependencies) knows no resource. */
type Ask = { t: Tenant; at: Date; weeks: number; read: () => Promise<ActiveUsersWeek[]> };
export type FinishedWeeksCache = LRUCache<string, ActiveUsersWeek[], Ask>;

export const createFinishedWeeksCache = (): FinishedWeeksCache =>
  new LRUCache<string, ActiveUsersWeek[], Ask>({
    max: 500,
    // A failed read is not kept: the next ask reads again.
    fetchMethod: (_key, _stale, { context: { read } }) => read(),
  });

/** The `weeks - 1` finished weeks before the current one, oldest first, read by `read` when not kept. */
export async function finishedWeeks(cache: FinishedWeeksCache, t: Tenant, at: Date, weeks: number, read: Ask["read"]): Promise<ActiveUsersWeek[]> {
  if (weeks <= 1) return [];
  const key = `${t.organisationId}:${t.gymId ?? "all"}:${weeks}:${localWeekStart(at)}:${await importsWrote(t)}`;
  return (await cache.fetch(key, { context: { t, at, weeks, read } }))!;
}

/** When the organisation's imports last wrote members (each batch stamps its import), or "none". */
async function importsWrote(t: Tenant): Promise<string> {
  const [row] = await t.db
    .select({ at: max(member_imports.updated_at) })
    .from(member_imports)
    .where(t.where(member_imports, ne(member_imports.status, "draft")));
  return row?.at ? new Date(row.at).toISOString() : "none";
}
