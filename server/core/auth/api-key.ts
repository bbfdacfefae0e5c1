import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedFor } from "../db/prepared";
import { api_keys, gyms, organisations, users } from "../db/schema";
import type { CurrentUser } from "../current-user";
import { CAPABILITIES } from "../permissions";
import { keyHash, looksLikeKey } from "./api-key-secret";

/** Last use is written at most once a minute per key: a busy integration must not turn every read into a write. */
const TOUCH_MS = 60_000;

// Every keyed request reads this (prepared once per handle, like the session read): the key, its organisation, the
// admin it acts as, and the organisation's gyms.
const liveKey = preparedFor((db) =>
  db
    .select({
      key: api_keys,
      user: users,
      organisation: {
        id: organisations.id,
        name: organisations.name,
        multi_gym: organisations.multi_gym,
        calendar_and_messaging: organisations.calendar_and_messaging,
      },
      gyms: sql<{ id: number; name: string; logo: string | null; archived: boolean }[]>`(
        select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name, 'logo', g.logo, 'archived', g.archived_at is not null) order by g.name, g.id), '[]')
        from ${gyms} g where g.organisation_id = ${api_keys.organisation_id})`,
    })
    .from(api_keys)
    .innerJoin(organisations, eq(organisations.id, api_keys.organisation_id))
    .innerJoin(users, eq(users.id, api_keys.created_by_user_id))
    .where(and(eq(api_keys.secret_hash, sql.placeholder("hash")), isNull(api_keys.revoked_at)))
    .prepare("live_api_key"),
);

export type KeyPrincipal = { keyId: number; rateLimit: number; user: CurrentUser };

/**
 * The principal of a live key, or null. It is shaped as a signed-in user so every guard and query works unchanged:
 * the organisation's, at no gym in particular (lists span every gym unless asked for one), acting as the admin who
 * made the key; what it may do is its scopes alone (server/core/permissions.ts gymsWhere), never that admin's role.
 */
export async function readApiKey(db: Db, token: string, ip: string, now = new Date()): Promise<KeyPrincipal | null> {
  if (!looksLikeKey(token)) return null;
  const [row] = await liveKey(db).execute({ hash: keyHash(token) });
  if (!row) return null;
  if (!row.key.last_used_at || now.getTime() - row.key.last_used_at.getTime() > TOUCH_MS || row.key.last_used_ip !== ip) {
    await db.update(api_keys).set({ last_used_at: now, last_used_ip: ip }).where(eq(api_keys.id, row.key.id));
  }
  const organisation = { ...row.organisation, role: "admin" as const };
  const scopes = row.key.scopes.filter((s) => (CAPABILITIES as string[]).includes(s));
  return {
    keyId: row.key.id,
    rateLimit: row.key.rate_limit_per_minute,
    user: {
      row: row.user,
      memberships: [],
      organisations: [organisation],
      organisation,
      gyms: row.gyms.map((g) => ({ ...g, role: null })),
      gym: null,
      defaultPaymentTypeId: null,
      paymentTypes: [],
      unreadMessages: 0,
      signup: { confirmed: false, priceId: null, linkId: null, startOn: null, offering: null },
      apiKey: { id: row.key.id, name: row.key.name, scopes },
    },
  };
}
