import { formatCents } from "./money";

/**
 * Money going back after a payment was paid (issue 28): refunds, which the gym gives, and chargebacks, which the
 * payer's bank takes. The rules here are the one place that says how much of a payment may still be refunded and
 * how much revenue it counts for; the API, the pages, the rollups' trigger (drizzle/0036) and the books follow them.
 */
export type AdjustmentKind = "refund" | "chargeback";
export type RefundStatus = "pending" | "succeeded" | "failed";
export type ChargebackStatus = "open" | "won" | "lost";
export type AdjustmentStatus = RefundStatus | ChargebackStatus;

export interface AdjustmentFacts {
  kind: AdjustmentKind;
  status: AdjustmentStatus;
  amount: number;
}

/** How the money goes back: through the payment's provider, or by hand at the desk or from the gym's bank. */
export type RefundMethod = "stripe" | "gocardless" | "cash" | "eftpos" | "bank_transfer";

export const REFUND_METHOD_LABELS: Record<RefundMethod, string> = {
  stripe: "Back to the card, through Stripe",
  gocardless: "Back to the bank account, through GoCardless",
  cash: "In cash at the desk",
  eftpos: "By EFTPOS at the desk",
  bank_transfer: "By bank transfer from the gym's account",
};

export const REFUND_REASONS = ["requested_by_customer", "duplicate", "fraudulent", "other"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  requested_by_customer: "The member asked for it",
  duplicate: "Charged twice",
  fraudulent: "Fraudulent",
  other: "Another reason",
};

/**
 * The statuses in which an adjustment's money is no longer the gym's: a refund made or under way, a chargeback lost.
 * The lists' SQL (server/payments/adjustments.ts) reads these too, so the two cannot disagree.
 */
export const GIVEN_BACK_REFUND_STATUSES = ["pending", "succeeded"] as const satisfies readonly RefundStatus[];
export const GIVEN_BACK_CHARGEBACK_STATUSES = ["lost"] as const satisfies readonly ChargebackStatus[];
/** A chargeback the bank has not decided yet. */
export const OPEN_CHARGEBACK_STATUS = "open" satisfies ChargebackStatus;

const isGivenBack = (a: AdjustmentFacts) =>
  a.kind === "refund" ? (GIVEN_BACK_REFUND_STATUSES as readonly string[]).includes(a.status) : (GIVEN_BACK_CHARGEBACK_STATUSES as readonly string[]).includes(a.status);

/** Refunds made or under way, and chargebacks lost: money that is no longer the gym's. */
export function givenBack(adjustments: AdjustmentFacts[]): number {
  return adjustments.filter(isGivenBack).reduce((sum, a) => sum + a.amount, 0);
}

/** Of a payment of `paid` cents, what may still be refunded, or why nothing may be while a dispute is open. */
export function refundable(paid: number, adjustments: AdjustmentFacts[]): { left: number; blocked: string | null } {
  const open = adjustments.some((a) => a.kind === "chargeback" && a.status === OPEN_CHARGEBACK_STATUS);
  const left = Math.max(0, paid - givenBack(adjustments));
  return { left, blocked: open ? "A dispute is open on this payment: the bank decides it, so it cannot be refunded meanwhile" : null };
}

/** A refund asked for: the field errors (SPEC §5's shape), or null when it may go ahead. */
export function refundErrors(payment: { status: string; paid: number }, adjustments: AdjustmentFacts[], amount: number): Record<string, string[]> | null {
  if (payment.status !== "sent") return { payment: ["Only a paid payment can be refunded"] };
  const { left, blocked } = refundable(payment.paid, adjustments);
  if (blocked) return { payment: [blocked] };
  if (left === 0) return { payment: ["This payment is refunded in full already"] };
  if (!Number.isInteger(amount) || amount < 1) return { amount: ["Enter an amount of at least $0.01"] };
  if (amount > left) return { amount: [`Refund at most ${formatCents(left)}: that is what is left of this payment`] };
  return null;
}

/** The way a payment's money goes back: its provider for a card or a direct debit; by hand for everything else. */
export function refundMethodFor(payment: { paymentKind: string | null; pifPayment: string | null }): RefundMethod {
  if (payment.pifPayment === "cash" || payment.pifPayment === "eftpos" || payment.pifPayment === "bank_transfer") return payment.pifPayment;
  if (payment.paymentKind === "stripe_card") return "stripe";
  if (payment.paymentKind === "gocardless_bank_account") return "gocardless";
  // A bank payment (Akahu) cannot be reversed through Akahu: the gym pays it back from its own account.
  return "bank_transfer";
}

/** The methods through a provider: the refund is asked of it and settles on its answer; the others are done when recorded. */
export const isProviderMethod = (m: RefundMethod): m is "stripe" | "gocardless" => m === "stripe" || m === "gocardless";

/** A member-facing line for an adjustment, as the member's payments and receipts say it. */
export function adjustmentInWords(a: AdjustmentFacts): string {
  const amount = formatCents(a.amount);
  if (a.kind === "refund") return { pending: `Refund of ${amount} on its way`, succeeded: `Refunded ${amount}`, failed: `Refund of ${amount} failed` }[a.status as RefundStatus];
  return { open: `Disputed at the bank: ${amount}`, won: `Dispute of ${amount} won by the gym`, lost: `Charged back by the bank: ${amount}` }[a.status as ChargebackStatus];
}
