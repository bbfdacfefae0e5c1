import { AsyncLocalStorage } from "node:async_hooks";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { mkdirSync } from "node:fs";
import { installDomainRules } from "./domain-rules";
import type { Db } from "./handle";
import * as schema from "./schema";
import { logError } from "../observability/log";

export type { Db };

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

/**
 * Connections that are the role gym_tenant for their whole life (row-level security applies to every query on
 * them, drizzle/0013), each remembering which organisation app.organisation_id names: `run` lends one set to
 * `organisationId`, with a drizzle handle over it. On PostgreSQL only; PGlite has one connection, and the
 * tenant layer scopes a transaction there instead (server/core/db/tenant.ts).
 */
export interface TenantConnections {
  run<T>(organisationId: number, work: (db: Db) => Promise<T>): Promise<T>;
}

/**
 * One handle per unit of work (issue 29 H2). A unit of work that holds a connection (a transaction, or a tenant
 * connection lent on PostgreSQL) passes its own handle down; the database's own handle refuses any query from inside
 * it. On PGlite, which has one connection, such a query would wait for ever for the transaction that waits for it,
 * and with it every request of every organisation; on PostgreSQL it would run outside the transaction (blind to its
 * writes, able to wait on its locks) and outside row-level security. Refused at once, it is a 500 naming the mistake.
 */
const unitOfWork = new AsyncLocalStorage<{ holds: string; open: boolean }>();

export class SecondHandleError extends Error {}

function refuseSecondHandle(what: string) {
  const held = unitOfWork.getStore();
  if (held?.open) {
    throw new SecondHandleError(`${what} was asked for while this unit of work holds ${held.holds}: pass that handle down instead (a second one would wait for the first).`);
  }
}

/** Runs `work` as a unit of work holding a connection: until it ends, the database's own handle refuses queries from within it. */
async function holding<T>(holds: string, work: () => Promise<T>): Promise<T> {
  const mark = { holds, open: true };
  try {
    return await unitOfWork.run(mark, work);
  } finally {
    // Work it started and did not wait for (a late callback) is no longer inside it.
    mark.open = false;
  }
}

/** The database's own handle, over a driver client whose `guarded` methods refuse to run inside a unit of work. */
function guardedClient<T extends object>(client: T, guarded: string[]): T {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (typeof prop === "string" && guarded.includes(prop)) {
        return (...args: unknown[]) => {
          refuseSecondHandle("The database's own connection");
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

/** Marks a root handle's transactions as units of work (their callback runs holding the connection). */
function unitsOfWork(db: Db): Db {
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) => transaction((tx) => holding("a transaction's connection", () => work(tx)), config)) as Db["transaction"];
  return db;
}

const tenantConnections = new WeakMap<object, TenantConnections>();
/** The tenant connections that belong with this handle, if it is PostgreSQL's. */
export const tenantConnectionsOf = (db: Db) => tenantConnections.get(db);

/** The advisory lock migrations run under (any constant no other lock in the app uses). */
const MIGRATION_LOCK = 7_100_000_001;

export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  // server/core/db → repo root in source; build/ → repo root once bundled.
  fileURLToPath(import.meta.url).includes(`${path.sep}build${path.sep}`) ? ".." : "../../..",
  "drizzle",
);

const CONNECT_TIMEOUT_MS = 10_000;

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
    // A connection that cannot be had in 10 s fails the request (a 500, reported) rather than holding it, and
    // every request queued behind it, while the database is out of reach.
    const raw = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, options: "-c jit=off", connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    const pool = guardedClient(raw, ["query", "connect"]);
    // An idle connection the server ends (restart, failover, a dropped test database) must not crash the
    // process: the pool replaces it on the next query.
    raw.on("error", (err) => logError("[db] idle connection lost", err));
    const tenants = await pgTenantConnections(opts.databaseUrl);
    const db = unitsOfWork(drizzle(pool, { schema }) as unknown as Db);
    tenantConnections.set(db, tenants);
    database = { db, kind: "postgres", close: () => Promise.all([raw.end(), tenants.end()]).then(() => undefined) };
    if (opts.migrate !== false) {
      const { migrate } = await import("drizzle-orm/node-postgres/migrator");
      // Machines starting together take turns (drizzle's migrator takes no lock of its own): the first migrates, the
      // others wait here, then find nothing left to do.
      const lock = await raw.connect();
      try {
        await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
        await migrate(drizzle(raw, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
        await installDomainRules(database.db);
      } finally {
        await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
        lock.release();
      }
    }
  } else {
    const client = await openPglite(opts.pgliteDir);
    if (opts.migrate !== false) {
      const { drizzle } = await import("drizzle-orm/pglite");
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      const plain = drizzle(client, { schema });
      await migrate(plain, { migrationsFolder: MIGRATIONS_FOLDER });
      await installDomainRules(plain as unknown as Db);
    }
    database = await pgliteDatabase(client);
  }
  return database;
}

/** The app's handle over an open PGlite: one connection, so one unit of work at a time holds it (see holding()). */
export async function pgliteDatabase(client: PGliteClient): Promise<Database> {
  const { drizzle } = await import("drizzle-orm/pglite");
  const db = unitsOfWork(drizzle(guardedClient(client, ["query", "exec", "transaction", "sql"]), { schema }) as unknown as Db);
  return { db, kind: "pglite", close: () => client.close() };
}

type PGliteClient = Awaited<ReturnType<typeof openPglite>>;

export async function openPglite(dir: string, loadDataDir?: Blob | File) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  return PGlite.create(dir, { extensions: { pg_trgm }, loadDataDir });
}

/**
 * A second pool for tenant work. Its connections switch to gym_tenant once, when first lent, and set
 * app.organisation_id only when the next organisation differs from the last: a request usually costs no
 * extra round trip, where a transaction per request cost three (BEGIN, the settings, COMMIT) and a third of the
 * dashboard's throughput. Nothing but tenant work uses this pool, so a connection never goes back to the app's
 * own role with these settings.
 */
async function pgTenantConnections(url: string): Promise<TenantConnections & { end(): Promise<void> }> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  // Pipeline mode: a request's concurrent reads (Promise.all over one tenant connection, as the dashboard's
  // figures are) go out together instead of queuing one behind another, which pg 9 will refuse to do.
  // (`pipeline` is newer than @types/pg.)
  const config = { connectionString: url, max: 10, options: "-c jit=off", pipeline: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS };
  const pool = new pg.Pool(config);
  pool.on("error", (err) => logError("[db] idle tenant connection lost", err));
  const state = new WeakMap<object, { organisationId: number | null; db: Db }>();
  return {
    async run(organisationId, work) {
      refuseSecondHandle("A tenant connection");
      const client = await pool.connect();
      let s = state.get(client);
      try {
        if (!s) {
          s = { organisationId: null, db: drizzle(client, { schema }) as unknown as Db };
          await client.query("select set_config('role', 'gym_tenant', false)");
          state.set(client, s);
        }
        if (s.organisationId !== organisationId) {
          s.organisationId = null; // unknown until the setting is confirmed
          await client.query("select set_config('app.organisation_id', $1, false)", [String(organisationId)]);
          s.organisationId = organisationId;
        }
      } catch (err) {
        client.release(err as Error); // a connection in an unknown state is closed, not reused
        throw err;
      }
      try {
        return await holding(`organisation ${organisationId}'s tenant connection`, () => work(s!.db));
      } catch (err) {
        // A failure must not leave a transaction open on a connection that goes back to the pool.
        await client.query("rollback").catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    end: () => pool.end(),
  };
}
