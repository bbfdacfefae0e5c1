import { asc, eq } from "drizzle-orm";
import { csvText } from "../core/csv";
import { member_import_rejections } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { dataRows } from "./csv-rows";
import { fileOf, type ImportRow } from "./manage";

/**
 * The rows an import could not take, as a file to fix and upload again: the original header and cells, with the
 * reason as a last column (an importer ignores it: it names no member field).
 */
export async function rejectedRowsCsv(t: Tenant, imp: ImportRow): Promise<string> {
  const reasons = new Map(
    (await t.db.select({ line: member_import_rejections.line, reason: member_import_rejections.reason }).from(member_import_rejections).where(t.where(member_import_rejections, eq(member_import_rejections.import_id, imp.id))).orderBy(asc(member_import_rejections.line))).map((r) => [r.line, r.reason]),
  );
  const out = [[...imp.headers, "Why it was not imported"]];
  if (reasons.size) {
    for await (const r of dataRows(await fileOf(t, imp.id))) {
      const reason = reasons.get(r.row);
      if (reason) out.push([...r.cells, reason]);
    }
  }
  return csvText(out);
}
