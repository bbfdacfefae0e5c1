import { Hono, type Context } from "hono";
import { stream } from "hono/streaming";
import { z } from "zod";
import { memberListQuery } from "../../../domain/schemas/members";
import { localDay } from "../../../domain/dates";
import { readBody } from "../body";
import type { ApiEnv } from "../context";
import { invalid, zodErrors } from "../errors";
import { now, requireStaff } from "../middleware";
import { isOrganisationAdmin } from "../users/current";
import { csvHeader, csvRows } from "./csv";
import { eachMember, listMembers, type MemberFilters } from "./list";

/**
 * Which gym's members: the current gym unless the request names another. Every gym ("all") and any gym
 * of the organisation are for organisation admins; other staff may name the gyms they work in.
 */
function resolveGym(c: Context<ApiEnv>, gym: number | "all" | undefined): number | null {
  const user = c.var.user!;
  const admin = isOrganisationAdmin(user);
  if (gym === undefined) return c.var.tenant.gymId;
  if (gym === "all") {
    if (!admin) throw invalid({ gym: ["Only organisation admins can list the members of every gym"] });
    return null;
  }
  if (!user.gyms.some((g) => g.id === gym)) throw invalid({ gym: ["Choose a gym from the list"] });
  return gym;
}

function filtersFrom(c: Context<ApiEnv>, raw: unknown): { filters: MemberFilters; page: number } {
  const parsed = memberListQuery.safeParse(raw);
  if (!parsed.success) throw invalid(zodErrors(parsed.error));
  const { gym, page, ...rest } = parsed.data;
  return { filters: { ...rest, gymId: resolveGym(c, gym) }, page };
}

export const memberRoutes = new Hono<ApiEnv>()
  /** GET /api/members?status=&offering=&price=&tag=&gym=&q=&sort=&dir=&page= → { data: { data: [...], meta } } */
  .get("/members", requireStaff, async (c) => {
    const { filters, page } = filtersFrom(c, c.req.query());
    return c.json({ data: await listMembers(c.var.tenant, filters, page, now(c)) });
  })
  /**
   * POST /api/members/export (the list's filters as JSON or a form) → text/csv of every matching member,
   * in list order, streamed in batches: memory stays flat at 100,000 members.
   */
  .post("/members/export", requireStaff, async (c) => {
    const { filters } = filtersFrom(c, await readBody(c, z.record(z.unknown())));
    const at = now(c);
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", `attachment; filename="members-${localDay(at)}.csv"`);
    return stream(c, async (out) => {
      await out.write(csvHeader());
      for await (const batch of eachMember(c.var.tenant, filters, at)) {
        if (out.aborted) break;
        await out.write(csvRows(batch));
      }
    });
  });
