import { formatInTimeZone, fromZonedTime, toZonedTime } from "date-fns-tz";

/** Every date a person sees is in Pacific/Auckland, 12-hour clock (SPEC §9). */
export const TIME_ZONE = "Pacific/Auckland";

type DateInput = Date | string | number;
const toDate = (d: DateInput) => (d instanceof Date ? d : new Date(d));

/** 9:00 AM */
export const formatTime = (d: DateInput) => formatInTimeZone(toDate(d), TIME_ZONE, "h:mm a");
/** 22 Nov 2026 */
export const formatDate = (d: DateInput) => formatInTimeZone(toDate(d), TIME_ZONE, "d MMM yyyy");
/** 22 Nov 2026, 9:00 AM */
export const formatDateTime = (d: DateInput) => formatInTimeZone(toDate(d), TIME_ZONE, "d MMM yyyy, h:mm a");
/** 2026-11-22: the calendar day in Auckland. */
export const localDay = (d: DateInput) => formatInTimeZone(toDate(d), TIME_ZONE, "yyyy-MM-dd");

/** The instant Auckland's day `yyyy-MM-dd` begins (DST-safe). */
export const startOfLocalDay = (day: string) => fromZonedTime(`${day}T00:00:00`, TIME_ZONE);

/** Start of today in Auckland, as an instant. */
export const startOfToday = (now: Date = new Date()) => startOfLocalDay(localDay(now));

/** Monday 00:00 in Auckland of the week containing `now`. */
export function startOfLocalWeek(now: Date = new Date()): Date {
  const zoned = toZonedTime(now, TIME_ZONE);
  const isoDay = ((zoned.getDay() + 6) % 7) + 1; // 1 = Monday … 7 = Sunday
  const monday = new Date(zoned.getFullYear(), zoned.getMonth(), zoned.getDate() - (isoDay - 1));
  const day = `${monday.getFullYear()}-${String(monday.getMonth() + 1).padStart(2, "0")}-${String(monday.getDate()).padStart(2, "0")}`;
  return startOfLocalDay(day);
}

/** Start of the calendar month in Auckland containing `now`, shifted by `offset` months. */
export function startOfLocalMonth(now: Date = new Date(), offset = 0): Date {
  const zoned = toZonedTime(now, TIME_ZONE);
  const first = new Date(zoned.getFullYear(), zoned.getMonth() + offset, 1);
  const day = `${first.getFullYear()}-${String(first.getMonth() + 1).padStart(2, "0")}-01`;
  return startOfLocalDay(day);
}

/** Each word capitalised, as SPEC §3 shows a user's name. */
export const capitaliseWords = (name: string) => name.replace(/(^|\s)(\S)/g, (_m, sp: string, ch: string) => sp + ch.toUpperCase());

/** The calendar day `n` days after `day` (both 'yyyy-MM-dd'; pure calendar arithmetic, no time zone). */
export function addCalendarDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
