import { sql } from "drizzle-orm";
import type { Db } from "../../server/core/db/client";

/**
 * PostgreSQL tricks for the tenant tests, on this test file's own database only (each file has one, so nothing
 * here reaches another test: roles are cluster-wide on PostgreSQL, policies and tables are not).
 */

/** Every table's row-level security off: the matrix then proves the queries' own organisation filters alone. */
export async function withoutRowLevelSecurity(db: Db) {
  const res = (await db.execute(sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and c.relrowsecurity`)) as unknown as { rows: { name: string }[] };
  for (const { name } of res.rows) await db.execute(sql.raw(`alter table "${name}" disable row level security`));
  return res.rows.length;
}

/**
 * A restrictive policy that hides the gyms named `name` from the role gym_tenant only: a query of a request that ran
 * as the app's own role (row-level security off) would still see them, one that ran as gym_tenant cannot.
 */
export async function hideGymsFromTenants(db: Db, name: string) {
  await db.execute(sql.raw(`create policy hidden_from_gym_tenant on gyms as restrictive to gym_tenant using (name <> '${name.replace(/'/g, "''")}')`));
}
