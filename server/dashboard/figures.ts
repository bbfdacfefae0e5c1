import type { Context } from "hono";
import { localWeekStart } from "../../domain/dates";
import type { ApiEnv } from "../core/context";
import { now } from "../core/middleware";
import { can } from "../core/permissions";
import { activityStats, type HeadlineStats } from "./stats";
import { activeUsersInWeeks } from "./queries";
import { finishedWeeks } from "../core/cache/finished-weeks";
import { runningMembers, type KeptMemberSummary } from "./member-summary";

/**
 * The dashboard's figures for the current organisation and gym, each from the page's one member summary.
 * The single-figure routes (SPEC §7) and GET /api/dashboard both answer through these. Each takes the summary
 * as a promise, so its own reads overlap with it.
 */

/** GET /api/stats: headline counts; money figures only for those who may see money here, visits for every member reader. */
export async function headlineStats(c: Context<ApiEnv>, summary: Promise<KeptMemberSummary>): Promise<HeadlineStats> {
  const t = c.var.tenant;
  const [{ members, by_state, as_of }, activity] = await Promise.all([summary, activityStats(t, now(c))]);
  const subscriptions = { active: by_state.active, paused: by_state.paused, grace_period: by_state.grace_period, upcoming: by_state.upcoming };
  const money = can(c.var.user!, "money.read", t.gymId);
  return {
    members,
    subscriptions,
    ...activity,
    ...(money ? {} : { failed_payments: null, revenue_this_month: null, revenue_last_month: null, returned_this_month: null, returned_last_month: null }),
    membership_as_of: as_of,
  };
}

/**
 * GET /api/active-users: members with a running subscription at the end of each Auckland week. Finished weeks
 * never change and are kept until Monday; the current week is the members running now, from the summary.
 */
export async function activeUsers(c: Context<ApiEnv>, weeks: number, summary: Promise<KeptMemberSummary>) {
  const at = now(c);
  const [past, current] = await Promise.all([finishedWeeks(c.var.deps.finishedWeeks!, c.var.tenant, at, weeks, () => activeUsersInWeeks(c.var.tenant, at, 1, weeks - 1)), summary]);
  return [...past, { week_start: localWeekStart(at), active: runningMembers(current) }];
}

/** GET /api/user-breakdown: members by subscription state and by offering. */
export async function userBreakdown(summary: Promise<KeptMemberSummary>) {
  const { by_state, by_offering, as_of } = await summary;
  return { by_state, by_offering, as_of };
}
