import { formatInTimeZone } from "date-fns-tz";
import { TIME_ZONE, formatDate, startOfLocalDay } from "../../../domain/dates";

/** Labels for the dashboard's weeks and months, which the API gives as Auckland calendar days. */

/** "16 Nov" for the week starting on Auckland day `2026-11-16`. */
export const weekLabel = (day: string) => formatInTimeZone(startOfLocalDay(day), TIME_ZONE, "d MMM");
/** "Week of 16 Nov 2026": the unabbreviated form, for tables. */
export const weekLongLabel = (day: string) => `Week of ${formatDate(startOfLocalDay(day))}`;
/** "Nov 2026" for `2026-11`. */
export const monthLabel = (month: string) => formatInTimeZone(startOfLocalDay(`${month}-01`), TIME_ZONE, "MMM yyyy");
/** "November 2026", for tables read aloud. */
export const monthLongLabel = (month: string) => formatInTimeZone(startOfLocalDay(`${month}-01`), TIME_ZONE, "MMMM yyyy");

export const formatCount = (n: number) => n.toLocaleString("en-NZ");

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
