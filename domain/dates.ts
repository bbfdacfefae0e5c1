import { formatInTimeZone, fromZonedTime } from "date-fns-tz";

/** Every date a person sees is in Pacific/Auckland, 12-hour clock (SPEC §9). */
export const TIME_ZONE = "Pacific/Auckland";

type DateInput = Date | string | number;
const toDate = (d: DateInput) => (d instanceof Date ? d : new Date(d));

/**
 * Remembers a pure function's answers: time-zone conversion costs tens of microseconds a call and a page
 * asks for the same days and labels again and again (a dashboard renders ~80). Bounded: it starts afresh
 * past `max` entries.
 */
function remembered<K, V>(fn: (key: K) => V, max = 5000): (key: K) => V {
  const seen = new Map<K, V>();
  return (key) => {
    let value = seen.get(key);
    if (value === undefined) {
      if (seen.size >= max) seen.clear();
      value = fn(key);
      seen.set(key, value);
    }
    return value;
  };
}

/*
 * Auckland's wall clock is date-fns-tz's (decision 0053): the server and domain/ only. The browser gets dates as
 * text from the loaders, so no page ships this module or date-fns.
 */
const HOUR_MS = 3600 * 1000;
const WALL = "yyyy-MM-dd'T'HH:mm:ss";
/**
 * The instant Auckland's clock reads `day hh:mm`. The two hours a year that are not one instant are read as Temporal's
 * "compatible" does, as they were before date-fns-tz came back (tests/unit/domain.test.ts pins them): a time the
 * clocks skip (2:30 AM as daylight saving starts) is read an hour on, as the clocks would show it; a time they show
 * twice (as it ends), its first showing. date-fns-tz alone reads the first as 1:30 AM and the second as its second
 * showing. Auckland's clocks move by one hour.
 */
function zonedInstant(day: string, hhmm = "00:00"): number {
  const wall = `${day}T${hhmm}:00`;
  const at = fromZonedTime(wall, TIME_ZONE).getTime();
  // Not a date ("2026-xx-01"): an invalid instant, for the caller's check to refuse.
  if (Number.isNaN(at)) return NaN;
  const reads = (ms: number) => formatInTimeZone(ms, TIME_ZONE, WALL) === wall;
  if (reads(at)) return reads(at - HOUR_MS) ? at - HOUR_MS : at;
  return at + HOUR_MS;
}

const formatters = new Map<string, (ms: number) => string>();
/**
 * `d` in Auckland time in a date-fns pattern, remembered per pattern and instant. date-fns's English: "Sep", not
 * Intl's en-NZ "Sept".
 */
export function formatLocal(d: DateInput, pattern: string): string {
  let format = formatters.get(pattern);
  if (!format) formatters.set(pattern, (format = remembered((ms: number) => formatInTimeZone(ms, TIME_ZONE, pattern))));
  return format(toDate(d).getTime());
}

/** 9:00 AM */
export const formatTime = (d: DateInput) => formatLocal(d, "h:mm a");
/** 22 Nov 2026 */
export const formatDate = (d: DateInput) => formatLocal(d, "d MMM yyyy");
/** A calendar day (yyyy-MM-dd, already Auckland's) as 22 Nov 2026. */
export const formatDay = (day: string) => formatDate(startOfLocalDay(day));
/** 22 Nov 2026, 9:00 AM */
export const formatDateTime = (d: DateInput) => formatLocal(d, "d MMM yyyy, h:mm a");
/** 19 – 26 Nov 2026, 29 Oct – 5 Nov 2026, 20 Dec 2026 – 3 Jan 2027: a period, saying its month and year once. */
export function formatDateRange(from: DateInput, to: DateInput): string {
  const end = formatDate(to);
  if (formatLocal(from, "yyyy") !== formatLocal(to, "yyyy")) return `${formatDate(from)} – ${end}`;
  return `${formatLocal(from, formatLocal(from, "MMM") === formatLocal(to, "MMM") ? "d" : "d MMM")} – ${end}`;
}
const dayOf = (ms: number) => formatInTimeZone(ms, TIME_ZONE, "yyyy-MM-dd");
let lastDay = { day: "", from: 0, to: 0 };
/**
 * The Auckland calendar day of `d`, 'yyyy-MM-dd' (2026-11-22). Every request asks it of a new instant ("now"), so the day
 * last found is kept with its bounds: an instant inside them needs no time-zone conversion.
 */
export function localDay(d: DateInput): string {
  const ms = toDate(d).getTime();
  if (ms >= lastDay.from && ms < lastDay.to) return lastDay.day;
  const day = dayOf(ms);
  lastDay = { day, from: dayStarts(day), to: dayStarts(addCalendarDays(day, 1)) };
  return day;
}

const dayStarts = remembered((day: string) => zonedInstant(day));
/** The instant Auckland's day `yyyy-MM-dd` begins (DST-safe). A new Date each call: callers may mutate it. */
export const startOfLocalDay = (day: string) => new Date(dayStarts(day));

/** Start of today in Auckland, as an instant. */
export const startOfToday = (now: Date = new Date()) => startOfLocalDay(localDay(now));

/**
 * The Monday of the Auckland week containing `now` ('yyyy-MM-dd'). Calendar arithmetic on today's date: no
 * time-zone conversion, and it leaves the day `localDay` keeps for "now" in place.
 */
export function localWeekStart(now: Date = new Date()): string {
  const day = localDay(now);
  const isoDay = new Date(`${day}T00:00:00Z`).getUTCDay() || 7; // 1 = Monday … 7 = Sunday
  return addCalendarDays(day, 1 - isoDay);
}
/** Monday 00:00 in Auckland of the week containing `now`. */
export const startOfLocalWeek = (now: Date = new Date()): Date => startOfLocalDay(localWeekStart(now));

/** The first day of the Auckland month containing `now`, `offset` months on ('yyyy-MM-01'); as localWeekStart. */
export function localMonthStart(now: Date = new Date(), offset = 0): string {
  const [year, month] = localDay(now).split("-").map(Number);
  return new Date(Date.UTC(year, month - 1 + offset, 1)).toISOString().slice(0, 10);
}
/** 00:00 in Auckland on the first of the month containing `now`, `offset` months on. */
export const startOfLocalMonth = (now: Date = new Date(), offset = 0): Date => startOfLocalDay(localMonthStart(now, offset));

const shiftDay = remembered((key: string) => {
  const [day, n] = key.split("|");
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + Number(n));
  return d.toISOString().slice(0, 10);
});
/**
 * The calendar day `n` days after `day` (both 'yyyy-MM-dd'; pure calendar arithmetic, no time zone).
 * Remembered: every dashboard works out the same dozen periods from today.
 */
export function addCalendarDays(day: string, n: number): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !Number.isInteger(n)) throw new RangeError(`Not a calendar day and a whole number of days: ${day}, ${n}`);
  return shiftDay(`${day}|${n}`);
}

export { hhmmOf, minutesOfDay } from "./calendar-day";

/** A wall-clock time in Auckland ("2026-11-26", "09:30") as the instant it is, daylight saving included. */
export const localInstant = (day: string, hhmm: string) => new Date(zonedInstant(day, hhmm));
