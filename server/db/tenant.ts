import { and, eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "./client";

/**
 * The one scoping layer for tenant data. A Tenant is made from the session (requireStaff in
 * server/api/middleware.ts), never from a request's body or path, and every read or write of a tenant-owned
 * table goes through it.
 *
 * Two walls: every query names the organisation (`where`, `owned`), and the handle a Tenant gives out is a
 * transaction in which PostgreSQL's row-level security (drizzle/0011) shows and accepts only this
 * organisation's rows. There is no way to the unscoped database through a Tenant.
 */
export interface Tenant {
  organisationId: number;
  /** The current gym, when the user has one in this organisation. */
  gymId: number | null;
  /** This request's transaction, scoped to the organisation by row-level security. */
  db: Db;
  /** `organisation_id = current` AND the given conditions. */
  where(table: { organisation_id: PgColumn }, ...conditions: (SQL | undefined)[]): SQL;
  /** `gym_id = current gym` when the user has a current gym; lists of members, payments and visits follow it. */
  inGym(table: { gym_id: PgColumn }): SQL | undefined;
  /** Stamps the current organisation on rows about to be inserted. */
  owned<T extends object>(values: T): T & { organisation_id: number };
  /**
   * Work that may outlive the request's transaction (a streamed export's batches): in the request's transaction
   * while it is open, else in a new, short scoped transaction of its own, so none stays open while a slow
   * client downloads. (Opening a second one while the first is open would wait forever on PGlite.)
   */
  again<T>(work: (t: Tenant) => Promise<T>): Promise<T>;
}

export interface TenantOptions {
  /**
   * Row-level security on (the default). Off only in the tenant-isolation test, to prove that the queries'
   * own filters hold without the second wall (tests/api/tenant-matrix.test.ts).
   */
  rowLevelSecurity?: boolean;
}

/**
 * Runs `work` for one organisation in one transaction: app.organisation_id is set for the policies and the
 * role becomes gym_tenant, both for this transaction only (set_config's `true`), so a pooled connection
 * goes back clean. A thrown error rolls everything back.
 */
export function withTenant<T>(
  root: Db,
  organisationId: number,
  gymId: number | null,
  work: (t: Tenant) => Promise<T>,
  opts: TenantOptions = {},
): Promise<T> {
  return root.transaction(async (tx) => {
    const rls = opts.rowLevelSecurity !== false;
    await tx.execute(
      rls
        ? sql`select set_config('app.organisation_id', ${String(organisationId)}, true), set_config('role', 'gym_tenant', true)`
        : sql`select set_config('app.organisation_id', ${String(organisationId)}, true)`,
    );
    const t = scoped(root, tx as unknown as Db, organisationId, gymId, opts);
    try {
      return await work(t);
    } finally {
      // A pooled connection goes back to the pool when the transaction ends, maybe straight into another
      // organisation's request: anything still holding this Tenant (a late callback) must not reach it.
      closed.add(t);
    }
  });
}

const closed = new WeakSet<Tenant>();

function scoped(root: Db, db: Db, organisationId: number, gymId: number | null, opts: TenantOptions): Tenant {
  const t: Tenant = {
    organisationId,
    gymId,
    get db() {
      if (closed.has(t)) throw new Error("This tenant's transaction has ended: use t.again() for work that outlives the request.");
      return db;
    },
    where: (table, ...conditions) => and(eq(table.organisation_id, organisationId), ...conditions) as SQL,
    inGym: (table) => (gymId ? eq(table.gym_id, gymId) : undefined),
    owned: (values) => ({ ...values, organisation_id: organisationId }),
    again: (work) => (closed.has(t) ? withTenant(root, organisationId, gymId, work, opts) : work(t)),
  };
  return t;
}
