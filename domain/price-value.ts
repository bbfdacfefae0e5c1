import type { BillingFrequency, TermUnit } from "./billing";
import { periodStart, termEnd, type LocalDay } from "./periods";

/**
 * A price's total value (SPEC §3 Price total_value) for a member starting on `start`: its joining fee and every charge
 * its term holds (each period that starts before the term ends), or, paid in full, its joining fee and its one
 * payment. An open-ended price has no total: null.
 */
export function totalValue(
  price: { amount: number; joining_fee: number; billing_frequency: BillingFrequency; term_amount: number | null; term_unit: TermUnit | null },
  start: LocalDay,
): number | null {
  if (price.billing_frequency === "one_off") return price.joining_fee + price.amount;
  if (!price.term_amount || !price.term_unit) return null;
  const ends = termEnd(start, price.term_amount, price.term_unit);
  let charges = 0;
  while (periodStart(start, price.billing_frequency, charges) < ends) charges++;
  return price.joining_fee + charges * price.amount;
}
