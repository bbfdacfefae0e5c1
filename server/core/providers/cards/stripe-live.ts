import Stripe from "stripe";
import { ProviderError } from "../errors";
import { stripeDisputeStatus, stripeRefundStatus, type ProviderRefund } from "../refunds";
import type { CardCharge, CardChargeResult, CardProvider, CardSetupResult } from "./card-provider";

export interface StripeSettings {
  secretKey: string;
  /** The Connect account charges go to when a charge names none (a single-gym deployment's own account). */
  account?: string | null;
  /** Tests point the SDK at a local fake that answers as Stripe documents. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

/**
 * Cards through Stripe itself: an off-session PaymentIntent confirmed at once with the member's saved payment
 * method, sent with our idempotency key so Stripe charges it once however often we ask. A decline is Stripe's
 * card error (its decline_code, else its code); a network failure or 5xx is a ProviderError the engine
 * may send again with the same key.
 */
export function stripeCards(settings: StripeSettings): CardProvider {
  const stripe = new Stripe(settings.secretKey, {
    host: settings.host,
    port: settings.port,
    protocol: settings.protocol,
    maxNetworkRetries: 2,
    timeout: 20_000,
  });
  const failed = (err: unknown): never => {
    if (err instanceof Stripe.errors.StripeError) {
      const retryable = err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeAPIError || err instanceof Stripe.errors.StripeRateLimitError || (err.statusCode ?? 0) >= 500;
      throw new ProviderError(`Stripe: ${err.message}`, retryable);
    }
    throw err;
  };
  return {
    name: "stripe",
    mode: "live",
    /** A customer on the gym's account, then Checkout in setup mode for it (https://docs.stripe.com/payments/save-and-reuse?platform=checkout). */
    async startSetup(req) {
      const options = { stripeAccount: req.account ?? settings.account ?? undefined };
      try {
        const customer = await stripe.customers.create(
          { email: req.email, name: req.name, metadata: { reference: req.reference } },
          { ...options, idempotencyKey: `${req.idempotencyKey}:customer` },
        );
        const session = await stripe.checkout.sessions.create(
          {
            mode: "setup",
            currency: "nzd",
            customer: customer.id,
            // This Stripe API version chooses the methods from the account's settings (dynamic payment methods); a
            // saved method that is not a card is refused when read back (readSetup), so the gym keeps cards only on.
            client_reference_id: req.reference,
            success_url: req.successUrl,
            cancel_url: req.cancelUrl,
            metadata: { reference: req.reference },
          },
          { ...options, idempotencyKey: `${req.idempotencyKey}:session` },
        );
        return { id: session.id, url: session.url! };
      } catch (err) {
        return failed(err);
      }
    },
    async readSetup(id, account): Promise<CardSetupResult | null> {
      try {
        const session = await stripe.checkout.sessions.retrieve(id, { expand: ["setup_intent.payment_method"] }, { stripeAccount: account ?? settings.account ?? undefined });
        if (session.status !== "complete") return { status: session.status === "expired" ? "expired" : "open" };
        const intent = session.setup_intent as Stripe.SetupIntent | null;
        const method = intent?.payment_method as Stripe.PaymentMethod | null;
        if (!intent || intent.status !== "succeeded" || !method?.card) return { status: "open" };
        return {
          status: "complete",
          reference: session.client_reference_id,
          customer: typeof session.customer === "string" ? session.customer : session.customer!.id,
          paymentMethod: method.id,
          card: { brand: method.card.brand, last_four: method.card.last4, exp_month: method.card.exp_month, exp_year: method.card.exp_year, country: method.card.country },
        };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        return failed(err);
      }
    },
    /** On the connected account the charge was made on: Stripe answers 404 for an intent of any other account. */
    async retrieve(id, account) {
      const on = account ?? settings.account ?? null;
      try {
        const intent = await stripe.paymentIntents.retrieve(id, {}, { stripeAccount: on ?? undefined });
        return { ...intentResult(intent), made: { amount: intent.amount, currency: intent.currency, account: on, metadata: { ...intent.metadata } } };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        if (err instanceof Stripe.errors.StripeError) throw new ProviderError(`Stripe: ${err.message}`, true);
        throw err;
      }
    },
    /** A refund of the intent, on the account it was charged on, with our key (https://docs.stripe.com/api/refunds/create). */
    async refund(req) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: req.paymentReference, amount: req.amount, metadata: req.metadata, reason: stripeReason(req.reason) },
          { idempotencyKey: req.idempotencyKey, stripeAccount: req.account ?? settings.account ?? undefined },
        );
        return refundOf(refund);
      } catch (err) {
        return failed(err);
      }
    },
    async retrieveRefund(id, account) {
      try {
        return refundOf(await stripe.refunds.retrieve(id, {}, { stripeAccount: account ?? settings.account ?? undefined }));
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        return failed(err);
      }
    },
    async listRefunds(paymentReference, account) {
      try {
        const list = await stripe.refunds.list({ payment_intent: paymentReference, limit: 100 }, { stripeAccount: account ?? settings.account ?? undefined });
        return list.data.map(refundOf);
      } catch (err) {
        return failed(err);
      }
    },
    /** Every intent made on the account in the window (https://docs.stripe.com/api/payment_intents/list), all pages. */
    async listCharges(window, account) {
      const on = account ?? settings.account ?? null;
      try {
        const listed = [];
        const pages = stripe.paymentIntents.list({ created: { gte: seconds(window.from), lt: seconds(window.until) }, limit: 100 }, { stripeAccount: on ?? undefined });
        for await (const intent of pages) {
          listed.push({ ...intentResult(intent), made: { amount: intent.amount, currency: intent.currency, account: on, metadata: { ...intent.metadata } }, created: new Date(intent.created * 1000) });
        }
        return listed;
      } catch (err) {
        return failed(err);
      }
    },
    /** Every refund made on the account in the window (https://docs.stripe.com/api/refunds/list), all pages. */
    async listRefundsBetween(window, account) {
      try {
        const listed: ProviderRefund[] = [];
        const pages = stripe.refunds.list({ created: { gte: seconds(window.from), lt: seconds(window.until) }, limit: 100 }, { stripeAccount: account ?? settings.account ?? undefined });
        for await (const refund of pages) listed.push(refundOf(refund));
        return listed;
      } catch (err) {
        return failed(err);
      }
    },
    /** Every dispute opened on the account in the window (https://docs.stripe.com/api/disputes/list), all pages. */
    async listDisputesBetween(window, account) {
      try {
        const listed = [];
        const pages = stripe.disputes.list({ created: { gte: seconds(window.from), lt: seconds(window.until) }, limit: 100 }, { stripeAccount: account ?? settings.account ?? undefined });
        for await (const d of pages) {
          const intent = typeof d.payment_intent === "string" ? d.payment_intent : (d.payment_intent?.id ?? "");
          listed.push({ id: d.id, status: stripeDisputeStatus(d.status), amount: d.amount, paymentReference: intent, reason: d.reason ?? null, created: new Date(d.created * 1000) });
        }
        return listed;
      } catch (err) {
        return failed(err);
      }
    },
    async retrieveDispute(id, account) {
      try {
        const d = await stripe.disputes.retrieve(id, {}, { stripeAccount: account ?? settings.account ?? undefined });
        const intent = typeof d.payment_intent === "string" ? d.payment_intent : (d.payment_intent?.id ?? "");
        return { id: d.id, status: stripeDisputeStatus(d.status), amount: d.amount, paymentReference: intent, reason: d.reason ?? null };
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404) return null;
        return failed(err);
      }
    },
    async charge(req: CardCharge): Promise<CardChargeResult> {
      // Stripe cannot charge a card it never saved: the member has to add one (a hard decline, not retried).
      if (!req.paymentMethod) return { status: "declined", id: null, declineCode: "no_payment_method", message: "No card is saved at Stripe for this member." };
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: req.amount,
            currency: req.currency,
            customer: req.customer ?? undefined,
            payment_method: req.paymentMethod,
            off_session: true,
            confirm: true,
            description: req.description,
            metadata: req.metadata,
          },
          { idempotencyKey: req.idempotencyKey, stripeAccount: req.account ?? settings.account ?? undefined },
        );
        return intentResult(intent);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError) {
          return { status: "declined", id: err.payment_intent?.id ?? null, declineCode: err.decline_code ?? err.code ?? "card_declined", message: err.message };
        }
        if (err instanceof Stripe.errors.StripeError) {
          const retryable = err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeAPIError || err instanceof Stripe.errors.StripeRateLimitError || (err.statusCode ?? 0) >= 500;
          throw new ProviderError(`Stripe: ${err.message}`, retryable);
        }
        throw err;
      }
    },
  };
}

/** A PaymentIntent as our charge result: succeeded, still on its way, or declined with Stripe's codes. */
function intentResult(intent: Stripe.PaymentIntent): CardChargeResult {
  if (intent.status === "succeeded") return { status: "succeeded", id: intent.id };
  if (intent.status === "processing" || intent.status === "requires_capture") return { status: "processing", id: intent.id };
  const error = intent.last_payment_error;
  return { status: "declined", id: intent.id, declineCode: error?.decline_code ?? error?.code ?? intent.status, message: error?.message ?? "The card was not charged." };
}

function refundOf(r: Stripe.Refund): ProviderRefund {
  const intent = typeof r.payment_intent === "string" ? r.payment_intent : (r.payment_intent?.id ?? "");
  return { id: r.id, status: stripeRefundStatus(r.status), amount: r.amount, paymentReference: intent, failureReason: r.failure_reason ?? null, metadata: { ...r.metadata }, created: new Date(r.created * 1000) };
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Stripe takes three reasons; ours that are not among them go without one. */
function stripeReason(reason: string | null | undefined): Stripe.RefundCreateParams.Reason | undefined {
  return reason === "duplicate" || reason === "fraudulent" || reason === "requested_by_customer" ? reason : undefined;
}
