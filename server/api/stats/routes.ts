import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { now, requireStaff } from "../middleware";
import { pageMemberSummary } from "../dashboard/member-summary";
import { activityStats, type HeadlineStats } from "./queries";

/** GET /api/stats: the dashboard's headline counts for the current organisation and gym. */
export const statsRoutes = new Hono<ApiEnv>().get("/stats", requireStaff, async (c) => {
  const t = c.var.tenant;
  const at = now(c);
  const [{ members, by_state, as_of }, activity] = await Promise.all([pageMemberSummary(c), activityStats(t, at)]);
  const subscriptions = { active: by_state.active, paused: by_state.paused, grace_period: by_state.grace_period, upcoming: by_state.upcoming };
  const data: HeadlineStats = { members, subscriptions, ...activity, membership_as_of: as_of };
  return c.json({ data });
});
