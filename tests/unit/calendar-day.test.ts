import { describe, expect, it } from "vitest";
import { formatCalendarDay, shiftCalendarDay } from "../../domain/calendar-day";
import { addCalendarDays, formatDay } from "../../domain/dates";

describe("calendar days in the browser", () => {
  it.each(["2026-11-25", "2026-01-01", "2027-02-28", "2028-02-29", "2026-09-27", "2026-04-05"])("%s reads as domain/dates says", (day) => {
    expect(formatCalendarDay(day)).toBe(formatDay(day));
    expect(shiftCalendarDay(day, -1)).toBe(addCalendarDays(day, -1));
    expect(shiftCalendarDay(day, 40)).toBe(addCalendarDays(day, 40));
  });
});
