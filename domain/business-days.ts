import Holidays from "date-holidays";
import { addCalendarDays } from "./dates";
import type { LocalDay } from "./periods";

/**
 * New Zealand business days: Monday to Friday, less the national public holidays (Matariki and Mondayised
 * holidays included, from date-holidays' data; regional anniversary days are not bank holidays). Direct debits
 * (BECS NZ) are submitted, collected and paid out on these days only.
 */
const nz = new Holidays("NZ");
const holidaysByYear = new Map<number, Set<LocalDay>>();

function holidaysOf(year: number): Set<LocalDay> {
  let days = holidaysByYear.get(year);
  if (!days) {
    days = new Set(nz.getHolidays(year).filter((h) => h.type === "public").map((h) => h.date.slice(0, 10)));
    holidaysByYear.set(year, days);
  }
  return days;
}

/** Day of the week of a calendar day, 1 (Monday) to 7 (Sunday), as SPEC §9 numbers them. */
export function isoWeekday(day: LocalDay): number {
  const d = new Date(`${day}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

export function isBusinessDay(day: LocalDay): boolean {
  return isoWeekday(day) <= 5 && !holidaysOf(Number(day.slice(0, 4))).has(day);
}

/** `day` itself when it is a business day, else the next one. */
export function onOrAfterBusinessDay(day: LocalDay): LocalDay {
  let d = day;
  while (!isBusinessDay(d)) d = addCalendarDays(d, 1);
  return d;
}

/** The `n`th business day after `day` (n ≥ 0; 0 is `day` itself or the next business day). */
export function addBusinessDays(day: LocalDay, n: number): LocalDay {
  if (!Number.isInteger(n) || n < 0) throw new RangeError("A number of business days is a whole number from 0");
  let d = onOrAfterBusinessDay(day);
  for (let i = 0; i < n; i++) d = onOrAfterBusinessDay(addCalendarDays(d, 1));
  return d;
}
