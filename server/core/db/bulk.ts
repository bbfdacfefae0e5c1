import { SQL, getTableColumns, is, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import { arrayLiteral, rowsOf } from "./values";

/**
 * Many rows per statement, for the demo seed and the billing run: one array parameter per column
 * (`INSERT … SELECT … FROM unnest(…)`) instead of one parameter per value, which keeps both the statement
 * PostgreSQL parses and the work Drizzle does per value small.
 */
const BATCH = 1000;

/**
 * Inserts rows BATCH at a time as `INSERT … SELECT … FROM unnest($1::int[], $2::text[], …)`: one array
 * parameter per column instead of one parameter per value. That keeps both the statement PostgreSQL parses
 * and the work Drizzle does per value small. `into` names another table with the same columns (a stage).
 * With `returnIds`, gives the new rows' serial ids in insertion order.
 */
export async function insertRows<T extends PgTable>(
  db: Db,
  table: T,
  rows: T["$inferInsert"][],
  opts: { returnIds?: boolean; into?: string; onConflict?: SQL } = {},
): Promise<number[]> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const target = opts.into ? sql.identifier(opts.into) : table;
  const records = rows as Record<string, unknown>[];
  const ids: number[] = [];
  for (let i = 0; i < records.length; i += BATCH) {
    const batch = records.slice(i, i + BATCH);
    const keys = Object.keys(columns).filter((k) => batch.some((r) => r[k] !== undefined));
    const names = sql.join(keys.map((k) => sql.identifier(columns[k].name)), sql`, `);
    // An array column (organisation_users.tags) travels as a text[] of its rows' array literals, cast per row:
    // unnest would flatten a two-dimensional array.
    const arrays = sql.join(
      keys.map((k) => {
        const values = batch.map((r) => valueOrDefault(r[k], columns[k], k));
        return isArrayColumn(columns[k])
          ? sql`${arrayLiteral(values.map((v) => (v == null ? v : arrayLiteral(v as unknown[]))))}::text[]`
          : sql`${arrayLiteral(values)}::text::${sql.raw(arrayType(columns[k]))}`;
      }),
      sql`, `,
    );
    const selected = sql.join(
      keys.map((k, j) => (isArrayColumn(columns[k]) ? sql.raw(`c${j}::${columns[k].getSQLType()}`) : sql.raw(`c${j}`))),
      sql`, `,
    );
    const aliases = sql.raw(keys.map((_, j) => `c${j}`).join(", "));
    const res = await db.execute(
      sql`insert into ${target} (${names}) select ${selected} from unnest(${arrays}) as u(${aliases})${opts.onConflict ?? sql``}${opts.returnIds ? sql` returning id` : sql``}`,
    );
    // Serial ids are handed out in the order rows are inserted; sorting makes that explicit.
    if (opts.returnIds) ids.push(...rowsOf<{ id: number }>(res).map((r) => Number(r.id)).sort((x, y) => x - y));
  }
  return ids;
}

export const insertAll = <T extends PgTable>(db: Db, table: T, rows: T["$inferInsert"][]) => insertRows(db, table, rows).then(() => undefined);
export const insertReturningIds = <T extends PgTable>(db: Db, table: T, rows: T["$inferInsert"][]) => insertRows(db, table, rows, { returnIds: true });


/** A row that leaves out a column other rows of its batch set gets the column's default (only plain-value defaults are supported). */
function valueOrDefault(value: unknown, column: PgColumn, key: string) {
  if (value !== undefined) return value;
  if (column.default !== undefined && !is(column.default, SQL)) return column.default;
  if (!column.notNull) return null;
  throw new Error(`demo seed: ${key} is missing from some rows and has no plain default`);
}

const isArrayColumn = (column: PgColumn) => column.getSQLType().endsWith("[]");

const arrayType = (column: PgColumn) => {
  const type = column.getSQLType();
  return `${type === "serial" ? "integer" : type}[]`;
};
