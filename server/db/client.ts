import { fileURLToPath } from "node:url";
import path from "node:path";
import { mkdirSync } from "node:fs";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { installDomainRules } from "./domain-rules";
import * as schema from "./schema";

/** The one database handle type: PGlite and node-postgres both give a PgDatabase over the same schema. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  // server/db → repo root in source; build/ → repo root once bundled.
  fileURLToPath(import.meta.url).includes(`${path.sep}build${path.sep}`) ? ".." : "../..",
  "drizzle",
);

/**
 * Opens PostgreSQL when a URL is given, else an embedded PGlite kept in `pgliteDir`
 * (or in memory when pgliteDir is "memory://"). Both drivers load lazily so the one not used costs nothing.
 */
export async function openDatabase(opts: { databaseUrl?: string; pgliteDir: string; migrate?: boolean }): Promise<Database> {
  let database: Database;
  if (opts.databaseUrl) {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    // JIT compiles a query in 10–300 ms when the planner's estimate is high; our queries are short
    // OLTP reads where that never pays back, so it is off for this app's connections.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, options: "-c jit=off" });
    // An idle connection the server ends (restart, failover, a dropped test database) must not crash the
    // process: the pool replaces it on the next query.
    pool.on("error", (err) => console.error(`[db] idle connection lost: ${err.message}`));
    database = { db: drizzle(pool, { schema }) as unknown as Db, kind: "postgres", close: () => pool.end() };
    if (opts.migrate !== false) {
      const { migrate } = await import("drizzle-orm/node-postgres/migrator");
      await migrate(drizzle(pool, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      await installDomainRules(database.db);
    }
  } else {
    const client = await openPglite(opts.pgliteDir);
    const { drizzle } = await import("drizzle-orm/pglite");
    const db = drizzle(client, { schema });
    database = { db: db as unknown as Db, kind: "pglite", close: () => client.close() };
    if (opts.migrate !== false) {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
      await installDomainRules(database.db);
    }
  }
  return database;
}

export async function openPglite(dir: string, loadDataDir?: Blob | File) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  return PGlite.create(dir, { extensions: { pg_trgm }, loadDataDir });
}
