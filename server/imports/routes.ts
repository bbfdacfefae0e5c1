import { Hono, type Context } from "hono";
import { z } from "zod";
import { DATE_ORDERS, IMPORT_FIELDS, type ColumnTarget, type DateOrder } from "../../domain/imports";
import { flag } from "../../domain/schemas/fields";
import { findGym } from "../core/find-gym";
import { importablePrices, plansInFile } from "./analyse";
import { confirmImport, createImport, discardImport, fileOf, findImport, importView, listImports, updateImport } from "./manage";
import { rejectedRowsCsv } from "./rejected";
import { inviteImported } from "./run";
import { pathId, readBody, readForm } from "../core/body";
import type { ApiEnv } from "../core/context";
import { ApiError, invalid } from "../core/errors";
import { publicOrigin } from "../core/links";
import { now, requireStaff } from "../core/middleware";
import { assertCan, requireCan } from "../core/permissions";

/**
 * Member imports (issue 15; pages /gyms/{id}/imports…): staff who may change a gym's members bring a file from the
 * gym's old system, match its columns, dry-run it, and confirm; the job does the rest (server/imports/run.ts).
 */
const writer = [requireStaff, requireCan("members.write")] as const;

const targets = ["ignore", ...Object.keys(IMPORT_FIELDS)] as [ColumnTarget, ...ColumnTarget[]];
const settingsBody = z.object({
  mapping: z.array(z.enum(targets, { errorMap: () => ({ message: "Choose a member field or Ignore for each column" }) }), { required_error: "Give each column a field or Ignore" }).max(500),
  date_order: z.enum(Object.keys(DATE_ORDERS) as [DateOrder, ...DateOrder[]], { errorMap: () => ({ message: "Choose how the file writes dates" }) }),
  /** Plan name → price id, or 0 for no membership; absent, the matches so far stay. */
  plans: z.record(z.string().max(200), z.coerce.number().int().min(0)).optional(),
  import_errors: flag,
  invite: flag,
});
const pastedBody = z.object({ csv: z.string({ required_error: "Paste the file's text, or upload the file" }).min(1, "Paste the file's text, or upload the file"), filename: z.string().max(200).optional() });

/** The gym in the path: this organisation's (else 404), one whose members the user may change (else 403). */
async function gymOf(c: Context<ApiEnv>) {
  const id = pathId(c, "No such gym.");
  await findGym(c.var.tenant, id);
  assertCan(c.var.user!, "members.write", id);
  return id;
}

/** The import in the path, of this organisation (else 404), at a gym the user may import into (else 403). */
async function importOf(c: Context<ApiEnv>) {
  const imp = await findImport(c.var.tenant, pathId(c, "No such import."));
  assertCan(c.var.user!, "members.write", imp.gym_id);
  return imp;
}

export const importRoutes = new Hono<ApiEnv>()
  .get("/gyms/:id{[0-9]+}/imports", ...writer, async (c) => c.json({ data: { data: await listImports(c.var.tenant, await gymOf(c)) } }))
  /** POST /api/gyms/{id}/imports: multipart (file), or JSON { csv, filename? } for a pasted file. */
  .post("/gyms/:id{[0-9]+}/imports", ...writer, async (c) => {
    const gymId = await gymOf(c);
    let content: string;
    let filename: string;
    if ((c.req.header("content-type") ?? "").startsWith("multipart/form-data")) {
      const form = await readForm(c);
      const file = form.file;
      if (!(file instanceof Blob) || file.size === 0) throw invalid({ file: ["Choose the CSV file to upload"] });
      content = await file.text();
      filename = (file as File).name || "upload.csv";
    } else {
      const body = await readBody(c, pastedBody);
      content = body.csv;
      filename = body.filename ?? "pasted.csv";
    }
    const created = await createImport(c.var.tenant, gymId, c.var.user!.row.id, filename, content, now(c));
    return c.json({ data: importView(created) }, 201);
  })
  .get("/imports/:id{[0-9]+}", ...writer, async (c) => c.json({ data: importView(await importOf(c)) }))
  /** GET /api/imports/{id}/prices: the prices a plan name may be matched to. */
  .get("/imports/:id{[0-9]+}/prices", ...writer, async (c) => {
    await importOf(c);
    return c.json({ data: { data: await importablePrices(c.var.tenant) } });
  })
  /** GET /api/imports/{id}/plans: the plan names in the file as the import reads it now, with their matches (guessed at upload). */
  .get("/imports/:id{[0-9]+}/plans", ...writer, async (c) => {
    const imp = await importOf(c);
    return c.json({ data: { data: await plansInFile(c.var.tenant, await fileOf(c.var.tenant, imp.id), imp) } });
  })
  /** PUT /api/imports/{id} { mapping, date_order, plans, import_errors, invite }: saved, and the dry run for them answered. */
  .put("/imports/:id{[0-9]+}", ...writer, async (c) => {
    const imp = await importOf(c);
    return c.json({ data: importView(await updateImport(c.var.tenant, imp, await readBody(c, settingsBody), now(c))) });
  })
  .post("/imports/:id{[0-9]+}/confirm", ...writer, async (c) => {
    const queued = await confirmImport(c.var.tenant, await importOf(c), now(c));
    const jobs = c.var.deps.jobs;
    if (jobs) c.var.afterCommit(async () => jobs.start("member-imports"));
    return c.json({ data: importView(queued) }, 202);
  })
  .delete("/imports/:id{[0-9]+}", ...writer, async (c) => {
    await discardImport(c.var.tenant, await importOf(c));
    return c.json({ data: { discarded: true } });
  })
  /** GET /api/imports/{id}/rejected: the rows not imported, with why, as CSV. */
  .get("/imports/:id{[0-9]+}/rejected", ...writer, async (c) => {
    const imp = await importOf(c);
    const name = imp.filename.replace(/\.csv$/i, "").replace(/[^\w.-]+/g, "-").slice(0, 80) || "import";
    return c.body(await rejectedRowsCsv(c.var.tenant, imp), 200, { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}-rejected.csv"` });
  })
  /** POST /api/imports/{id}/invite: invitations for its members who have not set a password and were never invited. */
  .post("/imports/:id{[0-9]+}/invite", ...writer, async (c) => {
    const imp = await importOf(c);
    if (imp.status !== "done") throw new ApiError(409, "Invitations go once the import is done.", "import_not_done");
    const origin = publicOrigin(c, "backoffice");
    const mails = await inviteImported(c.var.tenant, imp.id, (token) => `${origin}/set-password?token=${token}`, now(c));
    c.var.afterCommit(async () => {
      for (const mail of mails) await c.var.deps.mailer.send(mail);
    });
    return c.json({ data: { invited: mails.length } });
  });
