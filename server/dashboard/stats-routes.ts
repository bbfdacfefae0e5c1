import { Hono } from "hono";
import type { ApiEnv } from "../core/context";
import { requireStaff } from "../core/middleware";
import { headlineStats } from "./figures";
import { pageMemberSummary } from "./member-summary";
import { inCurrentGym } from "../core/permissions";

/** GET /api/stats: the dashboard's headline counts for the current organisation and gym. */
export const statsRoutes = new Hono<ApiEnv>().get("/stats", requireStaff, inCurrentGym("members.read"), async (c) =>
  c.json({ data: await headlineStats(c, pageMemberSummary(c)) }),
);
