/** Payment status as SPEC §4 classifies it. */
export const NON_FAILED_PAYMENT_STATUSES = ["upcoming", "pending", "pending_request", "awaiting_payment"] as const;
export type PaymentOutcome = "successful" | "not_failed" | "failed";

export function paymentOutcome(status: string): PaymentOutcome {
  if (status === "sent") return "successful";
  if ((NON_FAILED_PAYMENT_STATUSES as readonly string[]).includes(status)) return "not_failed";
  return "failed";
}

export const PIF_PAYMENT_METHODS = ["eftpos", "cash", "bank_transfer"] as const;
