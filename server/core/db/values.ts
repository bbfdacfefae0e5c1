import { sql, type SQL } from "drizzle-orm";

/**
 * A batch of rows as a table for set-based writes (`update … from unnest(…) v(id, …)`): one statement for the
 * whole batch instead of one round trip per row, and one typed array parameter per column instead of one per
 * value, so neither Drizzle nor PostgreSQL does work per value to build or parse it (PGlite and node-postgres alike).
 */
export function unnestRows(rows: readonly (readonly unknown[])[], types: readonly string[]): SQL {
  const columns = types.map((type, i) => sql`${arrayLiteral(rows.map((row) => row[i]))}::text::${sql.raw(type)}[]`);
  return sql`unnest(${sql.join(columns, sql`, `)})`;
}

/** The rows of `db.execute()`'s answer, which node-postgres and PGlite both give as `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

/** A PostgreSQL array literal, so each column travels as one text parameter whatever the driver. */
export function arrayLiteral(values: unknown[]): string {
  const quote = (s: string) => `"${s.replace(/[\\"]/g, "\\$&")}"`;
  const items = values.map((v) => {
    if (v === null || v === undefined) return "NULL";
    if (typeof v === "number") return String(v);
    if (typeof v === "boolean") return v ? "t" : "f";
    if (v instanceof Date) return quote(v.toISOString());
    if (typeof v === "object") return quote(JSON.stringify(v));
    return quote(String(v));
  });
  return `{${items.join(",")}}`;
}
