import { and, eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { localDay } from "../../domain/dates";
import { graceEnds } from "../../domain/failures";
import { recordOutcomes, type ChargeOutcome } from "../billing/outcomes";
import type { Db } from "../core/db/client";
import { bank_connections, payments } from "../core/db/schema";
import { bankPaymentResult, type AkahuWebhookPayload } from "../core/providers/bank/bank-provider";
import type { ChargeResult, PaymentProviderName } from "../core/providers/charge-result";
import { directDebitResult, type DirectDebitPayment } from "../core/providers/direct-debit/direct-debit-provider";
import type { Providers } from "../core/providers/registry";
import type { GoCardlessEvent } from "./gocardless-event";
import { goCardlessChargebackCancelled, goCardlessTakenBack, isStripeAdjustmentEvent, processGoCardlessRefund, processStripeAdjustment } from "./adjustments";
import { organisationOfAccount, organisationOfCreditor, paymentFor, refused, stripePaymentOf, wrongCreditor, wrongStripeAccount, type OurPayment, type Processed } from "./ours";
import { heldElsewhere, notOurCharge } from "./provenance";

export type { Processed };

/**
 * What a provider's event means for our payments (issue 11). Events may come twice, late or out of order, so
 * nothing here trusts an event's order: a payment only moves forward (only an unsettled one is settled, through
 * the same outcomes.ts as the billing run), and only from the provider's own answer for the object we made, on
 * the account it belongs to, for our amount (./provenance.ts, decision 0039). The event's snapshot settles nothing:
 * a provider that cannot be asked throws (the call is answered 503 and sent again later); one that knows no such
 * object, or an event or object that is not our payment's, is refused (stored, answered 2xx, never applied).
 * Refunds and chargebacks of paid payments are ./adjustments.ts's.
 */
const STRIPE_INTENT_EVENTS = new Set(["payment_intent.succeeded", "payment_intent.payment_failed", "payment_intent.processing", "payment_intent.canceled"]);

function outcomeOf(p: OurPayment, provider: PaymentProviderName, state: ChargeResult, now: Date): ChargeOutcome {
  if (state.status === "succeeded") return { kind: "paid", paymentId: p.id, subscriptionId: p.subscription_id, provider, reference: state.id };
  if (state.status === "processing") return { kind: "processing", paymentId: p.id, provider, reference: state.id, chargeDate: state.chargeDate ?? null };
  if (state.status === "awaiting_approval") return { kind: "awaiting", paymentId: p.id, provider, reference: state.id };
  const g = p.is_term_membership ? p.termGrace : p.grace;
  return {
    kind: "failed",
    paymentId: p.id,
    subscriptionId: p.subscription_id,
    provider,
    reference: state.id,
    code: state.declineCode,
    message: state.message,
    graceEnds: graceEnds(localDay(now), g.amount, g.unit),
    // The retries count from this (planRetryIds): on the handler's clock, as the grace period above, not the
    // database's, which a simulated run (npm run billing -- --until, the crash trial) is not on.
    failedAt: now,
  };
}

const UNSETTLED = new Set(["pending", "awaiting_payment"]);

async function settle(db: Db, p: OurPayment, outcome: ChargeOutcome, what: string, now: Date): Promise<Processed> {
  if (!UNSETTLED.has(p.status)) {
    return { status: "ignored", result: `Payment ${p.id} is ${p.status} already; ${what} changes nothing (a payment only moves forward).`, organisationId: p.organisation_id };
  }
  await recordOutcomes(db, [outcome], now);
  const [after] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, p.id));
  return { status: "processed", result: `Payment ${p.id}: ${what}, now ${after.status}.`, organisationId: p.organisation_id };
}

export async function processStripeEvent(db: Db, providers: Providers, event: Stripe.Event, now: Date): Promise<Processed> {
  if (isStripeAdjustmentEvent(event.type)) return processStripeAdjustment(db, providers, event, now);
  if (!STRIPE_INTENT_EVENTS.has(event.type)) return { status: "ignored", result: `${event.type} is not an event we act on.`, organisationId: null };
  const intent = event.data.object as Stripe.PaymentIntent;
  const p = await stripePaymentOf(db, intent.id, intent.metadata);
  if (!p) return { status: "ignored", result: `No payment of ours is ${intent.id}.`, organisationId: await organisationOfAccount(db, event.account) };
  // A Connect event says whose account it comes from; our charge was made on the gym's (none: the platform's own).
  const account = p.gym.stripe_id ?? null;
  const otherAccount = wrongStripeAccount(p, event.account);
  if (otherAccount) return refused(p, otherAccount);
  if (p.stripe_id && p.stripe_id !== intent.id) return refused(p, heldElsewhere("Stripe", intent.id, { paymentId: p.id, held: p.stripe_id }));
  // Stripe's answer now, on the gym's account, not the event's copy: a late payment_failed after a success must not
  // undo it, and an intent Stripe never made (or made on another account) settles nothing.
  const current = await providers.cards.retrieve(intent.id, account);
  if (!current) return refused(p, `Stripe knows no ${intent.id} on account ${account ?? "(the platform's own)"}.`);
  const wrong = notOurCharge("Stripe", intent.id, current.made, { paymentId: p.id, total: p.amount + p.surcharge, held: p.stripe_id, account });
  if (wrong) return refused(p, wrong);
  return settle(db, p, outcomeOf(p, "stripe", current, now), `Stripe says ${intent.id} ${current.status}`, now);
}

