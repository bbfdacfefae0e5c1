import type { BillingFrequency } from "./billing";
import { periodIndexOn, periodStart, type LocalDay } from "./periods";

/**
 * Term memberships (issue 11): a member signs up for term_amount term_units (domain/periods.ts termEnd), may cancel
 * freely until the cooling-off window ends, and after it pays a break fee of the gym's break_fee_percentage of
 * what the rest of the term would have cost.
 */

/** The charges still to come when a term billed from `anchor` is cancelled on `cancelled`: periods starting after it and before the term ends. */
export function chargesLeft(anchor: LocalDay, frequency: BillingFrequency, termEnds: LocalDay, cancelled: LocalDay): number {
  if (cancelled >= termEnds) return 0;
  let k = Math.max(0, periodIndexOn(anchor, frequency, cancelled) + 1);
  let n = 0;
  while (periodStart(anchor, frequency, k) < termEnds) {
    n++;
    k++;
  }
  return n;
}

/**
 * The break fee in cents: `percentage` % of the remaining term's value (charges left × the price), half up; none
 * when cancelled within the cooling-off window (before `coolingEnds` begins) or when the gym sets no percentage.
 */
export function breakFee(
  price: { amount: number; frequency: BillingFrequency },
  term: { anchor: LocalDay; ends: LocalDay; coolingEnds: LocalDay | null },
  cancelled: LocalDay,
  percentage: number | null,
): number {
  if (!percentage || (term.coolingEnds && cancelled < term.coolingEnds)) return 0;
  if (!Number.isInteger(percentage) || percentage < 0 || percentage > 100) throw new RangeError("A break fee is a whole percentage from 0 to 100");
  const remaining = chargesLeft(term.anchor, price.frequency, term.ends, cancelled) * price.amount;
  return Math.floor((2 * remaining * percentage + 100) / 200);
}
