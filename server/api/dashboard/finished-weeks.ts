import { LRUCache } from "lru-cache";
import { localWeekStart } from "../../../domain/dates";
import type { Tenant } from "../../db/tenant";
import { activeUsersInWeeks, type ActiveUsersWeek } from "./queries";

/**
 * Active members in the finished weeks before the current one. They scan subscriptions (0.5–1 s at 100,000
 * members), since the membership rows do not keep who was running at each week's end.
 *
 * A finished week's count reads subscriptions' creation, cancellation and pause dates and memberships' removal
 * dates up to that week's end. The API never writes those in the past (an edit changes the profile; a delete
 * removes the member from now on), so a finished week never changes and every worker process computes the same
 * figures: each process keeps them until the week rolls over (the key holds the current week), at most 500
 * organisation, gym and length combinations, computed once however many ask (lru-cache's fetch).
 * A write that rewrites history (a back-dated cancellation or pause, an import) must clear this in every
 * process, or put a version of the history in the key.
 */
type Ask = { t: Tenant; at: Date; weeks: number };
export type FinishedWeeksCache = LRUCache<string, ActiveUsersWeek[], Ask>;

export const createFinishedWeeksCache = (): FinishedWeeksCache =>
  new LRUCache<string, ActiveUsersWeek[], Ask>({
    max: 500,
    // A failed read is not kept: the next ask reads again.
    fetchMethod: (_key, _stale, { context: { t, at, weeks } }) => activeUsersInWeeks(t, at, 1, weeks - 1),
  });

/** The `weeks - 1` finished weeks before the current one, oldest first. */
export async function finishedWeeks(cache: FinishedWeeksCache, t: Tenant, at: Date, weeks: number): Promise<ActiveUsersWeek[]> {
  if (weeks <= 1) return [];
  const key = `${t.organisationId}:${t.gymId ?? "all"}:${weeks}:${localWeekStart(at)}`;
  return (await cache.fetch(key, { context: { t, at, weeks } }))!;
}
