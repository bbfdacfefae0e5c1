import { isStaffHere } from "../core/current-user";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { priceRequest, privateLinkRequest } from "../../domain/schemas/offerings";
import { proRataRequest } from "../../domain/schemas/pro-rata";
import { signupUrl } from "../core/config";
import { findPrice, offeringGyms } from "../offerings/read";
import { entityContext } from "../entities/context";
import { priceEntities } from "../entities/price";
import { createPriceLink, revokeLink } from "../offerings/links";
import { organisationTerms } from "../offerings/rules";
import { assertMayChangePrice, deletePrice, setPriceArchived, updatePrice } from "../offerings/write";
import { surchargeTotalQuery } from "../../domain/schemas/surcharge";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { requireMember, requireStaff } from "../core/middleware";
import { notFound } from "../core/errors";
import { pricesOnSale } from "../signup/catalogue";
import { requireCan } from "../core/permissions";

const write = [requireStaff, requireCan("offerings.write")] as const;

/** A price as the API shows it (SPEC §3 Price), after a change. */
async function priceAnswer(c: Context<ApiEnv>, id: number) {
  const { price } = await findPrice(c.var.tenant, id);
  return (await priceEntities(c.var.tenant, [price], entityContext(c))).get(id)!;
}
import { priceForProRata, proRataAnswer } from "./pro-rata";
import { surchargeTotal } from "./surcharge";

/**
 * Staff who may read members (quoting a price at the desk), or a member joining online (SPEC §7 lists both calls
 * among the sign-up's), who may quote only the prices on sale to them at their gym.
 */
const staffOrJoiner: MiddlewareHandler<ApiEnv> = async (c, next) => {
  if (c.var.user && !isStaffHere(c.var.user)) return requireMember(c, next);
  return requireStaff(c, async () => {
    await requireCan("members.read")(c, next);
  });
};

/** For a member, the price must be one on sale to them (another organisation's, or a private one, is not found). */
async function onSaleToJoiner(c: Context<ApiEnv>, priceId: number) {
  const u = c.var.user!;
  if (isStaffHere(u)) return;
  const on = await pricesOnSale(c.var.tenant, u.gym!.id, u.signup.linkId);
  if (!on.some((p) => p.id === priceId)) throw notFound("No such price.");
}

export const priceRoutes = new Hono<ApiEnv>()
  /**
   * POST /api/prices/{id}/pro-rata { start_date, billing_date? } → the pro-rata amount, the days it covers of
   * which period, and the first full charge. A calculation: it changes nothing. For staff who can read members
   * (quoting a price at the desk), and for a member joining online, for the prices on sale to them.
   */
  .post("/prices/:id{[0-9]+}/pro-rata", staffOrJoiner, async (c) => {
    const { start_date, billing_date } = await readBody(c, proRataRequest);
    const id = pathId(c, "No such price.");
    await onSaleToJoiner(c, id);
    const price = await priceForProRata(c.var.tenant, id);
    return c.json({ data: proRataAnswer(price, start_date, billing_date) });
  })
  /** PUT /api/prices/{id}: 422 on the amount, frequency or term while members pay it (the bulk price change moves them). */
  .put("/prices/:id{[0-9]+}", ...write, async (c) => {
    const id = pathId(c, "No such price.");
    const input = await readBody(c, priceRequest);
    const { price, offering } = await findPrice(c.var.tenant, id);
    await updatePrice(c.var.tenant, c.var.user!, price, offering, input);
    return c.json({ data: await priceAnswer(c, id) });
  })
  /** DELETE /api/prices/{id}: 409 `price_in_use` when members hold or held it (archive it instead). */
  .delete("/prices/:id{[0-9]+}", ...write, async (c) => {
    const id = pathId(c, "No such price.");
    const { offering } = await findPrice(c.var.tenant, id);
    await assertMayChangePrice(c.var.tenant, c.var.user!, offering);
    await deletePrice(c.var.tenant, id);
    return c.json({ data: { deleted: true } });
  })
  /** DELETE /api/prices/{id}/archive: no longer sold; its members keep it. */
  .delete("/prices/:id{[0-9]+}/archive", ...write, async (c) => {
    const id = pathId(c, "No such price.");
    const { offering } = await findPrice(c.var.tenant, id);
    await assertMayChangePrice(c.var.tenant, c.var.user!, offering);
    await setPriceArchived(c.var.tenant, id, true);
    return c.json({ data: await priceAnswer(c, id) });
  })
  /** POST /api/prices/{id}/restore: sold again, if the organisation still has its frequency on. */
  .post("/prices/:id{[0-9]+}/restore", ...write, async (c) => {
    const id = pathId(c, "No such price.");
    const { offering } = await findPrice(c.var.tenant, id);
    await assertMayChangePrice(c.var.tenant, c.var.user!, offering);
    await setPriceArchived(c.var.tenant, id, false, await organisationTerms(c.var.tenant));
    return c.json({ data: await priceAnswer(c, id) });
  })
  /** POST /api/prices/{id}/private-links { age_bypass }: a sign-up link to a private price, with its address at each gym. */
  .post("/prices/:id{[0-9]+}/private-links", ...write, async (c) => {
    const id = pathId(c, "No such price.");
    const { age_bypass } = await readBody(c, privateLinkRequest);
    const { price, offering } = await findPrice(c.var.tenant, id);
    await assertMayChangePrice(c.var.tenant, c.var.user!, offering);
    const at = await offeringGyms(c.var.tenant, offering);
    return c.json({ data: await createPriceLink(c.var.tenant, price, offering, at, age_bypass, c.var.user!.row.id, signupUrl(c.var.deps.config)) }, 201);
  })
  /** DELETE /api/prices/{id}/private-links/{linkId}: the link stops working at once. */
  .delete("/prices/:id{[0-9]+}/private-links/:linkId{[0-9]+}", ...write, async (c) => {
    const id = pathId(c, "No such price.");
    const { offering } = await findPrice(c.var.tenant, id);
    await assertMayChangePrice(c.var.tenant, c.var.user!, offering);
    await revokeLink(c.var.tenant, pathId(c, "No such link.", "linkId"), id);
    return c.json({ data: { revoked: true } });
  })
  /**
   * GET /api/surcharge-total?price_id=&payment_type=&gym_id= → each charge and the first (with the joining fee),
   * with the gym's card surcharge when paying by card. For staff, and for a member joining online (their own gym,
   * the prices on sale to them).
   */
  .get("/surcharge-total", staffOrJoiner, async (c) => {
    const q = readQuery(c, surchargeTotalQuery);
    const u = c.var.user!;
    if (!isStaffHere(u)) await onSaleToJoiner(c, q.price_id);
    return c.json({ data: await surchargeTotal(c.var.tenant, isStaffHere(u) ? q : { ...q, gym_id: u.gym!.id }) });
  });
