import { formatCents } from "./money";

/** The daily reconciliation's differences in words (issue 28, decision 0042), for the page and the API. */
export const PROVIDER_LABELS: Record<string, string> = { stripe: "Stripe (cards)", gocardless: "GoCardless (direct debit)", akahu: "Akahu (bank payments)" };

export const DIFFERENCE_LABELS: Record<string, string> = {
  taken_not_recorded: "Taken but not recorded",
  recorded_not_taken: "Recorded but not taken",
  amount_differs: "Amounts differ",
  settled_not_recorded: "Settled at the provider, pending here",
  refund_not_recorded: "Refund made at the provider",
  chargeback_not_recorded: "Chargeback at the provider",
};

type Side = { amount?: unknown; status?: unknown; reference?: unknown } | null;

const money = (side: Side) => (typeof side?.amount === "number" ? formatCents(side.amount) : "nothing");
const state = (side: Side) => (typeof side?.status === "string" ? side.status.replace(/_/g, " ") : "unknown");

/** One sentence: what differs between our books and the provider's. */
export function differenceInWords(kind: string, provider: string, ours: Side, theirs: Side): string {
  const who = PROVIDER_LABELS[provider]?.replace(/ \(.*\)$/, "") ?? provider;
  switch (kind) {
    case "taken_not_recorded":
      return ours
        ? `${who} took ${money(theirs)}, but our payment is ${state(ours)}.`
        : `${who} took ${money(theirs)} that matches none of our payments.`;
    case "recorded_not_taken":
      return theirs ? `We recorded ${money(ours)} as paid, but ${who} says ${state(theirs)}.` : `We recorded ${money(ours)} as paid, but ${who} has no such payment.`;
    case "amount_differs":
      return `We recorded ${money(ours)}; ${who} has ${money(theirs)}.`;
    case "settled_not_recorded":
      return `${who} settled ${money(theirs)} while our payment was still ${state(ours)}; now recorded as paid.`;
    case "refund_not_recorded":
      return `${who} refunded ${money(theirs)} that we had not recorded.`;
    case "chargeback_not_recorded":
      return `The payer's bank took back ${money(theirs)} (a chargeback at ${who}) that we have not recorded.`;
    default:
      return `${who}: ${kind.replace(/_/g, " ")}.`;
  }
}
