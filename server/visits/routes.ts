import { Hono } from "hono";
import { visitListQuery } from "../../domain/schemas/money-lists";
import { readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { csvAttachment, csvStream } from "../core/csv";
import { scopedToGym } from "../core/gym-scope";
import { now, requireStaff } from "../core/middleware";
import { requireCan } from "../core/permissions";
import { eachVisit, listVisits, VISIT_CSV_HEADER, visitCsvRow } from "./list";

/** GET /api/visits and its CSV export (issue 12), as the payments list (../payments/routes.ts). */
export const visitListRoutes = new Hono<ApiEnv>()
  /** GET /api/visits?from=&to=&result=&gym=&member=&q=&page= → { data: { data, totals, meta } } */
  .get("/visits", requireStaff, requireCan("visits.read"), async (c) => {
    const q = readQuery(c, visitListQuery);
    return c.json({ data: await listVisits(c.var.tenant, scopedToGym(c, q, "visits.read"), q.page, now(c)) });
  })
  /** POST /api/visits/export: every matching visit as CSV, streamed. */
  .post("/visits/export", requireStaff, requireCan("visits.read"), async (c) => {
    const at = now(c);
    const body = await csvStream(eachVisit(c.var.tenant, scopedToGym(c, await readBody(c, visitListQuery), "visits.read"), at), VISIT_CSV_HEADER, visitCsvRow);
    return c.body(body, 200, csvAttachment("visits", at));
  });
