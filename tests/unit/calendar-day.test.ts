import { describe, expect, it } from "vitest";
import { formatCalendarDay, formatCalendarDayAs, shiftCalendarDay } from "../../domain/calendar-day";
import { addCalendarDays, formatDay, formatLocal, startOfLocalDay } from "../../domain/dates";

describe("calendar days in the browser", () => {
  it.each(["2026-11-25", "2026-01-01", "2027-02-28", "2028-02-29", "2026-09-27", "2026-04-05"])("%s reads as domain/dates says", (day) => {
    expect(formatCalendarDay(day)).toBe(formatDay(day));
    for (const pattern of ["EEE d MMM yyyy", "EEE d MMM", "EEE d", "d MMM", "MMM yyyy", "MMMM yyyy", "d MMMM yyyy", "EEEE d MMMM"]) {
      expect([pattern, formatCalendarDayAs(day, pattern)]).toEqual([pattern, formatLocal(startOfLocalDay(day), pattern)]);
    }
    expect(shiftCalendarDay(day, -1)).toBe(addCalendarDays(day, -1));
    expect(shiftCalendarDay(day, 40)).toBe(addCalendarDays(day, 40));
  });
});
