import { Hono } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { readQuery } from "../body";
import { now, requireStaff } from "../middleware";
import { inCurrentGym } from "../permissions";
import { finishedWeeks } from "./finished-weeks";
import { pageMemberSummary, runningMembers } from "./member-summary";
import { costAndVisitBreakdown } from "./queries";
import { localWeekStart } from "../../../domain/dates";

const activeUsersQuery = z.object({
  weeks: z.coerce
    .number({ invalid_type_error: "Weeks must be a whole number from 1 to 52." })
    .int("Weeks must be a whole number from 1 to 52.")
    .min(1, "Weeks must be a whole number from 1 to 52.")
    .max(52, "Weeks must be a whole number from 1 to 52.")
    .default(12),
});

/** The dashboard's charts, for the current organisation and gym (SPEC §7 Dashboard calls). */
export const dashboardRoutes = new Hono<ApiEnv>()
  /** GET /api/active-users?weeks=12: members with a running subscription at the end of each Auckland week. */
  .get("/active-users", requireStaff, inCurrentGym("members.read"), async (c) => {
    const { weeks } = readQuery(c, activeUsersQuery);
    const t = c.var.tenant;
    const at = now(c);
    // Finished weeks never change and are kept until Monday; the current week is the members running now,
    // from the same summary as the headline counts.
    const [past, current] = await Promise.all([finishedWeeks(c.var.deps.finishedWeeks!, t, at, weeks), pageMemberSummary(c)]);
    return c.json({ data: [...past, { week_start: localWeekStart(at), active: runningMembers(current) }] });
  })
  /** GET /api/user-breakdown: members by subscription state and by offering. */
  .get("/user-breakdown", requireStaff, inCurrentGym("members.read"), async (c) => {
    const { by_state, by_offering, as_of } = await pageMemberSummary(c);
    return c.json({ data: { by_state, by_offering, as_of } });
  })
  /** GET /api/cost-and-visit-breakdown: revenue, visits and cost per visit for this Auckland month and the five before. */
  .get("/cost-and-visit-breakdown", requireStaff, inCurrentGym("money.read"), async (c) => c.json({ data: await costAndVisitBreakdown(c.var.tenant, now(c)) }));
