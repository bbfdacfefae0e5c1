import { and, asc, count, eq, exists, isNull, or, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { SubscriptionState } from "../../domain/subscription";
import { offering_gyms, offerings, organisation_users } from "../core/db/schema";
import { memberPausedAt } from "../core/db/subscription-state";
import type { Tenant } from "../core/db/tenant";
import type { ApiEnv } from "../core/context";
import { keptFigures, sharedFigures } from "../core/cache/shared-figures";
import { now, pageRead } from "../core/middleware";

export type OfferingMembers = { offering_id: number; name: string; members: number };

/** The dashboard's membership figures, now, for the current organisation and gym (or every gym). */
export interface MemberSummary {
  /** Current members (not removed), with or without a subscription. */
  members: number;
  /** Members by the state of their latest subscription: one member, one state. */
  by_state: Record<SubscriptionState, number>;
  /**
   * Members whose latest subscription, not cancelled, is to one of the offering's prices; offerings nobody is on
   * are listed too while they are live and open at the current gym, so a plan nobody is on shows as 0.
   */
  by_offering: OfferingMembers[];
}

/**
 * Every membership figure the dashboard shows for "now", counted as the members list counts them (by home gym,
 * by the latest subscription's state: server/members/list.ts) from the copies on the membership row
 * (drizzle/0009). One grouped, index-only read of the state index, and the offerings: about 10–20 ms at
 * 100,000 members, against 0.3–1 s for counting every subscription. Members by state, the headline counts and
 * the current week of active members are all this one reading, so they agree with each other.
 */
export async function memberSummary(t: Tenant, at: Date): Promise<MemberSummary> {
  const ou = organisation_users;
  const paused = memberPausedAt(at);
  const openHere = t.gymId
    ? or(
        eq(offerings.all_gyms_access, true),
        exists(
          t.db
            .select({ one: sql`1` })
            .from(offering_gyms)
            .where(t.where(offering_gyms, t.inGym(offering_gyms), eq(offering_gyms.offering_id, offerings.id))),
        ),
      )
    : undefined;

  const [groups, listed] = await Promise.all([
    t.db
      .select({ state: ou.latest_state, paused: sql<boolean>`${paused}`, offering_id: ou.latest_offering_id, n: count() })
      .from(ou)
      .where(t.where(ou, eq(ou.role, "member"), isNull(ou.deleted_at), t.gymId ? eq(ou.home_gym_id, t.gymId) : undefined))
      .groupBy(ou.latest_state, sql`2`, ou.latest_offering_id),
    t.db
      .select({ id: offerings.id, name: offerings.name, open: sql<boolean>`coalesce(${and(isNull(offerings.archived_at), openHere)}, false)` })
      .from(offerings)
      .where(t.where(offerings))
      .orderBy(asc(offerings.name), asc(offerings.id)),
  ]);

  let members = 0;
  const by_state: Record<SubscriptionState, number> = { active: 0, paused: 0, cancelled: 0, grace_period: 0, upcoming: 0 };
  const onOffering = new Map<number, number>();
  for (const g of groups) {
    members += g.n;
    if (!g.state) continue; // no subscription
    by_state[g.paused ? "paused" : g.state] += g.n;
    if (g.state !== "cancelled" && g.offering_id) onOffering.set(g.offering_id, (onOffering.get(g.offering_id) ?? 0) + g.n);
  }
  const by_offering = listed
    .map((o) => ({ offering_id: o.id, name: o.name, members: onOffering.get(o.id) ?? 0, open: o.open }))
    .filter((o) => o.members > 0 || o.open)
    .map(({ open: _open, ...o }) => o)
    .sort((a, b) => b.members - a.members); // stable: ties keep name order
  return { members, by_state, by_offering };
}

/** The summary and when it was counted. */
export type KeptMemberSummary = MemberSummary & { as_of: string };

/**
 * The summary for the request's organisation and gym, at most DASHBOARD_CACHE_SECONDS old and the same on every
 * server process (server/core/cache/shared-figures.ts); the dashboard's three calls that need it (stats, active
 * users, breakdown) share one reading per page.
 */
export function pageMemberSummary(c: Context<ApiEnv>): Promise<KeptMemberSummary> {
  const t = c.var.tenant;
  const key = `${t.organisationId}:${t.gymId ?? "all"}:member-summary`;
  const { config } = c.var.deps;
  return pageRead(c, key, () =>
    keptFigures(sharedFigures(t.db), key, config.DASHBOARD_CACHE_SECONDS * 1000, async () => {
      const at = now(c);
      return { ...(await memberSummary(t, at)), as_of: at.toISOString() };
    }),
  );
}

/** GET /api/user-breakdown's figures. */
export type UserBreakdown = Pick<MemberSummary, "by_state" | "by_offering">;

/** Members with a running subscription now (active or in its grace period, not paused): the current week's point. */
export const runningMembers = (s: MemberSummary) => s.by_state.active + s.by_state.grace_period;
