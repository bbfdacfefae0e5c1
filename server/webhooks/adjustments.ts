import { and, eq, isNull } from "drizzle-orm";
import type Stripe from "stripe";
import { formatCents } from "../../domain/money";
import { chargebackInWords, directDebitChargeback, disputeChargeback, recordChargeback } from "../billing/chargebacks";
import type { Db } from "../core/db/client";
import { gyms, payment_adjustments, payments } from "../core/db/schema";
import type { Retrieved } from "../core/providers/charge-result";
import type { DirectDebitPayment } from "../core/providers/direct-debit/direct-debit-provider";
import type { ProviderRefund } from "../core/providers/refunds";
import type { Providers } from "../core/providers/registry";
import { organisationOfAccount, organisationOfCreditor, paymentFor, refused, stripePaymentOf, wrongCreditor, wrongStripeAccount, type OurPayment, type Processed } from "./ours";
import { notOurCharge } from "./provenance";
import type { GoCardlessEvent } from "./gocardless-event";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * Refunds and chargebacks from the providers' events (issue 28, decision 0041): a refund made in the provider's
 * dashboard, a staff refund's own echo, a dispute, a direct debit charged back. As for payments (decision 0039) the
 * event only says where to look: the provider is asked, on the payment's gym's account, about the object we made,
 * and only its answer is written down. Each refund or chargeback is its own payment_adjustments row, found again by
 * its provider id (unique per method), so an event told twice, late or replayed records nothing more, and a row
 * only moves forward (pending → succeeded | failed; open → won | lost).
 */
const STRIPE_REFUND_EVENTS = new Set(["charge.refunded", "charge.refund.updated", "refund.created", "refund.updated", "refund.failed"]);
const STRIPE_DISPUTE_EVENTS = new Set(["charge.dispute.created", "charge.dispute.updated", "charge.dispute.closed", "charge.dispute.funds_withdrawn", "charge.dispute.funds_reinstated"]);

export const isStripeAdjustmentEvent = (type: string) => STRIPE_REFUND_EVENTS.has(type) || STRIPE_DISPUTE_EVENTS.has(type);

const ignored = (result: string, organisationId: number | null): Processed => ({ status: "ignored", result, organisationId });
const named = (account: string | null) => account ?? "(the platform's own)";
const idOf = (x: string | { id: string } | null | undefined) => (typeof x === "string" ? x : (x?.id ?? null));

/** A charge's, refund's or dispute's event: its intent is our payment's, checked at Stripe on the gym's account, then the refunds or the dispute are read from Stripe. */
export async function processStripeAdjustment(db: Db, providers: Providers, event: Stripe.Event, now: Date): Promise<Processed> {
  const object = event.data.object as { id: string; object: string; payment_intent?: string | { id: string } | null; metadata?: Record<string, string> | null };
  const intent = idOf(object.payment_intent);
  if (!intent) return ignored(`${event.type} for ${object.id} names no payment intent.`, await organisationOfAccount(db, event.account));
  const p = await stripePaymentOf(db, intent, object.metadata);
  if (!p) return ignored(`No payment of ours is ${intent}.`, await organisationOfAccount(db, event.account));
  const otherAccount = wrongStripeAccount(p, event.account);
  if (otherAccount) return refused(p, otherAccount);
  const account = p.gym.stripe_id ?? null;
  const charge = await providers.cards.retrieve(intent, account);
  if (!charge) return refused(p, `Stripe knows no ${intent} on account ${named(account)}.`);
  const wrong = notOurCharge("Stripe", intent, charge.made, { paymentId: p.id, total: p.amount + p.surcharge, held: p.stripe_id, account });
  if (wrong) return refused(p, wrong);
  return STRIPE_DISPUTE_EVENTS.has(event.type) ? stripeDispute(db, providers, p, object.id, intent, account, now) : stripeRefunds(db, providers, p, object, intent, account, now);
}

async function stripeRefunds(db: Db, providers: Providers, p: OurPayment, object: { id: string; object: string }, intent: string, account: string | null, now: Date): Promise<Processed> {
  // Every refund Stripe holds of the intent: one made in its dashboard is learnt here, whatever the event's copy says.
  const held = (await providers.cards.listRefunds(intent, account)).filter((r) => r.paymentReference === intent);
  if (object.object === "refund" && !held.some((r) => r.id === object.id)) return refused(p, `Stripe holds no refund ${object.id} of ${intent} on account ${named(account)}.`);
  if (!held.length) return refused(p, `Stripe holds no refund of ${intent} on account ${named(account)}.`);
  return writeRefunds(db, p, "stripe", held, now);
}

