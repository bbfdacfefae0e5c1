import { eq, isNull } from "drizzle-orm";
import { organisation_users, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { notFound } from "../core/errors";

/**
 * A member of the tenant's organisation (not removed), or 404: a member of another organisation, a
 * staff account or a made-up id all answer the same, so ids reveal nothing about other tenants.
 */
export async function findMember(t: Tenant, rawId: string) {
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound("No such member.");
  const [row] = await t.db
    .select({ membership: organisation_users, user: users })
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .where(t.where(organisation_users, eq(organisation_users.user_id, id), eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at), isNull(users.deleted_at)))
    .limit(1);
  if (!row) throw notFound("No such member.");
  return row;
}
export type FoundMember = Awaited<ReturnType<typeof findMember>>;
