import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { now, requireStaff } from "../middleware";
import { pageMemberSummary } from "../dashboard/member-summary";
import { activityStats, type HeadlineStats } from "./queries";
import { can, inCurrentGym } from "../permissions";

/** GET /api/stats: the dashboard's headline counts for the current organisation and gym. */
export const statsRoutes = new Hono<ApiEnv>().get("/stats", requireStaff, inCurrentGym("members.read"), async (c) => {
  const t = c.var.tenant;
  const at = now(c);
  const [{ members, by_state, as_of }, activity] = await Promise.all([pageMemberSummary(c), activityStats(t, at)]);
  const subscriptions = { active: by_state.active, paused: by_state.paused, grace_period: by_state.grace_period, upcoming: by_state.upcoming };
  // Money figures only for those who may see money here; visits are for every member reader.
  const money = can(c.var.user!, "money.read", t.gymId);
  const data: HeadlineStats = {
    members,
    subscriptions,
    ...activity,
    ...(money ? {} : { failed_payments: null, revenue_this_month: null, revenue_last_month: null }),
    membership_as_of: as_of,
  };
  return c.json({ data });
});