async function stripeDispute(db: Db, providers: Providers, p: OurPayment, id: string, intent: string, account: string | null, now: Date): Promise<Processed> {
  const dispute = await providers.cards.retrieveDispute(id, account);
  if (!dispute) return refused(p, `Stripe knows no dispute ${id} on account ${named(account)}.`);
  if (dispute.paymentReference !== intent) return refused(p, `Stripe's dispute ${id} is of ${dispute.paymentReference || "no intent"}, not ${intent}.`);
  if (dispute.amount < 1) return ignored(`Stripe's dispute ${id} is for nothing.`, p.organisation_id);
  const written = await recordChargeback(db, disputeChargeback(p.id, dispute), now);
  return chargebackProcessed(p, `Dispute ${dispute.id}`, written);
}

/**
 * A paid direct debit GoCardless now says was charged back (the payer's bank took it back under the direct debit
 * guarantee) or failed late (returned after it was confirmed): the money is gone, for the whole payment, and
 * GoCardless chargebacks are final: a lost chargeback, owing again. Called by ./process.ts with GoCardless's answer.
 */
export async function goCardlessTakenBack(db: Db, p: OurPayment, current: Retrieved<DirectDebitPayment>, event: GoCardlessEvent, now: Date): Promise<Processed> {
  const written = await recordChargeback(db, directDebitChargeback(p.id, current, event.action === current.status ? event.details?.description : null), now);
  return chargebackProcessed(p, `${current.status === "charged_back" ? "Chargeback" : "Late failure"} of ${current.id} at GoCardless`, written);
}

/**
 * A direct debit we hold as charged back that GoCardless now answers paid (`chargeback_cancelled`: the payer's bank
 * cancelled its chargeback): the chargeback is reversed. Null when we hold no lost chargeback of it.
 */
export async function goCardlessChargebackCancelled(db: Db, p: OurPayment, current: Retrieved<DirectDebitPayment>, now: Date): Promise<Processed | null> {
  const providerId = `${current.id}:chargeback`;
  const [held] = await db
    .select()
    .from(payment_adjustments)
    .where(and(eq(payment_adjustments.method, "gocardless"), eq(payment_adjustments.provider_id, providerId), eq(payment_adjustments.payment_id, p.id)));
  if (held?.status !== "lost") return null;
  const written = await recordChargeback(db, { paymentId: p.id, method: "gocardless", providerId, status: "won", amount: held.amount, reason: held.reason, description: "" }, now);
  return chargebackProcessed(p, `Chargeback of ${current.id} at GoCardless`, written);
}

function chargebackProcessed(p: OurPayment, what: string, written: Awaited<ReturnType<typeof recordChargeback>>): Processed {
  const told = written.change !== "unchanged" && written.adjustment.status === "lost" ? [written.adjustment.id] : [];
  return { status: written.change === "unchanged" ? "ignored" : "processed", result: chargebackInWords(what, written), organisationId: p.organisation_id, told };
}

/**
 * A GoCardless refund's event (created, paid, failed, refund_settled, funds_returned, bounced…): whose it is comes
 * from the refund we hold, else the payment the event names, else the creditor it names (asked with that gym's own
 * credentials, GoCardless says which payment it refunds); then GoCardless's answer for it is written down.
 */
export async function processGoCardlessRefund(db: Db, providers: Providers, event: GoCardlessEvent, now: Date): Promise<Processed> {
  const id = event.links.refund;
  let p: OurPayment | null = null;
  let refund: ProviderRefund | null = null;
  const [held] = await db
    .select({ payment_id: payment_adjustments.payment_id })
    .from(payment_adjustments)
    .where(and(eq(payment_adjustments.method, "gocardless"), eq(payment_adjustments.provider_id, id)));
  if (held) p = await paymentFor(db, eq(payments.id, held.payment_id));
  else if (event.links.payment) p = await paymentFor(db, eq(payments.gocardless_payment_id, event.links.payment));
  if (!p) {
    const creditor = event.links.organisation;
    const [gym] = creditor
      ? await db.select({ id: gyms.id, organisation_id: gyms.organisation_id, stripe_id: gyms.stripe_id, gocardless_organisation_id: gyms.gocardless_organisation_id, integrations: gyms.integrations }).from(gyms).where(eq(gyms.gocardless_organisation_id, creditor)).limit(1)
      : [];
    if (!gym) return ignored(`No refund or payment of ours is ${id}.`, await organisationOfCreditor(db, creditor));
    refund = await providers.directDebit(gym).retrieveRefund(id);
    if (!refund) return { status: "refused", result: `Refused; nothing changed. GoCardless knows no refund ${id} for the creditor ${creditor}.`, organisationId: gym.organisation_id };
    p = await paymentFor(db, and(eq(payments.gocardless_payment_id, refund.paymentReference), eq(payments.gym_id, gym.id)));
    if (!p) return ignored(`No payment of ours is ${refund.paymentReference} (refunded by ${id}).`, gym.organisation_id);
  }
  const otherCreditor = wrongCreditor(p, event.links.organisation);
  if (otherCreditor) return refused(p, otherCreditor);
  // Asked with the gym's own credentials: GoCardless answers only for its creditor's refunds.
  refund ??= await providers.directDebit(p.gym).retrieveRefund(id);
  if (!refund) return refused(p, `GoCardless knows no refund ${id} for the gym's creditor ${p.gym.gocardless_organisation_id ?? "(the deployment's)"}.`);
  if (!p.gocardless_payment_id || refund.paymentReference !== p.gocardless_payment_id) {
    return refused(p, `GoCardless's refund ${id} is of ${refund.paymentReference}; payment ${p.id} is ${p.gocardless_payment_id ?? "not a GoCardless payment"}.`);
  }
  return writeRefunds(db, p, "gocardless", [refund], now);
}

