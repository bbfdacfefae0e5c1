import { signupAddress } from "../core/links";
import type { Tenant } from "../core/db/tenant";
import { pricesOnSale, publicOffer } from "../signup/catalogue";

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
