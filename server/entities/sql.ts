import { Column, getTableName, is, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/**
 * SQL the entity builders share: PostgreSQL hands a batch over as JSON, nested rows included and times already
 * written as the entities write them, so a page of members costs one statement's JSON.parse instead of a dozen
 * queries built and their rows mapped field by field (the members list's budget).
 */

/**
 * A column with its table's name, for subqueries in a select's fields: in a one-table select drizzle names the
 * fields' columns bare, and inside a subquery a bare name means the subquery's own table.
 */
export const qualified = (column: PgColumn): SQL => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * A timestamp as JavaScript's toISOString writes it (UTC, milliseconds cut, not rounded, as a Date parsed from
 * PostgreSQL's text cuts them), or null.
 */
export const isoText = (value: SQL): SQL => sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const isTimestamp = (column: PgColumn) => column.getSQLType().startsWith("timestamp");

/**
 * `json_build_object` of the fields: a column comes as its value (a timestamp as isoText), named with its table, or
 * with `from` (a subquery's alias) when given; anything else is SQL as it is.
 */
export function jsonObject(fields: Record<string, PgColumn | SQL>, from?: string): SQL {
  const pairs = Object.entries(fields).map(([key, value]) => {
    if (!/^[a-zA-Z_]+$/.test(key)) throw new Error(`Not a field name: ${key}`);
    if (!is(value, Column)) return sql`'${sql.raw(key)}', ${value}`;
    const named = from ? sql`${sql.identifier(from)}.${sql.identifier(value.name)}` : qualified(value);
    return sql`'${sql.raw(key)}', ${isTimestamp(value) ? isoText(named) : named}`;
  });
  // PostgreSQL takes at most 100 arguments to a function: 50 fields.
  if (pairs.length > 50) throw new Error("json_build_object takes at most 50 fields");
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/** A JSON array of `element` for each row of `from` (a table or subquery and its conditions), in `order`; empty, not null, for none. */
export const jsonArray = (element: SQL, from: SQL, order?: SQL): SQL =>
  sql`(select coalesce(json_agg(${element}${order ? sql` order by ${order}` : sql``}), '[]') from ${from})`;
