import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { gyms, private_price_links } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { invalid, notFound } from "../core/errors";
import { linkView } from "../entities/price";

/**
 * Sign-up links (issue 14): a private price's links (POST /api/prices/{id}/private-links), each the only way a
 * person sees that price on sign-up, and the organisation's age-bypass links (POST …/age-bypass-links), which let
 * someone under the minimum age join on any public price. A link is a token; a person follows it at a gym, so
 * each link is shown as one address per gym where it can be used. Revoking one stops it at once.
 */

type Gym = { name: string; uuid: string };

export async function createPriceLink(t: Tenant, price: { id: number; private: boolean; archived_at: Date | null }, o: { archived_at: Date | null }, at: Gym[], ageBypass: boolean, userId: number, base: string) {
  if (!price.private) throw invalid({ price: ["Only a private price has links: a public one is on sale to everyone already."] });
  if (price.archived_at || o.archived_at) throw invalid({ price: ["This price is archived, so nobody can join on it. Restore it first."] });
  const [row] = await t.db.insert(private_price_links).values(t.owned({ price_id: price.id, age_bypass: ageBypass, created_by: userId })).returning();
  return linkView(row, at, base);
}

async function organisationGyms(t: Tenant) {
  return t.db.select({ name: gyms.name, uuid: gyms.uuid }).from(gyms).where(t.where(gyms)).orderBy(asc(gyms.name));
}

export async function createAgeBypassLink(t: Tenant, userId: number, base: string) {
  const [row] = await t.db.insert(private_price_links).values(t.owned({ price_id: null, age_bypass: true, created_by: userId })).returning();
  return linkView(row, await organisationGyms(t), base);
}

export async function ageBypassLinks(t: Tenant, base: string) {
  const [rows, at] = await Promise.all([
    t.db
      .select()
      .from(private_price_links)
      .where(t.where(private_price_links, isNull(private_price_links.price_id), isNull(private_price_links.revoked_at)))
      .orderBy(desc(private_price_links.created_at), desc(private_price_links.id)),
    organisationGyms(t),
  ]);
  return rows.map((l) => linkView(l, at, base));
}

/** Revokes a link of this organisation that is still good (`priceId`: of that price; null: an age-bypass link). */
export async function revokeLink(t: Tenant, linkId: number, priceId: number | null) {
  const revoked = await t.db
    .update(private_price_links)
    .set({ revoked_at: new Date() })
    .where(
      t.where(
        private_price_links,
        eq(private_price_links.id, linkId),
        isNull(private_price_links.revoked_at),
        priceId === null ? isNull(private_price_links.price_id) : and(eq(private_price_links.price_id, priceId)),
      ),
    )
    .returning({ id: private_price_links.id });
  if (!revoked.length) throw notFound("No such link.");
}
