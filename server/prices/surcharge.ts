import { eq } from "drizzle-orm";
import { formatCents } from "../../domain/money";
import { formatSurcharge, surchargeFor, type PaymentTypeKind } from "../../domain/surcharge";
import { gyms, prices } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { invalid } from "../core/errors";

/**
 * What a member pays for a price by a payment type at a gym: each charge, and the first one with the joining fee,
 * each with the gym's card surcharge when paid by card. Integer cents throughout.
 */
export async function surchargeTotal(t: Tenant, q: { price_id: number; payment_type: PaymentTypeKind; gym_id?: number }) {
  const [price] = await t.db.select().from(prices).where(t.where(prices, eq(prices.id, q.price_id)));
  if (!price) throw invalid({ price_id: ["Choose a price from the list"] });
  const gymId = price.gym_id ?? q.gym_id ?? t.gymId;
  if (!gymId) throw invalid({ gym_id: ["Choose a gym from the list"] });
  const [gym] = await t.db
    .select({ id: gyms.id, basisPoints: gyms.card_surcharge_basis_points, fixed: gyms.card_surcharge_fixed, text: gyms.general_card_surcharge_text })
    .from(gyms)
    .where(t.where(gyms, eq(gyms.id, gymId)));
  if (!gym) throw invalid({ gym_id: ["Choose a gym from the list"] });
  const charge = (amount: number) => {
    const surcharge = surchargeFor(amount, q.payment_type, gym);
    return { amount, surcharge, total: amount + surcharge, formatted_total: formatCents(amount + surcharge) };
  };
  return {
    price_id: price.id,
    gym_id: gym.id,
    payment_type: q.payment_type,
    /** Every charge; for a paid-in-full price, the one payment. */
    each: charge(price.amount),
    /** The first charge, with the joining fee. */
    first: charge(price.amount + price.joining_fee),
    formatted_surcharge: q.payment_type === "stripe_card" ? formatSurcharge(gym) : null,
    general_card_surcharge_text: gym.text,
  };
}
