import { Hono, type Context } from "hono";
import { memberListQuery, memberUpdateSchema, weeksQuery, type MemberListQuery } from "../../domain/schemas/members";
import { localDay } from "../../domain/dates";
import { readBody, readForm, readQuery } from "../core/body";
import { pageParam } from "../core/pagination";
import type { ApiEnv } from "../core/context";
import { now, requireStaff } from "../core/middleware";
import { ApiError, notFound } from "../core/errors";
import { assertCan, can, requireCan, type Capability } from "../core/permissions";
import { resolveGym } from "../core/gym-scope";
import { memberDetail } from "./detail";
import { deleteMember, updateMember } from "./edit";
import { findMember, type FoundMember } from "./find";
import { PHOTO_BODY_LIMIT, readPhoto, storePhoto } from "./photo";
import { subscriptionPeriods, weeklyCostPerVisit, weeklyVisits } from "./activity";
import { memberCredentials, memberPayments, memberVisits, priceChangeHistory } from "./history";
import { csvBody } from "./csv";
import { paymentEntities } from "../entities/payment";
import { entityContext } from "../entities/context";
import { eachMember, listMembers, type MemberFilters } from "./list";

function filtersFrom(c: Context<ApiEnv>, query: MemberListQuery, capability: Capability): { filters: MemberFilters; page: number } {
  const { gym, page, ...rest } = query;
  const gymId = resolveGym(c, gym);
  assertCan(c.var.user!, capability, gymId);
  return { filters: { ...rest, gymId }, page };
}

/** The member of the path's id, if the user holds `capability` in the member's home gym (403 otherwise). */
async function memberFor(c: Context<ApiEnv>, capability: Capability) {
  const found = await findMember(c.var.tenant, c.req.param("id")!);
  assertCan(c.var.user!, capability, found.membership.home_gym_id);
  return found;
}

/** What the user may do with this member: the member pages offer only these. */
const allowedOn = (c: Context<ApiEnv>, found: FoundMember) => {
  const gym = found.membership.home_gym_id;
  const u = c.var.user!;
  return {
    edit: can(u, "members.write", gym),
    delete: can(u, "members.delete", gym),
    see_money: can(u, "money.read", gym),
    change_membership: can(u, "subscriptions.write", gym),
    take_money: can(u, "money.write", gym),
  };
};

