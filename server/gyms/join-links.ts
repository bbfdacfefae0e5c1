import type { Tenant } from "../core/db/tenant";
import { pricesOnSale, publicOffer } from "../signup/catalogue";

/**
 * Join links (issue 32): the sign-up host's address for a gym (`/?gym=uuid`), with a price (`&price=id`) or a private
 * link's token (`&link=`). The one place these addresses are made, for the gym's page, the offering's page and the
 * private links.
 */
export function signupAddress(base: string, gymUuid: string, extra: { price?: number; link?: string } = {}) {
  const url = new URL(base);
  url.searchParams.set("gym", gymUuid);
  if (extra.price !== undefined) url.searchParams.set("price", String(extra.price));
  if (extra.link !== undefined) url.searchParams.set("link", extra.link);
  return url.toString();
}

/**
 * GET /api/gyms/{id}'s `join`: the gym's link and one per public price on sale there (the prices the sign-up's confirm
 * page offers), or null for an archived gym, which takes no one.
 */
export async function gymJoinLinks(t: Tenant, gym: { id: number; uuid: string; archived_at: Date | null }, base: string) {
  if (gym.archived_at) return null;
  const onSale = await pricesOnSale(t, gym.id, null);
  return {
    url: signupAddress(base, gym.uuid),
    prices: onSale.map((p) => ({ ...publicOffer(p), url: signupAddress(base, gym.uuid, { price: p.id }) })),
  };
}
