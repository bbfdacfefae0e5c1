import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { reconciliation_differences } from "../core/db/schema";
import { z } from "zod";
import type { ApiEnv } from "../core/context";
import { readQuery } from "../core/body";
import { now, requireStaff } from "../core/middleware";
import { can, inCurrentGym } from "../core/permissions";
import { activeUsers, headlineStats, userBreakdown } from "./figures";
import { pageMemberSummary } from "./member-summary";
import { costAndVisitBreakdown } from "./queries";
import { classOccupancyByWeek } from "../classes/attendance-figures";
import { OCCUPANCY_WEEKS } from "../../domain/schemas/class-attendance";

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
  /**
   * GET /api/dashboard?weeks=12: the four answers below (and GET /api/class-occupancy's) in one, for the back-office page: one session, one
   * tenant connection and one member-summary read instead of four. `costs` is null without money.read here.
   */
  .get("/dashboard", requireStaff, inCurrentGym("members.read"), async (c) => {
    const { weeks } = readQuery(c, activeUsersQuery);
    const summary = pageMemberSummary(c);
    const money = can(c.var.user!, "money.read", c.var.tenant.gymId);
    const t = c.var.tenant;
    const [stats, active_users, breakdown, costs, reconciliation_open, class_occupancy] = await Promise.all([
      headlineStats(c, summary),
      activeUsers(c, weeks, summary),
      userBreakdown(summary),
      money ? costAndVisitBreakdown(t, now(c)) : null,
      // Differences with the providers for a person to look at (decision 0042): organisation admins only, as the page.
      can(c.var.user!, "money.read", null) ? t.db.$count(reconciliation_differences, t.where(reconciliation_differences, eq(reconciliation_differences.status, "open"))) : null,
      // Group classes' places taken per week (issue 34): GET /api/class-occupancy's answer.
      can(c.var.user!, "classes.read", t.gymId) ? classOccupancyByWeek(t, now(c), OCCUPANCY_WEEKS) : null,
    ]);
    return c.json({ data: { stats, active_users, breakdown, costs, reconciliation_open, class_occupancy } });
  })
  /** GET /api/active-users?weeks=12: members with a running subscription at the end of each Auckland week. */
  .get("/active-users", requireStaff, inCurrentGym("members.read"), async (c) => {
    const { weeks } = readQuery(c, activeUsersQuery);
    return c.json({ data: { data: await activeUsers(c, weeks, pageMemberSummary(c)) } });
  })
  /** GET /api/user-breakdown: members by subscription state and by offering. */
  .get("/user-breakdown", requireStaff, inCurrentGym("members.read"), async (c) => c.json({ data: await userBreakdown(pageMemberSummary(c)) }))
  /** GET /api/cost-and-visit-breakdown: revenue, visits and cost per visit for this Auckland month and the five before. */
  .get("/cost-and-visit-breakdown", requireStaff, inCurrentGym("money.read"), async (c) =>
    c.json({ data: { data: await costAndVisitBreakdown(c.var.tenant, now(c)) } }),
  );
