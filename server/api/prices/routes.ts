import { Hono } from "hono";
import { proRataRequest } from "../../../domain/schemas/pro-rata";
import { surchargeTotalQuery } from "../../../domain/schemas/surcharge";
import { pathId, readBody, readQuery } from "../body";
import type { ApiEnv } from "../context";
import { requireStaff } from "../middleware";
import { requireCan } from "../permissions";
import { priceForProRata, proRataAnswer } from "./pro-rata";
import { surchargeTotal } from "./surcharge";

export const priceRoutes = new Hono<ApiEnv>()
  /**
   * POST /api/prices/{id}/pro-rata { start_date, billing_date? } → the pro-rata amount, the days it covers of
   * which period, and the first full charge. A calculation: it changes nothing. For staff who can read members
   * (quoting a price at the desk); the sign-up app's own use comes with it (issue 13).
   */
  .post("/prices/:id{[0-9]+}/pro-rata", requireStaff, requireCan("members.read"), async (c) => {
    const { start_date, billing_date } = await readBody(c, proRataRequest);
    const price = await priceForProRata(c.var.tenant, pathId(c, "No such price."));
    return c.json({ data: proRataAnswer(price, start_date, billing_date) });
  })
  /**
   * GET /api/surcharge-total?price_id=&payment_type=&gym_id= → each charge and the first (with the joining fee),
   * with the gym's card surcharge when paying by card. Staff for now; the sign-up app's use comes with issue 13.
   */
  .get("/surcharge-total", requireStaff, requireCan("members.read"), async (c) => c.json({ data: await surchargeTotal(c.var.tenant, readQuery(c, surchargeTotalQuery)) }));
