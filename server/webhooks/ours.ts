import { eq, type SQL } from "drizzle-orm";
import type { Db } from "../core/db/client";
import { gyms, organisations, payments } from "../core/db/schema";

/**
 * What every provider event's handling shares (./process.ts for payments, ./adjustments.ts for refunds and
 * chargebacks): the payment an event names, with its gym's accounts and grace settings, and what a call's row says.
 */
export interface Processed {
  status: "processed" | "ignored" | "refused";
  result: string;
  organisationId: number | null;
  /** Refunds and chargebacks written now that the member is to hear of (server/billing/refunds.ts `tellMembers`). */
  told?: number[];
}

/** An event that names our payment but is not its provider's word on it: kept for staff, changes nothing. */
export const refused = (p: { id: number; organisation_id: number }, why: string): Processed => ({
  status: "refused",
  result: `Refused; payment ${p.id} left as it is. ${why}`,
  organisationId: p.organisation_id,
});

export async function paymentFor(db: Db, where: SQL | undefined) {
  const [row] = await db
    .select({
      id: payments.id,
      status: payments.status,
      subscription_id: payments.subscription_id,
      organisation_id: payments.organisation_id,
      user_id: payments.user_id,
      amount: payments.amount,
      surcharge: payments.surcharge,
      stripe_id: payments.stripe_id,
      gocardless_payment_id: payments.gocardless_payment_id,
      akahu_payment_id: payments.akahu_payment_id,
      is_term_membership: payments.is_term_membership,
      gym: { id: gyms.id, stripe_id: gyms.stripe_id, gocardless_organisation_id: gyms.gocardless_organisation_id, integrations: gyms.integrations },
      grace: { amount: organisations.failed_payment_grace_period, unit: organisations.failed_payment_grace_period_unit },
      termGrace: { amount: organisations.term_membership_grace_period, unit: organisations.term_membership_grace_period_unit },
    })
    .from(payments)
    .innerJoin(organisations, eq(organisations.id, payments.organisation_id))
    .innerJoin(gyms, eq(gyms.id, payments.gym_id))
    .where(where)
    .limit(1);
  return row ?? null;
}

export type OurPayment = NonNullable<Awaited<ReturnType<typeof paymentFor>>>;

/**
 * The payment a Stripe object (an intent, or a charge's or refund's intent) is for: the one we wrote the intent down
 * for, else the one its metadata names (what we send with every charge and refund). Checked at Stripe before use.
 */
export async function stripePaymentOf(db: Db, intent: string, metadata: Record<string, string> | null | undefined) {
  const held = await paymentFor(db, eq(payments.stripe_id, intent));
  if (held) return held;
  const paymentId = Number(metadata?.payment_id);
  return Number.isSafeInteger(paymentId) && paymentId > 0 ? paymentFor(db, eq(payments.id, paymentId)) : null;
}

/** The organisation whose gym is paid through a Stripe Connect account: whose staff see a call we could not match. */
export async function organisationOfAccount(db: Db, account: string | undefined | null): Promise<number | null> {
  if (!account) return null;
  const [gym] = await db.select({ organisation_id: gyms.organisation_id }).from(gyms).where(eq(gyms.stripe_id, account)).limit(1);
  return gym?.organisation_id ?? null;
}

/** The organisation whose gym collects through a GoCardless organisation (a partner app's event names it). */
export async function organisationOfCreditor(db: Db, creditor: string | undefined): Promise<number | null> {
  if (!creditor) return null;
  const [gym] = await db.select({ organisation_id: gyms.organisation_id }).from(gyms).where(eq(gyms.gocardless_organisation_id, creditor)).limit(1);
  return gym?.organisation_id ?? null;
}

/** A Stripe Connect event comes from the account it names; our charges live on the gym's (none: the platform's own). */
export function wrongStripeAccount(p: OurPayment, eventAccount: string | null | undefined): string | null {
  const account = p.gym.stripe_id ?? null;
  if ((eventAccount ?? null) === account) return null;
  return `The event comes from Stripe account ${eventAccount ?? "(the platform's own)"}; payment ${p.id}'s gym is paid on ${account ?? "the platform's own"}.`;
}

/** A partner app's GoCardless events name the creditor they are for; the gym's is the only one whose events speak for its payments. */
export function wrongCreditor(p: OurPayment, organisation: string | undefined): string | null {
  const creditor = p.gym.gocardless_organisation_id;
  if (!creditor || !organisation || organisation === creditor) return null;
  return `The event is for GoCardless organisation ${organisation}; payment ${p.id}'s gym collects as ${creditor}.`;
}
