import { createHash } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { DATE_ORDERS, guessDateOrder, guessMapping, guessPlanPrice, IMPORT_FIELDS, IMPORTED_STATES, mappingProblem, type ColumnTarget, type DateOrder } from "../../domain/imports";
import { ApiError, invalid, notFound } from "../core/errors";
import { member_import_files, member_imports, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { dryRun, importablePrices, ownPrices, planOf } from "./analyse";
import { dataRows, headerOf, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from "./csv-rows";

/**
 * A member import's life before the job takes it (issue 15): created from a file with a guessed mapping, its
 * settings changed and dry-run as often as the person likes, then confirmed (the job: ./run.ts). Only a draft changes.
 */
export type ImportRow = typeof member_imports.$inferSelect;

export async function findImport(t: Tenant, id: number): Promise<ImportRow> {
  const [found] = await t.db.select().from(member_imports).where(t.where(member_imports, eq(member_imports.id, id)));
  if (!found) throw notFound("No such import.");
  return found;
}

export async function fileOf(t: Tenant, id: number) {
  const [f] = await t.db.select({ content: member_import_files.content }).from(member_import_files).where(t.where(member_import_files, eq(member_import_files.import_id, id)));
  return f.content;
}

export async function listImports(t: Tenant, gymId: number) {
  return t.db
    .select({
      id: member_imports.id,
      filename: member_imports.filename,
      status: member_imports.status,
      row_count: member_imports.row_count,
      created_count: member_imports.created_count,
      updated_count: member_imports.updated_count,
      unchanged_count: member_imports.unchanged_count,
      rejected_count: member_imports.rejected_count,
      created_at: member_imports.created_at,
      finished_at: member_imports.finished_at,
      created_by: users.name,
    })
    .from(member_imports)
    .innerJoin(users, eq(users.id, member_imports.created_by))
    .where(t.where(member_imports, eq(member_imports.gym_id, gymId)))
    .orderBy(desc(member_imports.created_at), desc(member_imports.id))
    .limit(100);
}

/** A new import from a file's text: refused when it is not a CSV with a header and at least one row. */
export async function createImport(t: Tenant, gymId: number, userId: number, filename: string, content: string, now: Date) {
  if (Buffer.byteLength(content) > MAX_IMPORT_BYTES) throw invalid({ file: ["The file is larger than 40 MB: split it in two"] });
  if (content.includes("\u0000")) throw invalid({ file: ["This is not a CSV file: save the export as CSV (comma-separated) and try again"] });
  let headers: string[];
  let mapping: ColumnTarget[];
  const samples: string[][] = [];
  const planNames = new Set<string>();
  let rows = 0;
  try {
    headers = await headerOf(content);
    mapping = guessMapping(headers);
    for await (const r of dataRows(content)) {
      rows++;
      if (samples.length < 200) samples.push(r.cells);
      const plan = planOf(r.cells, mapping);
      if (plan) planNames.add(plan);
      if (rows > MAX_IMPORT_ROWS) throw invalid({ file: [`The file has more than ${MAX_IMPORT_ROWS.toLocaleString("en-NZ")} rows: split it`] });
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw invalid({ file: [`This file cannot be read as CSV: ${(err as Error).message.split("\n")[0].slice(0, 200)}`] });
  }
  if (headers.length < 2) throw invalid({ file: ["The first row must name the columns (a header row), separated by commas"] });
  if (!rows) throw invalid({ file: ["The file has a header but no members"] });
  const dateColumns = mapping.flatMap((m, i) => (m === "dob" || m === "joined_on" ? [i] : []));
  const date_order = guessDateOrder(samples.flatMap((cells) => dateColumns.map((i) => cells[i] ?? "")));
  // The gym's earlier import's plan matches carry over: the same old system names its plans the same way.
  const [earlier] = await t.db
    .select({ plans: member_imports.plans })
    .from(member_imports)
    .where(t.where(member_imports, eq(member_imports.gym_id, gymId), eq(member_imports.status, "done")))
    .orderBy(desc(member_imports.id))
    .limit(1);
  // Plans the earlier import did not match: guessed from the prices' names, for the person to confirm before the check.
  // A plan column of a thousand names is another column guessed wrongly: its names are not worth the time.
  const plans = { ...earlier?.plans };
  const prices = planNames.size ? await importablePrices(t) : [];
  for (const name of [...planNames].slice(0, 1000)) {
    const guess = name in plans ? null : guessPlanPrice(name, prices);
    if (guess !== null) plans[name] = guess;
  }
  const [created] = await t.db
    .insert(member_imports)
    .values(
      t.owned({
        gym_id: gymId,
        created_by: userId,
        filename: filename.slice(0, 200) || "pasted.csv",
        file_sha256: createHash("sha256").update(content).digest("hex"),
        headers,
        preview: samples.slice(0, 3),
        row_count: rows,
        mapping,
        plans,
        date_order,
        created_at: now,
        updated_at: now,
      }),
    )
    .returning();
  await t.db.insert(member_import_files).values(t.owned({ import_id: created.id, content }));
  return created;
}

export interface ImportSettings {
  mapping: ColumnTarget[];
  date_order: DateOrder;
  /** Absent: the plans matched so far stay. */
  plans?: Record<string, number>;
  import_errors: boolean;
  invite: boolean;
}

/** PUT /api/imports/{id}: new settings, then the dry run for them (stored with the import). */
export async function updateImport(t: Tenant, imp: ImportRow, given: ImportSettings, now: Date) {
  const s = { ...given, plans: given.plans ?? imp.plans };
  if (imp.status !== "draft") throw new ApiError(409, "This import has started: its settings can no longer change.", "import_started");
  if (s.mapping.length !== imp.headers.length) throw invalid({ mapping: [`Give each of the file's ${imp.headers.length} columns a field or Ignore`] });
  const problem = mappingProblem(s.mapping);
  if (problem) throw invalid({ mapping: [problem] });
  if (!(s.date_order in DATE_ORDERS)) throw invalid({ date_order: ["Choose how the file writes dates"] });
  const own = await ownPrices(t, Object.values(s.plans).filter((id) => id > 0));
  const unknown = Object.entries(s.plans).find(([, id]) => id > 0 && !own.has(id));
  if (unknown) throw invalid({ plans: [`Choose one of your prices for ${unknown[0]}`] });
  const summary = await dryRun(t, await fileOf(t, imp.id), { gym_id: imp.gym_id, ...s }, now);
  const [saved] = await t.db
    .update(member_imports)
    .set({ ...s, summary, updated_at: now })
    .where(t.where(member_imports, eq(member_imports.id, imp.id), eq(member_imports.status, "draft")))
    .returning();
  return saved;
}

/** POST /api/imports/{id}/confirm: the job takes it from here. A file with errors goes only if the person chose so. */
export async function confirmImport(t: Tenant, imp: ImportRow, now: Date) {
  if (imp.status !== "draft") throw new ApiError(409, "This import has already started.", "import_started");
  if (!imp.summary) throw invalid({ _: ["Check the file first (the dry run), then import it"] });
  // The dry run's counts decide; the job judges every row again as it writes (what changed meanwhile is seen then).
  const { errors, total } = imp.summary;
  if (errors && !imp.import_errors) {
    throw invalid({ import_errors: [`${errors} ${errors === 1 ? "row has" : "rows have"} errors: fix the file, or choose to import the good rows only`] });
  }
  if (errors === total) throw invalid({ _: ["Every row has an error: there is nothing to import"] });
  const [queued] = await t.db
    .update(member_imports)
    .set({ status: "queued", updated_at: now })
    .where(t.where(member_imports, eq(member_imports.id, imp.id), eq(member_imports.status, "draft")))
    .returning();
  if (!queued) throw new ApiError(409, "This import has already started.", "import_started");
  return queued;
}

/** DELETE /api/imports/{id}: a draft thrown away (an import that ran stays, as the record of what it did). */
export async function discardImport(t: Tenant, imp: ImportRow) {
  if (imp.status !== "draft") throw new ApiError(409, "An import that has started is kept as the record of what it did.", "import_started");
  await t.db.delete(member_imports).where(t.where(member_imports, eq(member_imports.id, imp.id)));
}

/** The import as the API answers it: its settings, dry run and progress; the fields a column may be given. */
export function importView(imp: ImportRow) {
  const done = imp.created_count + imp.updated_count + imp.unchanged_count + imp.rejected_count + imp.invited_to_join_count;
  return {
    ...imp,
    progress: { processed: Math.min(imp.next_line, imp.row_count), total: imp.row_count, percent: imp.row_count ? Math.floor((100 * Math.min(imp.next_line, imp.row_count)) / imp.row_count) : 0, counted: done },
    fields: IMPORT_FIELDS,
    date_orders: DATE_ORDERS,
    states: IMPORTED_STATES,
  };
}
