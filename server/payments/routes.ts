import { Hono, type Context } from "hono";
import { localDay } from "../../domain/dates";
import { paymentListQuery, visitListQuery } from "../../domain/schemas/money-lists";
import { readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { csvStream } from "../core/csv";
import { resolveGym } from "../core/gym-scope";
import { now, requireStaff } from "../core/middleware";
import { assertCan, requireCan, type Capability } from "../core/permissions";
import { eachVisit, listVisits, VISIT_CSV_HEADER, visitCsvRow } from "../visits/list";
import { eachPayment, listPayments, PAYMENT_CSV_HEADER, paymentCsvRow } from "./list";

/**
 * GET /api/payments and /api/visits, and their CSV exports (issue 12): the lists' filters as a query string (or,
 * for the exports, a JSON body or a form), for the gyms the user may see them in. Exports stream in keyset batches.
 */
function scoped<T extends { gym?: number | "all" }>(c: Context<ApiEnv>, q: T, capability: Capability) {
  const { gym, ...rest } = q;
  const gymId = resolveGym(c, gym);
  assertCan(c.var.user!, capability, gymId);
  return { ...rest, gymId };
}

const attachment = (name: string, at: Date) => ({ "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}-${localDay(at)}.csv"` });

export const paymentListRoutes = new Hono<ApiEnv>()
  /** GET /api/payments?from=&to=&status=&method=&gym=&member=&q=&page= → { data: { data, totals, meta } } */
  .get("/payments", requireStaff, requireCan("money.read"), async (c) => {
    const q = readQuery(c, paymentListQuery);
    return c.json({ data: await listPayments(c.var.tenant, scoped(c, q, "money.read"), q.page, now(c)) });
  })
  /** POST /api/payments/export: every matching payment as CSV, streamed. */
  .post("/payments/export", requireStaff, requireCan("money.read"), async (c) => {
    const at = now(c);
    const body = await csvStream(eachPayment(c.var.tenant, scoped(c, await readBody(c, paymentListQuery), "money.read"), at), PAYMENT_CSV_HEADER, paymentCsvRow);
    return c.body(body, 200, attachment("payments", at));
  })
  /** GET /api/visits?from=&to=&result=&gym=&member=&q=&page= → { data: { data, totals, meta } } */
  .get("/visits", requireStaff, requireCan("members.read"), async (c) => {
    const q = readQuery(c, visitListQuery);
    return c.json({ data: await listVisits(c.var.tenant, scoped(c, q, "members.read"), q.page, now(c)) });
  })
  /** POST /api/visits/export: every matching visit as CSV, streamed. */
  .post("/visits/export", requireStaff, requireCan("members.read"), async (c) => {
    const at = now(c);
    const body = await csvStream(eachVisit(c.var.tenant, scoped(c, await readBody(c, visitListQuery), "members.read"), at), VISIT_CSV_HEADER, visitCsvRow);
    return c.body(body, 200, attachment("visits", at));
  });
