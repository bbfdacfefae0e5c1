import type { LocalDay } from "../../domain/periods";

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
