import type { Db } from "../core/db/client";
import { payment_adjustments } from "../core/db/schema";
import type { ProviderRefund } from "../core/providers/refunds";

/**
 * A refund the provider holds and we did not (made in its dashboard), written down as the providers' webhooks write
 * them: source 'provider', the provider's id, its state as the provider says. Once per refund: the (method,
 * provider_id) index answers a second writer (a webhook arriving at the same time) with nothing.
 */
export async function insertProviderRefund(
  db: Db,
  payment: { id: number; organisation_id: number; gym_id: number; user_id: number },
  method: "stripe" | "gocardless",
  refund: ProviderRefund,
  now: Date,
): Promise<number | null> {
  const written = await db
    .insert(payment_adjustments)
    .values({
      organisation_id: payment.organisation_id,
      gym_id: payment.gym_id,
      user_id: payment.user_id,
      payment_id: payment.id,
      kind: "refund",
      status: refund.status,
      amount: refund.amount,
      reason: "other",
      note: "Made at the provider; found by the daily reconciliation.",
      source: "provider",
      method,
      provider_id: refund.id,
      settled_at: refund.status === "succeeded" ? (refund.created ?? now) : null,
    })
    .onConflictDoNothing()
    .returning({ id: payment_adjustments.id });
  return written[0]?.id ?? null;
}
