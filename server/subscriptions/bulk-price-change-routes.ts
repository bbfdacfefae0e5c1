import { mailSite } from "../member-mail/brand";
import { Hono, type Context } from "hono";
import { bulkPriceChangeConfirm, bulkPriceChangeRequest, bulkReportQuery, type BulkPriceChangeRequest } from "../../domain/schemas/bulk-price-change";
import { bulkPriceChangeReport, createBulkPriceChange, previewBulkPriceChange, recentBulkPriceChanges, type BulkFilters } from "./bulk-price-change";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";
import { resolveGym } from "../core/gym-scope";
import { now, requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";

/**
 * The bulk price change (issue 12; /members/change-price): preview, confirm (202: a background job moves the
 * members, server/subscriptions/bulk-price-change.ts), and the change's progress and report.
 */
function filtersOf(c: Context<ApiEnv>, req: BulkPriceChangeRequest): BulkFilters {
  const gymId = resolveGym(c, req.gym);
  assertCan(c.var.user!, "subscriptions.write", gymId);
  return { gymId, status: req.status, tag: req.tag, q: req.q };
}

export const bulkPriceChangeRoutes = new Hono<ApiEnv>()
  /** POST /api/members/change-price/preview: how many members, the first ten and what happens to each, the e-mail. */
  .post("/members/change-price/preview", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const req = await readBody(c, bulkPriceChangeRequest);
    return c.json({ data: await previewBulkPriceChange(c.var.tenant, req, filtersOf(c, req), now(c), mailSite(c.var.deps.config)) });
  })
  /** POST /api/members/change-price: confirms it (the same body and the form's `key`); 202 with the change's id. */
  .post("/members/change-price", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const req = await readBody(c, bulkPriceChangeConfirm);
    const made = await createBulkPriceChange(c.var.tenant, req, filtersOf(c, req), c.var.user!.row.id, now(c));
    const jobs = c.var.deps.jobs;
    if (made.created && jobs) c.var.afterCommit(async () => jobs.start("bulk-price-changes"));
    return c.json({ data: made }, 202);
  })
  /** GET /api/members/change-price: the organisation's recent bulk changes. */
  .get("/members/change-price", requireStaff, requireCan("subscriptions.write"), async (c) => {
    return c.json({ data: await recentBulkPriceChanges(c.var.tenant) });
  })
  /** GET /api/members/change-price/{id}?show=skipped|changed|all&page=: progress, counts and the members a page at a time. */
  .get("/members/change-price/:id{[0-9]+}", requireStaff, requireCan("subscriptions.write"), async (c) => {
    const q = readQuery(c, bulkReportQuery);
    const report = await bulkPriceChangeReport(c.var.tenant, pathId(c, "No such price change."), q.page, q.show);
    if (!report) throw notFound("No such price change.");
    return c.json({ data: report });
  });
