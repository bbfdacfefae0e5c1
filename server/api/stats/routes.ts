import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { membershipFigures } from "../dashboard/membership-figures";
import { now, requireStaff } from "../middleware";
import { activityStats, membershipCounts, type HeadlineStats } from "./queries";

/** GET /api/stats: the dashboard's headline counts for the current organisation and gym. */
export const statsRoutes = new Hono<ApiEnv>().get("/stats", requireStaff, async (c) => {
  const t = c.var.tenant;
  const at = now(c);
  const [membership, activity] = await Promise.all([membershipFigures(c, "counts", () => membershipCounts(t, at)), activityStats(t, at)]);
  const data: HeadlineStats = { ...membership.value, ...activity, membership_as_of: membership.asOf.toISOString() };
  return c.json({ data });
});
