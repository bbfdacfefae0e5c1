import { addCalendarDays, localDay, startOfLocalDay } from "./dates";

/** A list's date filter (payments, visits): the days asked for, the last 30 by default, and the instants they span in Auckland. */
export function dateRange(f: { from?: string; to?: string }, now: Date) {
  const to = f.to ?? localDay(now);
  const from = f.from ?? addCalendarDays(to, -29);
  return { from, to, start: startOfLocalDay(from), end: startOfLocalDay(addCalendarDays(to, 1)) };
}
