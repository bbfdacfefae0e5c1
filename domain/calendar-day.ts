/**
 * Calendar days (yyyy-MM-dd) for pages that run in a phone's browser: the same words as domain/dates.ts's
 * formatDay ("25 Nov 2026"), by plain arithmetic rather than date-fns and its time-zone data, which cost
 * a sign-up page about 10 KB of JavaScript (issue 13's budget). A calendar day has no time zone: it is read and
 * written as UTC midnight.
 */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export function formatCalendarDay(day: string): string {
  // Not Intl: en-NZ and en-GB now write September as "Sept", where the rest of the product says "Sep".
  const [y, m, d] = day.split("-").map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

export function shiftCalendarDay(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
