import { Hono, type Context, type MiddlewareHandler } from "hono";
import { proRataRequest } from "../../../domain/schemas/pro-rata";
import { surchargeTotalQuery } from "../../../domain/schemas/surcharge";
import { pathId, readBody, readQuery } from "../body";
import type { ApiEnv } from "../context";
import { requireMember, requireStaff } from "../middleware";
import { notFound } from "../errors";
import { pricesOnSale } from "../../signup/catalogue";
import { requireCan } from "../permissions";
import { priceForProRata, proRataAnswer } from "./pro-rata";
import { surchargeTotal } from "./surcharge";

/**
 * Staff who may read members (quoting a price at the desk), or a member joining online (SPEC §7 lists both calls
 * among the sign-up's), who may quote only the prices on sale to them at their gym.
 */
const staffOrJoiner: MiddlewareHandler<ApiEnv> = async (c, next) => {
  if (c.var.user && !c.var.user.row.is_staff) return requireMember(c, next);
  return requireStaff(c, async () => {
    await requireCan("members.read")(c, next);
  });
};

/** For a member, the price must be one on sale to them (another organisation's, or a private one, is not found). */
async function onSaleToJoiner(c: Context<ApiEnv>, priceId: number) {
  const u = c.var.user!;
  if (u.row.is_staff) return;
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
  /**
   * GET /api/surcharge-total?price_id=&payment_type=&gym_id= → each charge and the first (with the joining fee),
   * with the gym's card surcharge when paying by card. For staff, and for a member joining online (their own gym,
   * the prices on sale to them).
   */
  .get("/surcharge-total", staffOrJoiner, async (c) => {
    const q = readQuery(c, surchargeTotalQuery);
    const u = c.var.user!;
    if (!u.row.is_staff) await onSaleToJoiner(c, q.price_id);
    return c.json({ data: await surchargeTotal(c.var.tenant, u.row.is_staff ? q : { ...q, gym_id: u.gym!.id }) });
  });
