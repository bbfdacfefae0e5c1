import { Hono } from "hono";
import { classOccupancyQuery } from "../../domain/schemas/class-attendance";
import { readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { now, requireStaff } from "../core/middleware";
import { assertCan, inCurrentGym } from "../core/permissions";
import { and, eq, isNull } from "drizzle-orm";
import { organisation_users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { notFound } from "../core/errors";
import { classOccupancyByWeek, memberClasses } from "./attendance-figures";

/** A member of this organisation (not deleted) and their home gym, whose page staff read. */
async function memberHere(t: Tenant, userId: number) {
  if (!Number.isSafeInteger(userId)) throw notFound("No such member.");
  const [m] = await t.db
    .select({ user_id: organisation_users.user_id, home_gym_id: organisation_users.home_gym_id })
    .from(organisation_users)
    .where(
      t.where(organisation_users, and(eq(organisation_users.user_id, userId), eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at))),
    );
  if (!m) throw notFound("No such member.");
  return m;
}

/** Attendance as staff read it (issue 34): a member's classes, and class occupancy per week. */
export const attendRoutes = new Hono<ApiEnv>()
  /** GET /api/members/{id}/classes: classes attended, missed and cancelled late; the next and the last few. */
  .get("/members/:id{[0-9]+}/classes", requireStaff, async (c) => {
    const member = await memberHere(c.var.tenant, Number(c.req.param("id")));
    assertCan(c.var.user!, "members.read", member.home_gym_id);
    assertCan(c.var.user!, "classes.read", member.home_gym_id);
    return c.json({ data: await memberClasses(c.var.tenant, member.user_id, now(c)) });
  })
  /** GET /api/class-occupancy?weeks=8: places taken of places offered, per Auckland week, at the current gym. */
  .get("/class-occupancy", requireStaff, inCurrentGym("classes.read"), async (c) => {
    const { weeks } = readQuery(c, classOccupancyQuery);
    return c.json({ data: { data: await classOccupancyByWeek(c.var.tenant, now(c), weeks) } });
  });
