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
