import { Hono, type Context } from "hono";
import { frequenciesOnOffer, offeringTypesAllowed } from "../../domain/offering";
import { offeringRequest, offeringsQuery, priceRequest } from "../../domain/schemas/offerings";
import { signupUrl } from "../core/config";
import { findOffering, listOfferings, offeringDetail, offeringGyms, uniqueMemberships } from "./read";
import { entityContext } from "../entities/context";
import { signupAddress } from "../core/links";
import { organisationTerms } from "./rules";
import { createOffering, createPrice, deleteOffering, setOfferingArchived, updateOffering } from "./write";
import { eq } from "drizzle-orm";
import { gyms } from "../core/db/schema";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";
import { requireStaff } from "../core/middleware";
import { can, requireCan } from "../core/permissions";
import { isOrganisationAdmin } from "../core/current-user";

const read = [requireStaff, requireCan("offerings.read")] as const;
const write = [requireStaff, requireCan("offerings.write")] as const;

/**
 * One offering as its page and its form need it: the offering, its prices with their private links, and what this
 * user may change of it (the page offers only that; the API checks again on every change).
 */
async function offeringAnswer(c: Context<ApiEnv>, id: number) {
  const t = c.var.tenant;
  const user = c.var.user!;
  const detail = await offeringDetail(t, id, entityContext(c));
  const gymAdminOfAll = !detail.all_gyms_access && detail.gyms.every((g) => can(user, "offerings.write", g.id));
  const org = isOrganisationAdmin(user);
  const offering = org || (gymAdminOfAll && !detail.mandated);
  return {
    ...detail,
    // A public price's join links: one per open gym it is sold at (issue 32); a private price has its own links.
    prices: detail.prices.map((p) => ({
      ...p,
      join_urls:
        p.private || p.archived_at || detail.archived_at
          ? []
          : detail.gyms.filter((g) => !g.archived && (p.gym_id === null || p.gym_id === g.id)).map((g) => ({ gym: g.name, url: signupAddress(signupUrl(c.var.deps.config), g.uuid, { price: p.id }) })),
    })),
    may: { change: offering, hours: offering && (org || !detail.hours_mandated), prices: offering && (org || !detail.prices_mandated), mandate: org },
  };
}

/** What an offering's form may offer: the types and billing frequencies the organisation allows, and its gyms. */
async function formOptions(c: Context<ApiEnv>) {
  const t = c.var.tenant;
  const terms = await organisationTerms(t);
  const gymList = await t.db.select({ id: gyms.id, name: gyms.name }).from(gyms).where(t.where(gyms)).orderBy(gyms.name);
  return {
    enable_offerings: terms.offering_permissions.enable_offerings,
    types: offeringTypesAllowed(terms.offering_permissions),
    frequencies: frequenciesOnOffer(terms.price_frequencies),
    price_frequencies: terms.price_frequencies,
    gyms: gymList.filter((g) => can(c.var.user!, "offerings.write", g.id)),
    may_mandate: isOrganisationAdmin(c.var.user!),
    may_sell_everywhere: can(c.var.user!, "offerings.write", null),
  };
}

/** Offerings and their prices (SPEC §7 "Offerings and prices"; issue 14). Changes: server/offerings/write.ts. */
export const offeringRoutes = new Hono<ApiEnv>()
  /** GET /api/offerings?status=active|archived|all (default all): each with its gyms, prices and members. */
  .get("/offerings", ...read, async (c) => {
    const { status } = readQuery(c, offeringsQuery);
    return c.json({ data: { data: await listOfferings(c.var.tenant, status, entityContext(c)) } });
  })
  /** GET /api/offerings/form-options: the types, frequencies and gyms an offering's form may offer this user. */
  .get("/offerings/form-options", ...read, async (c) => c.json({ data: await formOptions(c) }))
  .post("/offerings", ...write, async (c) => {
    const input = await readBody(c, offeringRequest);
    const id = await createOffering(c.var.tenant, c.var.user!, input);
    return c.json({ data: await offeringAnswer(c, id) }, 201);
  })
  .get("/offerings/:id{[0-9]+}", ...read, async (c) => c.json({ data: await offeringAnswer(c, pathId(c, "No such offering.")) }))
  .put("/offerings/:id{[0-9]+}", ...write, async (c) => {
    const id = pathId(c, "No such offering.");
    const input = await readBody(c, offeringRequest);
    await updateOffering(c.var.tenant, c.var.user!, id, input);
    return c.json({ data: await offeringAnswer(c, id) });
  })
  /** DELETE /api/offerings/{id}: 409 `offering_in_use` when members hold or held any of its prices (archive it instead). */
  .delete("/offerings/:id{[0-9]+}", ...write, async (c) => {
    await deleteOffering(c.var.tenant, c.var.user!, pathId(c, "No such offering."));
    return c.json({ data: { deleted: true } });
  })
  .delete("/offerings/:id{[0-9]+}/archive", ...write, async (c) => {
    const id = pathId(c, "No such offering.");
    await setOfferingArchived(c.var.tenant, c.var.user!, id, true);
    return c.json({ data: await offeringAnswer(c, id) });
  })
  .post("/offerings/:id{[0-9]+}/restore", ...write, async (c) => {
    const id = pathId(c, "No such offering.");
    await setOfferingArchived(c.var.tenant, c.var.user!, id, false);
    return c.json({ data: await offeringAnswer(c, id) });
  })
  .get("/offerings/:id{[0-9]+}/prices", ...read, async (c) => c.json({ data: { data: (await offeringAnswer(c, pathId(c, "No such offering."))).prices } }))
  .post("/offerings/:id{[0-9]+}/prices", ...write, async (c) => {
    const id = pathId(c, "No such offering.");
    const input = await readBody(c, priceRequest);
    const priceId = await createPrice(c.var.tenant, c.var.user!, id, input);
    return c.json({ data: (await offeringAnswer(c, id)).prices.find((p) => p.id === priceId)! }, 201);
  })
  /** GET /api/gyms/{gymId}/offerings: the live offerings sold at a gym of this organisation. */
  .get("/gyms/:gymId{[0-9]+}/offerings", ...read, async (c) => {
    const gymId = pathId(c, "No such gym.", "gymId");
    const t = c.var.tenant;
    const [gym] = await t.db.select({ id: gyms.id }).from(gyms).where(t.where(gyms, eq(gyms.id, gymId)));
    if (!gym) throw notFound("No such gym.");
    const list = await listOfferings(t, "active", entityContext(c));
    return c.json({ data: { data: list.filter((o) => o.all_gyms_access || o.gyms.some((g) => g.id === gymId)) } });
  })
  /** GET /api/gyms/{gymId}/offerings/{offeringId}/unique-memberships: members with a live membership of it there, each once. */
  .get("/gyms/:gymId{[0-9]+}/offerings/:offeringId{[0-9]+}/unique-memberships", ...read, async (c) => {
    const t = c.var.tenant;
    const gymId = pathId(c, "No such gym.", "gymId");
    const o = await findOffering(t, pathId(c, "No such offering.", "offeringId"));
    if (!(await offeringGyms(t, o)).some((g) => g.id === gymId)) throw notFound("This offering is not sold at that gym.");
    return c.json({ data: { gym_id: gymId, offering_id: o.id, unique_memberships: await uniqueMemberships(t, o.id, gymId) } });
  });
