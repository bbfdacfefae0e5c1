import { Hono } from "hono";
import { paymentListQuery } from "../../domain/schemas/money-lists";
import { readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { csvAttachment, csvStream } from "../core/csv";
import { scopedToGym } from "../core/gym-scope";
import { now, requireStaff } from "../core/middleware";
import { requireCan } from "../core/permissions";
import { eachPayment, listPayments, PAYMENT_CSV_HEADER, paymentCsvRow } from "./list";

/**
 * GET /api/payments and its CSV export (issue 12): the list's filters as a query string (or, for the export, a JSON
 * body or a form), for the gyms the user may see them in. The export streams in keyset batches.
 */
export const paymentListRoutes = new Hono<ApiEnv>()
  /** GET /api/payments?from=&to=&status=&method=&gym=&member=&q=&page= → { data: { data, totals, meta } } */
  .get("/payments", requireStaff, requireCan("money.read"), async (c) => {
    const q = readQuery(c, paymentListQuery);
    return c.json({ data: await listPayments(c.var.tenant, scopedToGym(c, q, "money.read"), q.page, now(c)) });
  })
  /** POST /api/payments/export: every matching payment as CSV, streamed. */
  .post("/payments/export", requireStaff, requireCan("money.read"), async (c) => {
    const at = now(c);
    const body = await csvStream(
      eachPayment(c.var.tenant, scopedToGym(c, await readBody(c, paymentListQuery), "money.read"), at),
      PAYMENT_CSV_HEADER,
      paymentCsvRow,
    );
    return c.body(body, 200, csvAttachment("payments", at));
  });
