import { addCalendarDays } from "./dates";
import { periodLength, type BillingFrequency, type TermUnit } from "./billing";

/**
 * Billing periods as Pacific/Auckland calendar days ('yyyy-MM-dd'), so a period is whole days whatever DST does
 * to the hours in it: the instant a day starts is `startOfLocalDay(day)` (domain/dates.ts), asked only at the edge.
 * A period is [start, end): it starts on `start` and the next one starts on `end`.
 */
export type LocalDay = string;
export interface Period {
  start: LocalDay;
  end: LocalDay;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(day: LocalDay): [number, number, number] {
  const m = DAY.exec(day);
  if (!m) throw new RangeError(`Not a calendar day: ${day}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The day `n` months after `anchor`, on the anchor's day of the month, or the month's last day when it has
 * fewer: from 31 January, 28 (29) February, then 31 March. Always counted from the anchor, never from the
 * month before, so a short month does not pull later ones back.
 */
export function addCalendarMonths(anchor: LocalDay, n: number): LocalDay {
  const [year, month, day] = parts(anchor);
  const index = year * 12 + (month - 1) + n;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  const d = Math.min(day, daysInMonth(y, m));
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** Whole calendar days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: LocalDay, b: LocalDay): number {
  const [ya, ma, da] = parts(a);
  const [yb, mb, db] = parts(b);
  return Math.round((Date.UTC(yb, mb - 1, db) - Date.UTC(ya, ma - 1, da)) / 86_400_000);
}

/** The day `k` periods after `anchor` (k may be negative): where the k-th period of a subscription starts. */
export function periodStart(anchor: LocalDay, frequency: BillingFrequency, k: number): LocalDay {
  const length = periodLength(frequency);
  if (!length) throw new RangeError("A paid-in-full (one_off) price has no repeating periods");
  return length.days ? addCalendarDays(anchor, k * length.days) : addCalendarMonths(anchor, k * length.months!);
}

/** The k-th period (k from 0) of a subscription whose first full period starts on `anchor`. */
export function nthPeriod(anchor: LocalDay, frequency: BillingFrequency, k: number): Period {
  return { start: periodStart(anchor, frequency, k), end: periodStart(anchor, frequency, k + 1) };
}

/** The index of the period, counted from `anchor`, that holds `day` (negative before the anchor). */
export function periodIndexOn(anchor: LocalDay, frequency: BillingFrequency, day: LocalDay): number {
  const length = periodLength(frequency);
  if (!length) throw new RangeError("A paid-in-full (one_off) price has no repeating periods");
  if (length.days) return Math.floor(daysBetween(anchor, day) / length.days);
  // Months: a first guess from the calendar, then a step either way for the anchor's day of the month.
  const [ya, ma] = parts(anchor);
  const [yd, md] = parts(day);
  let k = Math.floor(((yd - ya) * 12 + (md - ma)) / length.months!);
  while (periodStart(anchor, frequency, k) > day) k--;
  while (periodStart(anchor, frequency, k + 1) <= day) k++;
  return k;
}

/** The period, counted from `anchor`, that holds `day`. */
export function periodOn(anchor: LocalDay, frequency: BillingFrequency, day: LocalDay): Period {
  return nthPeriod(anchor, frequency, periodIndexOn(anchor, frequency, day));
}

/** The day a term (or a paid-in-full price's cover) of `amount` `unit`s that starts on `start` ends (exclusive). */
export function termEnd(start: LocalDay, amount: number, unit: TermUnit): LocalDay {
  if (!Number.isInteger(amount) || amount < 1) throw new RangeError(`A term is a whole number of ${unit}s from 1`);
  switch (unit) {
    case "day":
      return addCalendarDays(start, amount);
    case "week":
      return addCalendarDays(start, amount * 7);
    case "month":
      return addCalendarMonths(start, amount);
    case "year":
      return addCalendarMonths(start, amount * 12);
  }
}

export interface ProRata {
  /** Cents for the days from the start date to the first full charge; 0 when they are the same day. */
  amount: number;
  /** The days it covers: [start date, first full charge). */
  covers: Period;
  /** The full period those days are part of, whose length is the divisor. */
  period: Period;
  days: number;
  daysInPeriod: number;
  /** The first full charge, and the anchor of every later period. */
  firstFullCharge: LocalDay;
}

/**
 * A member who starts part-way into a period pays for the days left of it: price × remaining days ÷ days in
 * the period, in cents, half up. The period is the one that ends on the first full charge date (the member's
 * billing date), so the member joins the billing cycle there. The first full charge must be on the start date
 * or within one period after it.
 */
export function proRata(amountCents: number, frequency: BillingFrequency, start: LocalDay, firstFullCharge: LocalDay): ProRata {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) throw new RangeError("An amount is a whole number of cents from 0");
  const period = nthPeriod(firstFullCharge, frequency, -1);
  const days = daysBetween(start, firstFullCharge);
  const daysInPeriod = daysBetween(period.start, period.end);
  if (days < 0 || days >= daysInPeriod) throw new RangeError("The first full charge must be on the start date or less than one period after it");
  return {
    // Integer arithmetic, then half up: cents × days stays far inside 2^53 for any real price.
    amount: Math.floor((2 * amountCents * days + daysInPeriod) / (2 * daysInPeriod)),
    covers: { start, end: firstFullCharge },
    period,
    days,
    daysInPeriod,
    firstFullCharge,
  };
}

/** 1 = Monday … 7 = Sunday, of a calendar day. */
const isoWeekday = (day: LocalDay) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

/**
 * Where a member's full charges start when nobody chose a billing date: the next billing day on or after the
 * start. Month-based prices bill on the 1st of the month and week-based ones on Mondays, so a gym's members are
 * charged together and a pro-rata covers the days up to then; a daily price needs no pro-rata.
 */
export function defaultFirstFullCharge(frequency: BillingFrequency, start: LocalDay): LocalDay {
  const length = periodLength(frequency);
  if (!length) throw new RangeError("A paid-in-full (one_off) price has no repeating periods");
  if (length.months) return start.endsWith("-01") ? start : addCalendarMonths(`${start.slice(0, 8)}01`, 1);
  if (length.days === 1) return start;
  return addCalendarDays(start, (8 - isoWeekday(start)) % 7);
}
