import { and, eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { tenantConnectionsOf, type Db } from "./client";

/**
 * The one scoping layer for tenant data. A Tenant is made from the session (requireStaff in
 * server/core/middleware.ts), never from a request's body or path, and every read or write of a tenant-owned
 * table goes through it.
 *
 * Two walls: every query names the organisation (`where`, `owned`), and the handle a Tenant gives out is one
 * on which PostgreSQL's row-level security (drizzle/0013) shows and accepts only this organisation's rows.
 * There is no way to the unscoped database through a Tenant.
 */
export interface Tenant {
  organisationId: number;
  /** The current gym, when the user has one in this organisation. */
  gymId: number | null;
  /** This request's handle, scoped to the organisation by row-level security. */
  db: Db;
  /** `organisation_id = current` AND the given conditions. */
  where(table: { organisation_id: PgColumn }, ...conditions: (SQL | undefined)[]): SQL;
  /** `gym_id = current gym` when the user has a current gym; lists of members, payments and visits follow it. */
  inGym(table: { gym_id: PgColumn }): SQL | undefined;
  /** Stamps the current organisation on rows about to be inserted. */
  owned<T extends object>(values: T): T & { organisation_id: number };
  /**
   * Work that may outlive the request (a streamed export's batches): on the request's own handle while it is
   * lent, else on a newly lent one, so nothing stays held while a slow client downloads. (Taking a second
   * handle while the first is held would wait forever on PGlite's one connection.)
   */
  again<T>(work: (t: Tenant) => Promise<T>): Promise<T>;
}

export interface TenantOptions {
  /** One transaction for all of `work`, rolled back when it throws. */
  atomic?: boolean;
}

/**
 * Runs `work` for one organisation, with a handle on which row-level security shows and accepts only that
 * organisation's rows:
 * - on PostgreSQL, a connection of the tenant pool (server/core/db/client.ts), already the role gym_tenant and
 *   set to the organisation;
 * - on PGlite (one connection), a transaction that sets both for itself only (set_config's `true`).
 * `atomic` runs `work` in one transaction (PostgreSQL too), which a thrown error rolls back: the API asks it for
 * every request that changes something.
 */
export async function withTenant<T>(
  root: Db,
  organisationId: number,
  gymId: number | null,
  work: (t: Tenant) => Promise<T>,
  opts: TenantOptions = {},
): Promise<T> {
  const pooled = tenantConnectionsOf(root);
  const scope = async (db: Db) => {
    const t = scoped(root, db, organisationId, gymId, opts);
    try {
      return await work(t);
    } finally {
      // The connection goes back to the pool, maybe straight into another organisation's request: anything
      // still holding this Tenant (a late callback) must not reach it.
      closed.add(t);
    }
  };
  if (pooled) return pooled.run(organisationId, (db) => (opts.atomic ? db.transaction((tx) => scope(tx as unknown as Db)) : scope(db)));
  return root.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.organisation_id', ${String(organisationId)}, true), set_config('role', 'gym_tenant', true)`);
    return scope(tx as unknown as Db);
  });
}

const closed = new WeakSet<Tenant>();

/**
 * A Tenant over a handle its caller already holds: the system's own transaction in a job or a sign-up (the billing
 * run, a provider's webhook), which must read one organisation's rows as a request would, inside that transaction
 * (an outgoing webhook's payload, server/outgoing-webhooks/events.ts). Every query still names the organisation
 * (`where`); the row-level security is the caller's handle's.
 */
export function tenantOn(db: Db, organisationId: number, gymId: number | null = null): Tenant {
  return scoped(db, db, organisationId, gymId, {});
}

function scoped(root: Db, db: Db, organisationId: number, gymId: number | null, opts: TenantOptions): Tenant {
  const t: Tenant = {
    organisationId,
    gymId,
    get db() {
      if (closed.has(t)) throw new Error("This tenant's connection has gone back to the pool: use t.again() for work that outlives the request.");
      return db;
    },
    where: (table, ...conditions) => and(eq(table.organisation_id, organisationId), ...conditions) as SQL,
    inGym: (table) => (gymId ? eq(table.gym_id, gymId) : undefined),
    owned: (values) => ({ ...values, organisation_id: organisationId }),
    again: (work) => (closed.has(t) ? withTenant(root, organisationId, gymId, work, opts) : work(t)),
  };
  return t;
}
