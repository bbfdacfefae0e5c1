import { Hono, type Context } from "hono";
import { stream } from "hono/streaming";
import { z } from "zod";
import { dropFigures } from "../../cache/shared-figures";
import { memberListQuery, memberUpdateSchema } from "../../../domain/schemas/members";
import { localDay } from "../../../domain/dates";
import { readBody } from "../body";
import type { ApiEnv } from "../context";
import { invalid, zodErrors } from "../errors";
import { now, requireStaff } from "../middleware";
import { ApiError, forbidden, notFound } from "../errors";
import { isGymAdmin, isOrganisationAdmin } from "../users/current";
import { memberDetail } from "./detail";
import { deleteMember, updateMember } from "./edit";
import { findMember } from "./find";
import { PHOTO_MAX_BYTES, readPhoto, storePhoto } from "./photo";
import { subscriptionPeriods, weeklyCostPerVisit, weeklyVisits } from "./activity";
import { memberCredentials, memberPayments, memberVisits, priceChangeHistory } from "./history";
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
  })
  /** GET /api/members/{id}: the profile and the status card. Another organisation's member is 404. */
  .get("/members/:id{[0-9]+}", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: await memberDetail(c.var.tenant, found, now(c)) });
  })
  /** PUT /api/members/{id}: replaces the editable profile (memberUpdateSchema); 422 with field errors. */
  .put("/members/:id{[0-9]+}", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    const values = await readBody(c, memberUpdateSchema);
    await updateMember(c.var.tenant, found, values);
    await dropFigures(c.var.deps.db, c.var.tenant.organisationId);
    return c.json({ data: await memberDetail(c.var.tenant, await findMember(c.var.tenant, c.req.param("id")), now(c)) });
  })
  /** DELETE /api/members/{id}: soft delete, for organisation and gym admins. Payments and visits stay. */
  .delete("/members/:id{[0-9]+}", requireStaff, async (c) => {
    const user = c.var.user!;
    if (!isOrganisationAdmin(user) && !isGymAdmin(user)) throw forbidden("Only admins can delete members.");
    const found = await findMember(c.var.tenant, c.req.param("id"));
    await deleteMember(c.var.tenant, found, now(c));
    await dropFigures(c.var.deps.db, c.var.tenant.organisationId);
    return c.json({ data: { id: found.user.id, name: found.user.name, deleted: true } });
  })
  .get("/users/:id{[0-9]+}/payments", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: await memberPayments(c.var.tenant, found.user.id, pageParam(c)) });
  })
  .get("/users/:id{[0-9]+}/visits", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: await memberVisits(c.var.tenant, found.user.id, pageParam(c)) });
  })
  .get("/members/:id{[0-9]+}/access-control-credentials", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: { data: await memberCredentials(c.var.tenant, found.user.id) } });
  })
  .get("/users/:id{[0-9]+}/price-change-history", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: { data: await priceChangeHistory(c.var.tenant, found.user.id) } });
  })
  /** POST /api/members/{id}/profile-picture (multipart, field `file`): JPEG, PNG or WebP up to 10 MB. */
  .post("/members/:id{[0-9]+}/profile-picture", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    if (!(c.req.header("content-type") ?? "").includes("multipart/form-data")) {
      throw new ApiError(415, "Send the photo as multipart/form-data, in a field named file.", "unsupported_media_type");
    }
    if (Number(c.req.header("content-length") ?? 0) > PHOTO_MAX_BYTES + 64 * 1024) {
      throw new ApiError(413, "The photo is larger than 10 MB.", "payload_too_large", { file: ["The photo is larger than 10 MB"] });
    }
    const body = await c.req.parseBody();
    await storePhoto(c.var.tenant, found.user.id, body.file);
    return c.json({ data: await memberDetail(c.var.tenant, await findMember(c.var.tenant, c.req.param("id")), now(c)) });
  })
  /** GET /api/members/{id}/profile-picture: the photo (its URL carries a version, so it may be cached). */
  .get("/members/:id{[0-9]+}/profile-picture", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    const photo = await readPhoto(c.var.tenant, found.user.id);
    if (!photo) throw notFound("This member has no photo.");
    return new Response(new Uint8Array(photo.bytes), {
      headers: { "Content-Type": photo.content_type, "Cache-Control": "private, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" },
    });
  })
  /** GET /api/members/{id}/weekly-visits?weeks=26 (1 to 104): successful visits per Auckland week. */
  .get("/members/:id{[0-9]+}/weekly-visits", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: { data: await weeklyVisits(c.var.tenant, found.user.id, now(c), weeksParam(c)) } });
  })
  .get("/members/:id{[0-9]+}/weekly-cost-per-visit", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: { data: await weeklyCostPerVisit(c.var.tenant, found.user.id, now(c), weeksParam(c)) } });
  })
  .get("/members/:id{[0-9]+}/subscription-periods", requireStaff, async (c) => {
    const found = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: { data: await subscriptionPeriods(c.var.tenant, found.user.id, now(c)) } });
  });

const weeksMessage = "Weeks must be a whole number from 1 to 104";
const weeksSchema = z.object({
  weeks: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ invalid_type_error: weeksMessage }).int(weeksMessage).min(1, weeksMessage).max(104, weeksMessage).default(26)),
});

function weeksParam(c: Context<ApiEnv>): number {
  const parsed = weeksSchema.safeParse(c.req.query());
  if (!parsed.success) throw invalid(zodErrors(parsed.error));
  return parsed.data.weeks;
}

const pageSchema = z.object({ page: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number({ invalid_type_error: "Page must be a whole number from 1" }).int("Page must be a whole number from 1").min(1, "Page must be a whole number from 1").max(100_000).default(1)) });

function pageParam(c: Context<ApiEnv>): number {
  const parsed = pageSchema.safeParse(c.req.query());
  if (!parsed.success) throw invalid(zodErrors(parsed.error));
  return parsed.data.page;
}
