import { PIF_PAYMENT_METHODS } from "./payment";
import { PAYMENT_TYPE_KINDS } from "./surcharge";

/** The payments list's filters, without the schemas (./schemas/money-lists.ts), so the page loads no zod. */
/** SPEC §4's reading of a payment's status: sent is successful; upcoming, pending, pending_request, awaiting_payment are not failed; the rest failed. */
export const PAYMENT_OUTCOME_FILTERS = ["successful", "not_failed", "failed"] as const;
export const PAYMENT_OUTCOME_LABELS = { successful: "Successful", not_failed: "Pending or to come", failed: "Failed" } as const;
export const PAYMENT_METHOD_FILTERS = [...PAYMENT_TYPE_KINDS, ...PIF_PAYMENT_METHODS] as const;
export type PaymentMethodFilter = (typeof PAYMENT_METHOD_FILTERS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethodFilter, string> = {
  stripe_card: "Card",
  gocardless_bank_account: "Direct debit",
  bank_account: "Bank payment (Akahu)",
  eftpos: "EFTPOS",
  cash: "Cash",
  bank_transfer: "Bank transfer",
};

/** Payments with money given back (issue 28): a refund made or under way, a chargeback lost, a chargeback still open. */
export const PAYMENT_ADJUSTED_FILTERS = ["refunded", "charged_back", "disputed"] as const;
export type PaymentAdjustedFilter = (typeof PAYMENT_ADJUSTED_FILTERS)[number];
export const PAYMENT_ADJUSTED_LABELS: Record<PaymentAdjustedFilter, string> = { refunded: "Refunded", charged_back: "Charged back", disputed: "Disputed" };
