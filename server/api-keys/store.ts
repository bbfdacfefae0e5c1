import { desc, eq, isNull } from "drizzle-orm";
import { levelsOf, scopesOf, type KeyArea, type KeyLevel } from "../../domain/api-key-scopes";
import type { ApiKeyCreate } from "../../domain/schemas/api-keys";
import { api_keys, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { notFound } from "../core/errors";
import { keyHash, newKeySecret, shownPrefix } from "../core/auth/api-key-secret";

type KeyRow = typeof api_keys.$inferSelect;

/** A key as the API answers it: never its secret or hash. */
export function keyAnswer(row: KeyRow, createdBy: string | null) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    levels: levelsOf(row.scopes),
    rate_limit_per_minute: row.rate_limit_per_minute,
    created_at: row.created_at.toISOString(),
    created_by: createdBy,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    last_used_ip: row.last_used_ip,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}
export type ApiKeyAnswer = ReturnType<typeof keyAnswer>;

/** The organisation's keys, live ones first, newest first. */
export async function listKeys(t: Tenant): Promise<ApiKeyAnswer[]> {
  const rows = await t.db
    .select({ key: api_keys, by: users.name })
    .from(api_keys)
    .leftJoin(users, eq(users.id, api_keys.created_by_user_id))
    .where(t.where(api_keys))
    .orderBy(api_keys.revoked_at, desc(api_keys.created_at), desc(api_keys.id));
  return rows.map((r) => keyAnswer(r.key, r.by));
}

/** Makes a key and answers it with its secret: the only time the secret exists outside the integrator's hands. */
export async function createKey(t: Tenant, input: ApiKeyCreate, createdBy: { id: number; name: string }, at: Date) {
  const secret = newKeySecret();
  const levels = Object.fromEntries(Object.entries(input).filter(([k]) => k !== "name" && k !== "rate_limit_per_minute")) as Record<KeyArea, KeyLevel>;
  const [row] = await t.db
    .insert(api_keys)
    .values(
      t.owned({
        name: input.name,
        prefix: shownPrefix(secret),
        secret_hash: keyHash(secret),
        scopes: scopesOf(levels),
        rate_limit_per_minute: input.rate_limit_per_minute,
        created_by_user_id: createdBy.id,
        created_at: at,
      }),
    )
    .returning();
  return { ...keyAnswer(row, createdBy.name), secret };
}

/** Revokes a key at once: its next request is refused. Revoking twice changes nothing. */
export async function revokeKey(t: Tenant, id: number, by: number, at: Date): Promise<ApiKeyAnswer> {
  const [row] = await t.db
    .update(api_keys)
    .set({ revoked_at: at, revoked_by_user_id: by })
    .where(t.where(api_keys, eq(api_keys.id, id), isNull(api_keys.revoked_at)))
    .returning();
  if (row) return keyAnswer(row, null);
  const [already] = await t.db.select().from(api_keys).where(t.where(api_keys, eq(api_keys.id, id)));
  if (!already) throw notFound("No such API key.");
  return keyAnswer(already, null);
}

