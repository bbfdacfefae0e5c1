import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "./client";

/**
 * A query built once per database handle and kept as a named prepared statement, run with placeholder
 * values (`sql.placeholder`). For the reads every signed-in page makes: it saves drizzle building the SQL
 * each time and PostgreSQL parsing and planning it (on PostgreSQL each pooled connection prepares it once).
 * Only for queries whose shape never changes; anything built from optional filters stays a plain query.
 */
export function preparedFor<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let query = byDb.get(db);
    if (!query) byDb.set(db, (query = build(db)));
    return query;
  };
}

/**
 * `organisation_id = $org` in a prepared read of tenant rows: the statement is built once per handle and a pooled
 * connection serves every organisation in turn, so the organisation is a placeholder bound from the Tenant at each
 * run (`{ org: t.organisationId }`), never a value built in (t.where would build the first caller's in for good).
 */
export const ofOrganisation = (table: { organisation_id: PgColumn }): SQL => sql`${table.organisation_id} = ${sql.placeholder("org")}`;

/** `column = any($name)`: a batch of integer ids as one array placeholder, so one statement serves any batch. */
export const inIds = (column: PgColumn, name: string): SQL => sql`${column} = any(${sql.placeholder(name)}::int[])`;
