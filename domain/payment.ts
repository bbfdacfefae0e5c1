/**
 * Payment status as SPEC §4 classifies it. The database's payment_outcome() is written from these constants
 * (server/core/db/domain-rules.ts): the rollups count money and failed payments by the same rule.
 */
export const SUCCESSFUL_PAYMENT_STATUS = "sent";
export const NON_FAILED_PAYMENT_STATUSES = ["upcoming", "pending", "pending_request", "awaiting_payment"] as const;
export type PaymentOutcome = "successful" | "not_failed" | "failed";

export function paymentOutcome(status: string): PaymentOutcome {
  if (status === SUCCESSFUL_PAYMENT_STATUS) return "successful";
  if ((NON_FAILED_PAYMENT_STATUSES as readonly string[]).includes(status)) return "not_failed";
  return "failed";
}

export const PIF_PAYMENT_METHODS = ["eftpos", "cash", "bank_transfer"] as const;
