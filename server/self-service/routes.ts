import { Hono } from "hono";
import type { ApiEnv } from "../core/context";
import { now, requireMember } from "../core/middleware";
import { pageParam } from "../core/pagination";
import { memberPayments } from "../members/history";
import { memberSelfUpdateSchema } from "../../domain/schemas/members";
import { readBody } from "../core/body";
import { myDetails, saveMyDetails } from "./details";
import { myMembership, myReceipt } from "./membership";

/** A member's own account on the sign-up host (issue 31): read only here; the changes go through the same rules as staff's. */
export const selfServiceRoutes = new Hono<ApiEnv>()
  .get("/me/membership", requireMember, async (c) => c.json({ data: await myMembership(c.var.tenant, c.var.user!.row.id, now(c)) }))
  .get("/me/payments", requireMember, async (c) => c.json({ data: await memberPayments(c.var.tenant, c.var.user!.row.id, pageParam(c)) }))
  .get("/me/payments/:id{[0-9]+}/receipt", requireMember, async (c) =>
    c.json({ data: await myReceipt(c.var.tenant, c.var.user!.row.id, Number(c.req.param("id"))) }),
  )
  .get("/me/details", requireMember, async (c) => c.json({ data: await myDetails(c.var.tenant, c.var.user!.row.id) }))
  .put("/me/details", requireMember, async (c) => {
    const v = await readBody(c, memberSelfUpdateSchema);
    await saveMyDetails(c.var.tenant, c.var.user!.row.id, v, now(c));
    return c.json({ data: await myDetails(c.var.tenant, c.var.user!.row.id) });
  });
