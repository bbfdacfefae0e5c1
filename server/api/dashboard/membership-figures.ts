import type { Context } from "hono";
import type { Cached } from "../../cache/stale-while-revalidate";
import type { ApiDeps, ApiEnv } from "../context";

/**
 * The dashboard's membership figures (members, subscriptions by state, by offering, active members by week)
 * count every subscription of the organisation: about 0.3 s at 100,000 members, three times the page's budget.
 * They change slowly, so they are served from the API's stale-while-revalidate cache, at most
 * DASHBOARD_CACHE_SECONDS old (30 s by default) and recomputed in the background; each answer says how old
 * its figures are (`as_of`). Money and visits are not cached: the daily rollups make them cheap and exact.
 * Writes that change members or subscriptions call `invalidateMembershipFigures`.
 */
export function membershipFigures<T>(c: Context<ApiEnv>, name: string, compute: () => Promise<T>, opts: { settled?: boolean } = {}): Promise<Cached<T>> {
  const t = c.var.tenant;
  const cache = c.var.deps.figures;
  if (!cache) return compute().then((value) => ({ value, asOf: new Date() }));
  // Settled figures (finished weeks) change only when history is rewritten, which invalidates them: kept 60 times longer.
  const ttlMs = opts.settled ? c.var.deps.config.DASHBOARD_CACHE_SECONDS * 1000 * SETTLED_FACTOR : undefined;
  return cache.get(`${t.organisationId}:${t.gymId ?? "all"}:${name}`, compute, { ttlMs });
}

/** How many times longer than DASHBOARD_CACHE_SECONDS settled figures are kept (30 min by default). */
const SETTLED_FACTOR = 60;

/** After a write to an organisation's members or subscriptions: its next dashboard counts afresh. */
export function invalidateMembershipFigures(deps: ApiDeps, organisationId: number) {
  deps.figures?.invalidate(`${organisationId}:`);
}
