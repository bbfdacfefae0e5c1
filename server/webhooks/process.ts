import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type Stripe from "stripe";
import { localDay } from "../../domain/dates";
import { graceEnds } from "../../domain/failures";
import { recordOutcomes, type ChargeOutcome } from "../billing/outcomes";
import type { Db } from "../db/client";
import { bank_connections, gyms, organisations, payments } from "../db/schema";
import { bankPaymentResult, type AkahuWebhookPayload, type BankPaymentStatus } from "../providers/bank/bank-provider";
import type { ChargeResult, PaymentProviderName } from "../providers/charge-result";
import { directDebitResult, type DirectDebitPayment } from "../providers/direct-debit/direct-debit-provider";
import type { Providers } from "../providers/registry";

/**
 * What a provider's event means for our payments (issue 11). Events may come twice, late or out of order, so
 * nothing here trusts an event's order: a payment only moves forward (only an unsettled one is settled, through
 * the same outcomes.ts as the billing run), and the provider is asked for the payment's state now, which wins over
 * the event's snapshot; the event's own words are used only when the provider cannot be asked.
 */
export interface Processed {
  status: "processed" | "ignored";
  result: string;
  organisationId: number | null;
}

const STRIPE_INTENT_EVENTS = new Set(["payment_intent.succeeded", "payment_intent.payment_failed", "payment_intent.processing", "payment_intent.canceled"]);

async function paymentFor(db: Db, where: SQL | undefined) {
  const [row] = await db
    .select({
      id: payments.id,
      status: payments.status,
      subscription_id: payments.subscription_id,
      organisation_id: payments.organisation_id,
      user_id: payments.user_id,
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

type OurPayment = NonNullable<Awaited<ReturnType<typeof paymentFor>>>;

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
  };
}

const UNSETTLED = new Set(["pending", "awaiting_payment"]);

async function settle(db: Db, p: OurPayment, outcome: ChargeOutcome, what: string): Promise<Processed> {
  if (!UNSETTLED.has(p.status)) {
    return { status: "ignored", result: `Payment ${p.id} is ${p.status} already; ${what} changes nothing (a payment only moves forward).`, organisationId: p.organisation_id };
  }
  await recordOutcomes(db, [outcome]);
  const [after] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, p.id));
  return { status: "processed", result: `Payment ${p.id}: ${what}, now ${after.status}.`, organisationId: p.organisation_id };
}

export async function processStripeEvent(db: Db, providers: Providers, event: Stripe.Event, now: Date): Promise<Processed> {
  if (!STRIPE_INTENT_EVENTS.has(event.type)) return { status: "ignored", result: `${event.type} is not an event we act on.`, organisationId: null };
  const intent = event.data.object as Stripe.PaymentIntent;
  const paymentId = Number(intent.metadata?.payment_id);
  const p = await paymentFor(
    db,
    Number.isSafeInteger(paymentId) && paymentId > 0 ? or(eq(payments.stripe_id, intent.id), eq(payments.id, paymentId)) : eq(payments.stripe_id, intent.id),
  );
  if (!p) return { status: "ignored", result: `No payment of ours is ${intent.id}.`, organisationId: await organisationOfAccount(db, event.account) };
  // The provider's state now, not the event's: a late payment_failed after a success must not undo it.
  const current = (await providers.cards.retrieve(intent.id, event.account ?? p.gym.stripe_id)) ?? stateOfIntent(intent);
  return settle(db, p, outcomeOf(p, "stripe", current, now), `Stripe says ${intent.id} ${current.status}`);
}

/** The organisation whose gym is paid through a Stripe Connect account: whose staff see a call we could not match. */
async function organisationOfAccount(db: Db, account: string | undefined | null): Promise<number | null> {
  if (!account) return null;
  const [gym] = await db.select({ organisation_id: gyms.organisation_id }).from(gyms).where(eq(gyms.stripe_id, account)).limit(1);
  return gym?.organisation_id ?? null;
}

function stateOfIntent(intent: Stripe.PaymentIntent): ChargeResult {
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

const GOCARDLESS_STATUSES = new Set(["pending_submission", "submitted", "confirmed", "paid_out", "failed", "cancelled", "charged_back"]);

export async function processGoCardlessEvent(db: Db, providers: Providers, event: GoCardlessEvent, now: Date): Promise<Processed> {
  if (event.resource_type !== "payments" || !event.links?.payment) {
    return { status: "ignored", result: `${event.resource_type}.${event.action} is not an event we act on.`, organisationId: await organisationOfCreditor(db, event.links?.organisation) };
  }
  const id = event.links.payment;
  const p = await paymentFor(db, eq(payments.gocardless_payment_id, id));
  if (!p) return { status: "ignored", result: `No payment of ours is ${id}.`, organisationId: await organisationOfCreditor(db, event.links.organisation) };
  const current = await providers.directDebit(p.gym).retrieve(id);
  if (!current && !GOCARDLESS_STATUSES.has(event.action)) return { status: "ignored", result: `payments.${event.action} leaves payment ${p.id} as it is.`, organisationId: p.organisation_id };
  const state: DirectDebitPayment = current ?? { id, status: event.action as DirectDebitPayment["status"], chargeDate: null };
  // A failure's cause is told on its event; the payment object does not carry it.
  if (!state.cause && event.action === state.status) Object.assign(state, { cause: event.details?.cause ?? null, description: event.details?.description ?? null });
  return settle(db, p, outcomeOf(p, "gocardless", directDebitResult(state), now), `GoCardless says ${id} ${state.status}`);
}

/** The organisation whose gym collects through a GoCardless organisation (a partner app's event names it). */
async function organisationOfCreditor(db: Db, creditor: string | undefined): Promise<number | null> {
  if (!creditor) return null;
  const [gym] = await db.select({ organisation_id: gyms.organisation_id }).from(gyms).where(eq(gyms.gocardless_organisation_id, creditor)).limit(1);
  return gym?.organisation_id ?? null;
}

/** The member a webhook subscription was made for: we subscribe with state `o{organisation}:u{user}` (server/providers/bank). */
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
  const [connection] = await db
    .select({ token: bank_connections.access_token })
    .from(bank_connections)
    .where(and(eq(bank_connections.organisation_id, p.organisation_id), eq(bank_connections.user_id, p.user_id), eq(bank_connections.provider, "akahu")));
  const current = connection ? await providers.bank(p.gym).retrieve(connection.token, id) : null;
  // RECEIVED: the money reached the gym's account, which only a sent payment does.
  const told: BankPaymentStatus = payload.webhook_code === "RECEIVED" ? "SENT" : ((payload.status as BankPaymentStatus | undefined) ?? "READY");
  const state = current ?? { id, status: told, statusCode: payload.status_code ?? null, statusText: payload.status_text ?? null };
  return settle(db, p, outcomeOf(p, "akahu", bankPaymentResult(state), now), `Akahu says ${id} ${state.status}`);
}
