/**
 * Calendar days (yyyy-MM-dd) for pages that run in a phone's browser: the same words as domain/dates.ts's
 * formatDay ("25 Nov 2026"), by plain arithmetic: a calendar day has no time zone (it is read and written as UTC
 * midnight), so these pages need none of domain/dates.ts's Auckland clock. The month names are the product's, here.
 */
/** Written out, not Intl's: en-NZ and en-GB now write September as "Sept", where the product says "Sep". */
export const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

export function formatCalendarDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return `${d} ${MONTH_NAMES[m - 1].slice(0, 3)} ${y}`;
}

export function shiftCalendarDay(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
