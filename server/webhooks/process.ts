import { and, eq, or, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { localDay } from "../../domain/dates";
import { graceEnds } from "../../domain/failures";
import { recordOutcomes, type ChargeOutcome, type ProviderName } from "../billing/outcomes";
import type { Db } from "../db/client";
import { gyms, organisations, payments } from "../db/schema";
import type { CardChargeResult, CardProvider } from "../providers/cards/card-provider";

/**
 * What a provider's event means for our payments (issue 11). Events may come twice, late or out of order, so
 * nothing here trusts an event's order: a payment only moves forward (only a pending one is settled, through the
 * same outcomes.ts as the billing run), and for a card charge the provider is asked for its state now, which wins
 * over the event's snapshot.
 */
export interface Processed {
  status: "processed" | "ignored";
  result: string;
  organisationId: number | null;
}

const STRIPE_INTENT_EVENTS = new Set(["payment_intent.succeeded", "payment_intent.payment_failed", "payment_intent.processing", "payment_intent.canceled"]);

async function paymentFor(db: Db, where: ReturnType<typeof and>) {
  const [row] = await db
    .select({
      id: payments.id,
      status: payments.status,
      subscription_id: payments.subscription_id,
      organisation_id: payments.organisation_id,
      is_term_membership: payments.is_term_membership,
      grace: { amount: organisations.failed_payment_grace_period, unit: organisations.failed_payment_grace_period_unit },
      termGrace: { amount: organisations.term_membership_grace_period, unit: organisations.term_membership_grace_period_unit },
    })
    .from(payments)
    .innerJoin(organisations, eq(organisations.id, payments.organisation_id))
    .where(where)
    .limit(1);
  return row ?? null;
}

type OurPayment = NonNullable<Awaited<ReturnType<typeof paymentFor>>>;

function outcomeOf(p: OurPayment, provider: ProviderName, state: CardChargeResult, now: Date): ChargeOutcome {
  if (state.status === "succeeded") return { kind: "paid", paymentId: p.id, subscriptionId: p.subscription_id, provider, reference: state.id };
  if (state.status === "processing") return { kind: "processing", paymentId: p.id, provider, reference: state.id };
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
  };
}

async function settle(db: Db, p: OurPayment, outcome: ChargeOutcome, what: string): Promise<Processed> {
  if (p.status !== "pending") {
    return { status: "ignored", result: `Payment ${p.id} is ${p.status} already; ${what} changes nothing (a payment only moves forward).`, organisationId: p.organisation_id };
  }
  await recordOutcomes(db, [outcome]);
  const [after] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, p.id));
  return { status: "processed", result: `Payment ${p.id}: ${what}, now ${after.status}.`, organisationId: p.organisation_id };
}

export async function processStripeEvent(db: Db, cards: CardProvider, event: Stripe.Event, now: Date): Promise<Processed> {
  if (!STRIPE_INTENT_EVENTS.has(event.type)) return { status: "ignored", result: `${event.type} is not an event we act on.`, organisationId: null };
  const intent = event.data.object as Stripe.PaymentIntent;
  const paymentId = Number(intent.metadata?.payment_id);
  const p = await paymentFor(
    db,
    Number.isSafeInteger(paymentId) && paymentId > 0 ? or(eq(payments.stripe_id, intent.id), eq(payments.id, paymentId)) : eq(payments.stripe_id, intent.id),
  );
  if (!p) return { status: "ignored", result: `No payment of ours is ${intent.id}.`, organisationId: await organisationOfAccount(db, event.account) };
  // The provider's state now, not the event's: a late payment_failed after a success must not undo it.
  const current = (await cards.retrieve(intent.id)) ?? stateOfIntent(intent);
  return settle(db, p, outcomeOf(p, "stripe", current, now), `Stripe says ${intent.id} ${current.status}`);
}

/** The organisation whose gym is paid through a Stripe Connect account: whose staff see a call we could not match. */
async function organisationOfAccount(db: Db, account: string | undefined | null): Promise<number | null> {
  if (!account) return null;
  const [gym] = await db.select({ organisation_id: gyms.organisation_id }).from(gyms).where(eq(gyms.stripe_id, account)).limit(1);
  return gym?.organisation_id ?? null;
}

function stateOfIntent(intent: Stripe.PaymentIntent): CardChargeResult {
  if (intent.status === "succeeded") return { status: "succeeded", id: intent.id };
  if (intent.status === "processing") return { status: "processing", id: intent.id };
  const error = intent.last_payment_error;
  return { status: "declined", id: intent.id, declineCode: error?.decline_code ?? error?.code ?? intent.status, message: error?.message ?? "The card was not charged." };
}

/** A GoCardless event (https://developer.gocardless.com/api-reference#core-endpoints-events). */
export interface GoCardlessEvent {
  id: string;
  created_at: string;
  resource_type: string;
  action: string;
  links: Record<string, string>;
  details?: { cause?: string; description?: string; origin?: string };
}

const GOCARDLESS_PAID = new Set(["confirmed", "paid_out"]);
const GOCARDLESS_FAILED = new Set(["failed", "cancelled", "charged_back", "late_failure_settled"]);

export async function processGoCardlessEvent(db: Db, event: GoCardlessEvent, now: Date): Promise<Processed> {
  if (event.resource_type !== "payments" || !event.links?.payment) {
    return { status: "ignored", result: `${event.resource_type}.${event.action} is not an event we act on.`, organisationId: null };
  }
  const p = await paymentFor(db, and(eq(payments.gocardless_payment_id, event.links.payment), sql`true`));
  if (!p) return { status: "ignored", result: `No payment of ours is ${event.links.payment}.`, organisationId: null };
  let state: CardChargeResult;
  if (GOCARDLESS_PAID.has(event.action)) state = { status: "succeeded", id: event.links.payment };
  else if (GOCARDLESS_FAILED.has(event.action)) {
    state = { status: "declined", id: event.links.payment, declineCode: event.details?.cause ?? event.action, message: event.details?.description ?? `The direct debit ${event.action}.` };
  } else return { status: "ignored", result: `payments.${event.action} leaves payment ${p.id} as it is.`, organisationId: p.organisation_id };
  return settle(db, p, outcomeOf(p, "gocardless", state, now), `GoCardless says ${event.links.payment} ${event.action}`);
}