const PROVIDER_NAMES = { stripe: "Stripe", gocardless: "GoCardless" } as const;

/**
 * The provider's refunds of one of our payments, written down: one we hold (by its provider id, or a staff refund
 * whose answer never reached us, by the refund_id we sent in its metadata) moves on if it settled; one we do not
 * hold (made in the provider's dashboard) is recorded as the provider's. Never more than once (the unique
 * (method, provider_id) index, and updates only of a pending row).
 */
async function writeRefunds(db: Db, p: OurPayment, method: "stripe" | "gocardless", refunds: ProviderRefund[], now: Date): Promise<Processed> {
  const lines: string[] = [];
  const told: number[] = [];
  for (const r of refunds) {
    if (!Number.isSafeInteger(r.amount) || r.amount < 1) continue;
    const written = await writeRefund(db, p, method, r, now);
    if (written) {
      lines.push(written.line);
      told.push(written.id);
    }
  }
  if (!lines.length) return ignored(`${PROVIDER_NAMES[method]}'s refunds of payment ${p.id} are written down already; nothing changes.`, p.organisation_id);
  // The member hears of each (tellMembers: once per refund, when it is made or on its way), a staff refund's too.
  return { status: "processed", result: `Payment ${p.id}: ${lines.join(" ")}`, organisationId: p.organisation_id, told };
}

async function writeRefund(db: Db, p: OurPayment, method: "stripe" | "gocardless", r: ProviderRefund, now: Date): Promise<{ id: number; line: string } | null> {
  const amount = formatCents(r.amount);
  const final = r.status === "pending" ? null : now;
  const error = r.status === "failed" ? (r.failureReason ?? `${PROVIDER_NAMES[method]} did not make the refund.`) : null;
  let [held] = await db
    .select()
    .from(payment_adjustments)
    .where(and(eq(payment_adjustments.method, method), eq(payment_adjustments.provider_id, r.id)));
  const ours = Number(r.metadata.refund_id);
  if (!held && Number.isSafeInteger(ours) && ours > 0) {
    [held] = await db
      .select()
      .from(payment_adjustments)
      .where(and(eq(payment_adjustments.id, ours), eq(payment_adjustments.payment_id, p.id), eq(payment_adjustments.kind, "refund"), eq(payment_adjustments.method, method), isNull(payment_adjustments.provider_id)));
  }
  if (held) {
    if (held.payment_id !== p.id || held.kind !== "refund" || held.status !== "pending") return null;
    const settles = r.status !== "pending";
    if (!settles && held.provider_id === r.id) return null;
    // With its outgoing webhook, in one transaction: a refund that went through is payment.refunded.
    const [moved] = await db.transaction(async (tx) => {
      const rows = await tx
        .update(payment_adjustments)
        .set(settles ? { provider_id: r.id, status: r.status, settled_at: final, error } : { provider_id: r.id })
        .where(and(eq(payment_adjustments.id, held.id), eq(payment_adjustments.status, "pending")))
        .returning({ id: payment_adjustments.id });
      if (rows.length && r.status === "succeeded") await recordWebhookEvent({ db: tx, organisationId: p.organisation_id }, "payment.refunded", p.id, now);
      return rows;
    });
    if (!moved) return null;
    return { id: held.id, line: settles ? `Refund ${r.id} of ${amount} ${r.status} (refund ${held.id}).` : `Refund ${r.id} of ${amount} is on its way at ${PROVIDER_NAMES[method]} (refund ${held.id}).` };
  }
  const [made] = await db.transaction(async (tx) => {
    const rows = await tx
      .insert(payment_adjustments)
      .values({
        organisation_id: p.organisation_id,
        gym_id: p.gym.id,
        user_id: p.user_id,
        payment_id: p.id,
        kind: "refund",
        status: r.status,
        amount: r.amount,
        note: `Made at ${PROVIDER_NAMES[method]}, not through us.`,
        source: "provider",
        method,
        provider_id: r.id,
        error,
        settled_at: final,
        created_at: now,
      })
      .onConflictDoNothing()
      .returning({ id: payment_adjustments.id });
    if (rows.length && r.status === "succeeded") await recordWebhookEvent({ db: tx, organisationId: p.organisation_id }, "payment.refunded", p.id, now);
    return rows;
  });
  return made ? { id: made.id, line: `Refund ${r.id} of ${amount} recorded (${r.status}), made at ${PROVIDER_NAMES[method]}.` } : null;
}
