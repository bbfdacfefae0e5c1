import { and, eq, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "./client";

/**
 * The one scoping layer for tenant data. A Tenant is made from the session (see server/api/middleware/auth.ts),
 * never from a request's body or path, and every read or write of a tenant-owned table goes through it.
 */
export interface Tenant {
  organisationId: number;
  /** The current gym, when the user has one in this organisation. */
  gymId: number | null;
  db: Db;
  /** `organisation_id = current` AND the given conditions. */
  where(table: { organisation_id: PgColumn }, ...conditions: (SQL | undefined)[]): SQL;
  /** `gym_id = current gym` when the user has a current gym; lists of members, payments and visits follow it. */
  inGym(table: { gym_id: PgColumn }): SQL | undefined;
  /** Stamps the current organisation on rows about to be inserted. */
  owned<T extends object>(values: T): T & { organisation_id: number };
}

export function tenant(db: Db, organisationId: number, gymId: number | null): Tenant {
  return {
    organisationId,
    gymId,
    db,
    where: (table, ...conditions) => and(eq(table.organisation_id, organisationId), ...conditions) as SQL,
    inGym: (table) => (gymId ? eq(table.gym_id, gymId) : undefined),
    owned: (values) => ({ ...values, organisation_id: organisationId }),
  };
}