export const memberRoutes = new Hono<ApiEnv>()
  /** GET /api/members?status=&offering=&price=&tag=&gym=&q=&sort=&dir=&page= → { data: { data: [...], meta } } */
  .get("/members", requireStaff, requireCan("members.read"), async (c) => {
    const { filters, page } = filtersFrom(c, readQuery(c, memberListQuery), "members.read");
    return c.json({ data: await listMembers(c.var.tenant, filters, page, { ...entityContext(c), countsMayLag: true }) });
  })
  /**
   * POST /api/members/export (the list's filters as JSON or a form) → text/csv of every matching member,
   * in list order, streamed in batches: memory stays flat at 100,000 members.
   */
  .post("/members/export", requireStaff, requireCan("members.export"), async (c) => {
    const { filters } = filtersFrom(c, await readBody(c, memberListQuery), "members.export");
    const at = now(c);
    const body = await csvBody(eachMember(c.var.tenant, filters, at));
    return c.body(body, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="members-${localDay(at)}.csv"` });
  })
  /** GET /api/members/{id}: the profile and the status card. Another organisation's member is 404. */
  .get("/members/:id{[0-9]+}", requireStaff, async (c) => {
    const found = await memberFor(c, "members.read");
    return c.json({ data: { ...(await memberDetail(c.var.tenant, found, entityContext(c))), can: allowedOn(c, found) } });
  })
  /** PUT /api/members/{id}: replaces the editable profile (memberUpdateSchema); 422 with field errors. */
  .put("/members/:id{[0-9]+}", requireStaff, async (c) => {
    const found = await memberFor(c, "members.write");
    const values = await readBody(c, memberUpdateSchema);
    // Moving a member to another gym needs the right there too.
    if (values.home_gym_id && values.home_gym_id !== found.membership.home_gym_id) assertCan(c.var.user!, "members.write", values.home_gym_id);
    await updateMember(c.var.tenant, found, values);
    const updated = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: { ...(await memberDetail(c.var.tenant, updated, entityContext(c))), can: allowedOn(c, updated) } });
  })
  /** DELETE /api/members/{id}: soft delete, for organisation and gym admins. Payments and visits stay. */
  .delete("/members/:id{[0-9]+}", requireStaff, async (c) => {
    const found = await memberFor(c, "members.delete");
    await deleteMember(c.var.tenant, found, now(c));
    return c.json({ data: { id: found.user.id, name: found.user.name, deleted: true } });
  })
  .get("/users/:id{[0-9]+}/payments", requireStaff, async (c) => {
    const found = await memberFor(c, "money.read");
    const page = await memberPayments(c.var.tenant, found.user.id, pageParam(c), (gymId) => can(c.var.user!, "money.write", gymId));
    // Each is SPEC's Payment (server/entities/payment.ts), with what the member page reads of its refunds beside it.
    const entities = await paymentEntities(
      c.var.tenant,
      page.data.map((p) => p.id),
    );
    return c.json({ data: { ...page, data: page.data.map((p) => ({ ...entities.get(p.id)!, ...p })) } });
  })
  .get("/users/:id{[0-9]+}/visits", requireStaff, async (c) => {
    const found = await memberFor(c, "visits.read");
    return c.json({ data: await memberVisits(c.var.tenant, found.user, pageParam(c)) });
  })
  .get("/members/:id{[0-9]+}/access-control-credentials", requireStaff, async (c) => {
    const found = await memberFor(c, "members.read");
    return c.json({ data: { data: await memberCredentials(c.var.tenant, found.user.id) } });
  })
  .get("/users/:id{[0-9]+}/price-change-history", requireStaff, async (c) => {
    const found = await memberFor(c, "money.read");
    return c.json({ data: { data: await priceChangeHistory(c.var.tenant, found.user.id) } });
  })
  /** POST /api/members/{id}/profile-picture (multipart, field `file`): JPEG, PNG or WebP up to 10 MB. */
  .post("/members/:id{[0-9]+}/profile-picture", requireStaff, async (c) => {
    const found = await memberFor(c, "members.write");
    if (!(c.req.header("content-type") ?? "").includes("multipart/form-data")) {
      throw new ApiError(415, "Send the photo as multipart/form-data, in a field named file.", "unsupported_media_type");
    }
    if (Number(c.req.header("content-length") ?? 0) > PHOTO_BODY_LIMIT) {
      throw new ApiError(413, "The photo is larger than 10 MB.", "payload_too_large", { file: ["The photo is larger than 10 MB"] });
    }
    const body = await readForm(c);
    await storePhoto(c.var.tenant, found.user.id, body.file);
    const updated = await findMember(c.var.tenant, c.req.param("id"));
    return c.json({ data: { ...(await memberDetail(c.var.tenant, updated, entityContext(c))), can: allowedOn(c, updated) } });
  })
  /** GET /api/members/{id}/profile-picture: the photo (its URL carries a version, so it may be cached). */
  .get("/members/:id{[0-9]+}/profile-picture", requireStaff, async (c) => {
    const found = await memberFor(c, "members.read");
    const photo = await readPhoto(c.var.tenant, found.user.id);
    if (!photo) throw notFound("This member has no photo.");
    return new Response(new Uint8Array(photo.bytes), {
      headers: { "Content-Type": photo.content_type, "Cache-Control": "private, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" },
    });
  })
  /** GET /api/members/{id}/weekly-visits?weeks=26 (1 to 104): successful visits per Auckland week. */
  .get("/members/:id{[0-9]+}/weekly-visits", requireStaff, async (c) => {
    const found = await memberFor(c, "visits.read");
    return c.json({ data: { data: await weeklyVisits(c.var.tenant, found.user.id, now(c), weeksParam(c)) } });
  })
  .get("/members/:id{[0-9]+}/weekly-cost-per-visit", requireStaff, async (c) => {
    const found = await memberFor(c, "money.read");
    return c.json({ data: { data: await weeklyCostPerVisit(c.var.tenant, found.user.id, now(c), weeksParam(c)) } });
  })
  .get("/members/:id{[0-9]+}/subscription-periods", requireStaff, async (c) => {
    const found = await memberFor(c, "money.read");
    return c.json({ data: { data: await subscriptionPeriods(c.var.tenant, found.user.id, now(c)) } });
  });

const weeksParam = (c: Context<ApiEnv>) => readQuery(c, weeksQuery).weeks;