export async function processGoCardlessEvent(db: Db, providers: Providers, event: GoCardlessEvent, now: Date): Promise<Processed> {
  if (event.resource_type === "refunds" && event.links?.refund) return processGoCardlessRefund(db, providers, event, now);
  if (event.resource_type !== "payments" || !event.links?.payment) {
    return { status: "ignored", result: `${event.resource_type}.${event.action} is not an event we act on.`, organisationId: await organisationOfCreditor(db, event.links?.organisation) };
  }
  const id = event.links.payment;
  const p = await paymentFor(db, eq(payments.gocardless_payment_id, id));
  if (!p) return { status: "ignored", result: `No payment of ours is ${id}.`, organisationId: await organisationOfCreditor(db, event.links.organisation) };
  // A partner app's events name the creditor they are for; the gym's is the only one whose events settle its payments.
  const creditor = p.gym.gocardless_organisation_id;
  const otherCreditor = wrongCreditor(p, event.links.organisation);
  if (otherCreditor) return refused(p, otherCreditor);
  // Asked with the gym's own credentials, GoCardless answers only for its creditor's payments.
  const current = await providers.directDebit(p.gym).retrieve(id);
  if (!current) return refused(p, `GoCardless knows no ${id} for the gym's creditor ${creditor ?? "(the deployment's)"}.`);
  const wrong = notOurCharge("GoCardless", id, current.made, { paymentId: p.id, total: p.amount + p.surcharge, held: p.gocardless_payment_id });
  if (wrong) return refused(p, wrong);
  // A paid direct debit the payer's bank took back (charged back, or a late failure): a chargeback, owing again.
  if (p.status === "sent" && (current.status === "charged_back" || current.status === "failed")) return goCardlessTakenBack(db, p, current, event, now);
  // Paid again after it was charged back (chargeback_cancelled): the chargeback we hold is undone.
  if (p.status === "sent" && (current.status === "confirmed" || current.status === "paid_out")) {
    const reinstated = await goCardlessChargebackCancelled(db, p, current, now);
    if (reinstated) return reinstated;
  }
  const state: DirectDebitPayment = { ...current };
  // A failure's cause is told on its event; the payment object does not carry it.
  if (!state.cause && event.action === state.status) Object.assign(state, { cause: event.details?.cause ?? null, description: event.details?.description ?? null });
  return settle(db, p, outcomeOf(p, "gocardless", directDebitResult(state), now), `GoCardless says ${id} ${state.status}`, now);
}

/** The member a webhook subscription was made for: we subscribe with state `o{organisation}:u{user}` (server/core/providers/bank). */
export function akahuSubscriber(state: string | undefined): { organisationId: number; userId: number } | null {
  const m = /^o(\d+):u(\d+)$/.exec(state ?? "");
  return m ? { organisationId: Number(m[1]), userId: Number(m[2]) } : null;
}

/** An Akahu webhook (https://developers.akahu.nz/docs/reference-webhooks): payments we made, and tokens revoked. */
export async function processAkahuEvent(db: Db, providers: Providers, payload: AkahuWebhookPayload, now: Date): Promise<Processed> {
  const subscriber = akahuSubscriber(payload.state);
  if (payload.webhook_type === "TOKEN" && payload.webhook_code === "DELETE") {
    if (!subscriber) return { status: "ignored", result: "A revoked token whose member we cannot tell (no state).", organisationId: null };
    const revoked = await db
      .update(bank_connections)
      .set({ revoked_at: now, reauthenticate: true, updated_at: now })
      .where(and(eq(bank_connections.organisation_id, subscriber.organisationId), eq(bank_connections.user_id, subscriber.userId), sql`${bank_connections.revoked_at} is null`))
      .returning({ id: bank_connections.id });
    return {
      status: revoked.length ? "processed" : "ignored",
      result: revoked.length ? `Member ${subscriber.userId} revoked their bank connection: they must connect their bank again.` : `Member ${subscriber.userId} has no live bank connection.`,
      organisationId: subscriber.organisationId,
    };
  }
  if (payload.webhook_type !== "PAYMENT" || !payload.item_id) {
    return { status: "ignored", result: `${payload.webhook_type}.${payload.webhook_code} is not an event we act on.`, organisationId: subscriber?.organisationId ?? null };
  }
  const id = payload.item_id;
  const p = await paymentFor(db, eq(payments.akahu_payment_id, id));
  if (!p) return { status: "ignored", result: `No payment of ours is ${id}.`, organisationId: subscriber?.organisationId ?? null };
  // We subscribe per member: an update subscribed for someone else does not speak for this member's payment.
  if (subscriber && (subscriber.organisationId !== p.organisation_id || subscriber.userId !== p.user_id)) {
    return refused(p, `The update was subscribed for another member (organisation ${subscriber.organisationId}, member ${subscriber.userId}), not payment ${p.id}'s.`);
  }
  const [connection] = await db
    .select({ token: bank_connections.access_token })
    .from(bank_connections)
    .where(and(eq(bank_connections.organisation_id, p.organisation_id), eq(bank_connections.user_id, p.user_id), eq(bank_connections.provider, "akahu")));
  // Only the member's own token shows their payments; without it Akahu cannot be asked, and the event alone settles nothing.
  if (!connection) return refused(p, `Akahu cannot be asked about ${id}: member ${p.user_id} has no bank connection.`);
  const current = await providers.bank(p.gym).retrieve(connection.token, id);
  if (!current) return refused(p, `Akahu knows no ${id} for member ${p.user_id}.`);
  const wrong = notOurCharge("Akahu", id, current.made, { paymentId: p.id, total: p.amount + p.surcharge, held: p.akahu_payment_id });
  if (wrong) return refused(p, wrong);
  return settle(db, p, outcomeOf(p, "akahu", bankPaymentResult(current), now), `Akahu says ${id} ${current.status}`, now);
}
