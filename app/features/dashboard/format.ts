import { formatCalendarDay, formatCalendarDayAs } from "../../../domain/calendar-day";
import { formatNumber } from "../../components/charts/scale";

/** Labels for the dashboard's weeks and months, which the API gives as Auckland calendar days. */

/** "16 Nov" for the week starting on Auckland day `2026-11-16`. */
export const weekLabel = (day: string) => formatCalendarDayAs(day, "d MMM");
/** "Week of 16 Nov 2026": the unabbreviated form, for tables. */
export const weekLongLabel = (day: string) => `Week of ${formatCalendarDay(day)}`;
/** "Nov 2026" for `2026-11`. */
export const monthLabel = (month: string) => formatCalendarDayAs(`${month}-01`, "MMM yyyy");
/** "November 2026", for tables read aloud. */
export const monthLongLabel = (month: string) => formatCalendarDayAs(`${month}-01`, "MMMM yyyy");

export const formatCount = formatNumber;

// Same currency as formatCents, shortened for axis ticks: $2.5K.
const compact = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  notation: "compact",
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});
export const compactCents = (cents: number) => compact.format(cents / 100);

/** "12 members" / "1 member". */
export const members = (n: number) => `${formatCount(n)} ${n === 1 ? "member" : "members"}`;
