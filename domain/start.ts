import type { BillingFrequency, TermUnit } from "./billing";
import { addCalendarDays } from "./dates";
import { defaultFirstFullCharge, nthPeriod, proRata, termEnd, type LocalDay, type Period } from "./periods";

/**
 * How a subscription starts (issue 11), as a pure function: what the first payment is, which period it pays for,
 * the rhythm every later charge follows, and the term's dates. The billing engine writes this
 * (server/billing/start.ts) for sign-up and staff alike.
 * - Recurring price: a start before the billing date pays a pro-rata for the days up to it (domain/periods.ts
 *   proRata) and full periods follow from it; a start on the billing date pays the first full period.
 * - Paid in full (one_off): one payment of the price covering the term (term_amount term_unit), or with no end
 *   date when the price has no term.
 * - The joining fee goes on the first payment, whatever it is.
 * - A term (term_amount + term_unit on a recurring price) commits the member until term_ends_at; they may cancel
 *   freely for COOLING_OFF_DAYS from the start (cooling_period_ends_at), then a break fee applies (domain/terms.ts).
 */
export const COOLING_OFF_DAYS = 7;

export interface StartPrice {
  amount: number;
  frequency: BillingFrequency;
  joiningFee: number;
  termAmount: number | null;
  termUnit: TermUnit | null;
}

export interface StartPlan {
  /** The first full period's first day: every later charge follows it. null for paid in full. */
  anchor: LocalDay | null;
  firstPayment: {
    /** Cents: the pro-rata or first period, plus the joining fee. */
    amount: number;
    joiningFee: number;
    /** What it pays for: [start, end). */
    period: Period;
    isProRata: boolean;
    kind: "subscription" | "pif";
  };
  /** The period the first payment leaves the member paid up to (the subscription's current period). */
  currentPeriod: Period;
  termEnds: LocalDay | null;
  coolingOffEnds: LocalDay | null;
  pifEnds: LocalDay | null;
}

export function startPlan(price: StartPrice, start: LocalDay, billingDate?: LocalDay | null): StartPlan {
  if (!Number.isSafeInteger(price.joiningFee) || price.joiningFee < 0) throw new RangeError("A joining fee is a whole number of cents from 0");
  const hasTerm = price.termAmount != null && price.termUnit != null;
  if (price.frequency === "one_off") {
    const pifEnds = hasTerm ? termEnd(start, price.termAmount!, price.termUnit!) : null;
    const cover = { start, end: pifEnds ?? start };
    return {
      anchor: null,
      firstPayment: { amount: price.amount + price.joiningFee, joiningFee: price.joiningFee, period: cover, isProRata: false, kind: "pif" },
      currentPeriod: cover,
      termEnds: null,
      coolingOffEnds: null,
      pifEnds,
    };
  }
  const anchor = billingDate ?? defaultFirstFullCharge(price.frequency, start);
  const term = hasTerm ? { termEnds: termEnd(start, price.termAmount!, price.termUnit!), coolingOffEnds: addCalendarDays(start, COOLING_OFF_DAYS) } : { termEnds: null, coolingOffEnds: null };
  if (anchor === start) {
    const first = nthPeriod(anchor, price.frequency, 0);
    return {
      anchor,
      firstPayment: { amount: price.amount + price.joiningFee, joiningFee: price.joiningFee, period: first, isProRata: false, kind: "subscription" },
      currentPeriod: first,
      ...term,
      pifEnds: null,
    };
  }
  // proRata refuses a billing date before the start or a period or more after it.
  const part = proRata(price.amount, price.frequency, start, anchor);
  return {
    anchor,
    firstPayment: { amount: part.amount + price.joiningFee, joiningFee: price.joiningFee, period: part.covers, isProRata: true, kind: "subscription" },
    currentPeriod: part.covers,
    ...term,
    pifEnds: null,
  };
}
