import type { LocalDay } from "../../../domain/periods";

/**
 * What a payment provider answers for a charge, whichever rail it runs on (card, direct debit, bank payment), as
 * the billing engine writes it down (server/billing/outcomes.ts). Amounts are not repeated: the request had them.
 */
export type ChargeResult =
  | { status: "succeeded"; id: string }
  /** Accepted, not settled yet (3-D Secure, a direct debit before its confirmation, a bank payment on its way). */
  | { status: "processing"; id: string; chargeDate?: LocalDay | null }
  /** Waiting for the payer to approve it in their bank (an Akahu payment over the bank's limit): our awaiting_payment. */
  | { status: "awaiting_approval"; id: string }
  /** Refused: `declineCode` is the provider's own (Stripe's decline_code, GoCardless's cause, Akahu's status_code, lower-cased). */
  | { status: "declined"; id: string | null; declineCode: string; message: string };

/** The providers money moves through, as our payments and webhook calls name them. */
export type PaymentProviderName = "stripe" | "gocardless" | "akahu";

/** An adapter is the offline sandbox, the real service, or missing (production without credentials: it refuses, retryably). */
export type ProviderMode = "sandbox" | "live" | "unconfigured";

/**
 * What a provider's own books say an object it made was for, as its retrieve call answers: a webhook settles one
 * of our payments only when this matches the payment (server/webhooks/provenance.ts), never from the event's copy.
 */
export interface ProviderRecord {
  /** Integer cents, and the ISO currency in lower case. */
  amount: number;
  currency: string;
  /** The Stripe Connect account it lives on (null: the platform's own); null where credentials scope it instead. */
  account: string | null;
  /** What we sent with it when we made it (our payment_id). */
  metadata: Record<string, string>;
}

/** A provider's answer for an object it holds: its state, and what it was made for. */
export type Retrieved<T> = T & { made: ProviderRecord };

/** Objects a provider made from `from` (included) until `until` (excluded): the window a reconciliation lists (issue 28). */
export interface CreatedBetween {
  from: Date;
  until: Date;
}

/** A provider's object as its list call answers it: its state, what it was made for, and when it was made. */
export type Listed<T> = Retrieved<T> & { created: Date };
