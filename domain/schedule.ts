import { addCalendarDays } from "./dates";
import type { BillingFrequency } from "./billing";
import { daysBetween, nthPeriod, periodIndexOn, type LocalDay, type Period } from "./periods";

/**
 * Which periods of a recurring subscription are due for a charge by `today`, and at what price: the rule the
 * billing engine runs (issue 11), as a pure function of the subscription's facts in Auckland calendar days.
 *
 * - Periods follow the anchor (domain/periods.ts): month-based ones keep its day of the month.
 * - A pause charges nothing while it runs and moves every later charge by its length: the charge that would
 *   have fallen inside it falls the pause's length later, and the periods after it keep that new rhythm.
 * - A cancellation stops every charge for a period starting on or after `cancelledFrom` (the period end for a
 *   cancellation "at period end", today for "now").
 * - A term is a commitment, not an end: when it ends the membership rolls on at the same price, period by period,
 *   until it is cancelled (SPEC §4 "commitment until term_ends_at"); the payments inside it are marked as the term's.
 * - A scheduled price change charges the new amount for periods starting on or after its day.
 * - A paid-in-full (one_off) price is never due here: it is paid once, when it is sold.
 */
export interface ScheduleFacts {
  frequency: BillingFrequency;
  /** The first day of the first full period: the schedule's rhythm. */
  anchor: LocalDay;
  /** Every period before this day is charged already (the end of the last charged period). */
  paidUntil: LocalDay;
  /** The price's amount, or the subscription's force_price_amount, in cents. */
  amount: number;
  cancelledFrom?: LocalDay | null;
  /** Pauses in order; an open-ended pause (end null) stops every charge from its start. */
  pauses?: { start: LocalDay; end: LocalDay | null }[];
  priceChange?: { from: LocalDay; amount: number } | null;
}

export interface DueCharge {
  period: Period;
  amount: number;
}

/** At most this many periods in one answer: a daily price left unbilled for years is charged in steps. */
export const MAX_DUE_AT_ONCE = 400;

export function chargesDue(f: ScheduleFacts, today: LocalDay): DueCharge[] {
  if (f.frequency === "one_off") return [];
  const due: DueCharge[] = [];
  const pauses = [...(f.pauses ?? [])].sort((a, b) => (a.start < b.start ? -1 : 1));
  // Walked from the anchor, so every pause moves the rhythm the same way each time the rule is asked: the
  // rhythm is an anchor and the index of a period from it, and a pause gives it a new anchor.
  let anchor = f.anchor;
  // Start just before the first day that matters (where charging resumes, or an earlier pause): the periods before
  // it are neither due nor moved by a pause, so walking them from the anchor (a year of days, for a daily price)
  // would change nothing but the time it takes.
  const firstThatMatters = pauses.length && pauses[0].start < f.paidUntil ? pauses[0].start : f.paidUntil;
  let k = Math.max(0, periodIndexOn(anchor, f.frequency, firstThatMatters) - 1);
  let nextPause = 0;
  while (due.length < MAX_DUE_AT_ONCE) {
    let period = nthPeriod(anchor, f.frequency, k);
    // The first charge on or after a pause's start moves by the pause's length, and the periods after it follow.
    while (nextPause < pauses.length && pauses[nextPause].start <= period.start) {
      const { start, end } = pauses[nextPause++];
      if (end === null) return due;
      anchor = addCalendarDays(period.start, daysBetween(start, end));
      k = 0;
      period = nthPeriod(anchor, f.frequency, 0);
    }
    if (period.start > today) break;
    if (f.cancelledFrom && period.start >= f.cancelledFrom) break;
    if (period.start >= f.paidUntil) {
      const amount = f.priceChange && period.start >= f.priceChange.from ? f.priceChange.amount : f.amount;
      due.push({ period, amount });
    }
    k++;
  }
  return due;
}
