import type { ProviderRecord } from "../core/providers/charge-result";

/**
 * Whether what a provider answered for an event's object is the payment we asked it for (issue 28, finding 7): an
 * event is a claim, signed by the provider's endpoint secret but not by the account or the payment it names, so a
 * payment is settled only from the provider's own record of the object we made, on the account it belongs to, for
 * the amount and currency we asked. Decision 0039.
 */
export interface OurCharge {
  paymentId: number;
  /** What we asked for: the payment's amount and surcharge, integer cents, in NZD. */
  total: number;
  /** The provider's id we wrote down for it; null when a crash came between its charge and our writing. */
  held: string | null;
  /** The account it must live on (Stripe: the gym's Connect account); left out where the adapter's credentials already scope it. */
  account?: string | null;
}

const CURRENCY = "nzd";
const named = (account: string | null | undefined) => account ?? "the platform's own";

/** Why the provider's record is not our charge, in words for /webhook-calls; null when it is. */
export function notOurCharge(provider: string, id: string, made: ProviderRecord, ours: OurCharge): string | null {
  const p = ours.paymentId;
  if (ours.held !== null && ours.held !== id) return heldElsewhere(provider, id, ours);
  // Without our reference, only what we sent when charging ties it to the payment: its metadata's payment_id.
  if (ours.held === null && made.metadata.payment_id !== String(p)) {
    return `${provider}'s ${id} was not made for payment ${p} (its metadata names ${made.metadata.payment_id ? `payment ${made.metadata.payment_id}` : "no payment of ours"}).`;
  }
  if (ours.account !== undefined && made.account !== ours.account) {
    return `${provider}'s ${id} lives on account ${named(made.account)}; payment ${p}'s gym is paid on ${named(ours.account)}.`;
  }
  if (made.amount !== ours.total) return `${provider}'s ${id} is for ${made.amount} cents; payment ${p} is for ${ours.total} (amount and surcharge).`;
  if (made.currency.toLowerCase() !== CURRENCY) return `${provider}'s ${id} is in ${made.currency.toUpperCase()}; payment ${p} is in NZD.`;
  return null;
}

/** The event names another object than the one we hold for the payment. */
export function heldElsewhere(provider: string, id: string, ours: Pick<OurCharge, "paymentId" | "held">): string {
  return `Payment ${ours.paymentId} is ${ours.held} at ${provider}, not ${id}.`;
}
