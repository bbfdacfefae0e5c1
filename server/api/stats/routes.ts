import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { now, requireStaff } from "../middleware";
import { headlineStats } from "./queries";

/** GET /api/stats: the dashboard's headline counts for the current organisation and gym. */
export const statsRoutes = new Hono<ApiEnv>().get("/stats", requireStaff, async (c) => c.json({ data: await headlineStats(c.var.tenant, now(c)) }));
