/**
 * Calendar days (yyyy-MM-dd) as pages show them, in the browser too: a calendar day has no time zone (it is read and
 * written as UTC midnight), so this is plain arithmetic and no date library (decision 0053). Instants, which need
 * Auckland's clock, are written by the loaders (app/lib/date-texts.server.ts).
 */
/** Written out, not Intl's: en-NZ and en-GB now write September as "Sept", where the product says "Sep". */
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** 25 Nov 2026 */
export const formatCalendarDay = (day: string) => formatCalendarDayAs(day, "d MMM yyyy");

/** A calendar day in a date-fns style pattern of the tokens EEEE, EEE, MMMM, MMM, yyyy and d ("EEE d MMM" → "Wed 25 Nov"). */
export function formatCalendarDayAs(day: string, pattern: string): string {
  const [y, m, d] = day.split("-").map(Number);
  const weekday = WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
  const month = MONTH_NAMES[m - 1];
  const token: Record<string, string> = { EEEE: weekday, EEE: weekday.slice(0, 3), MMMM: month, MMM: month.slice(0, 3), yyyy: String(y), d: String(d) };
  return pattern.replace(/EEEE|EEE|MMMM|MMM|yyyy|d/g, (t) => token[t]);
}

export function shiftCalendarDay(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** A wall-clock "HH:mm" as minutes after midnight ("07:30" → 450). */
export const minutesOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
/** Minutes after midnight as a wall-clock "HH:mm" (450 → "07:30"). */
export const hhmmOf = (total: number) => `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
/** A wall-clock "HH:mm" on SPEC §9's 12-hour clock ("13:05" → "1:05 PM"). */
export const clockOf = (hhmm: string) => {
  const h = Number(hhmm.slice(0, 2));
  return `${h % 12 || 12}:${hhmm.slice(3, 5)} ${h < 12 ? "AM" : "PM"}`;
};
