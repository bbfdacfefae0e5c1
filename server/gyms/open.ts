import { and, count, eq, isNull, ne } from "drizzle-orm";
import type { NewGymInput } from "../../domain/schemas/gyms";
import { destination_accounts, gym_users, gyms } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ApiError } from "../core/errors";
import { findGym } from "../core/find-gym";

/**
 * Opening and archiving a location (issue 32, decision 0061). Organisation admins only (`gyms.create`). A gym is never
 * deleted: its members, payments and history belong to it. Archiving stops it being sold (server/signup/catalogue.ts
 * `soldAtGym`), listed for people to join (GET /api/public/gyms) and offered in the switchers; restoring undoes that.
 */

/** POST /api/gyms: the gym, its bank account when given, and its creator as its gym admin, in the request's transaction. */
export async function openGym(t: Tenant, creatorId: number, input: NewGymInput) {
  const [gym] = await t.db
    .insert(gyms)
    .values(t.owned({ name: input.name, address: input.address, tracks_visits: input.tracks_visits }))
    .returning({ id: gyms.id });
  await t.db.insert(gym_users).values(t.owned({ gym_id: gym.id, user_id: creatorId, role: "admin" as const }));
  if (input.bank_account) await t.db.insert(destination_accounts).values(t.owned({ gym_id: gym.id, ...input.bank_account }));
  return gym.id;
}

/**
 * DELETE /api/gyms/{id}/archive. The organisation's last open gym cannot be archived: there would be nowhere left to
 * sell, work or switch to. Archiving an archived gym changes nothing.
 */
export async function archiveGym(t: Tenant, id: number, now: Date) {
  const gym = await findGym(t, id);
  if (gym.archived_at) return;
  const [open] = await t.db
    .select({ n: count() })
    .from(gyms)
    .where(t.where(gyms, isNull(gyms.archived_at), ne(gyms.id, id)));
  if (!open.n) throw new ApiError(409, "This is the organisation's only open gym: open another before archiving it.", "last_gym");
  await t.db
    .update(gyms)
    .set({ archived_at: now, updated_at: now })
    .where(t.where(gyms, eq(gyms.id, id), isNull(gyms.archived_at)));
}

/** POST /api/gyms/{id}/restore: sold and offered again, as it was. */
export async function restoreGym(t: Tenant, id: number, now: Date) {
  await findGym(t, id);
  await t.db
    .update(gyms)
    .set({ archived_at: null, updated_at: now })
    .where(t.where(gyms, and(eq(gyms.id, id))));
}
