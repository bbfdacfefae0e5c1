import { describe, expect, it } from "vitest";
import { calendarDay, instant, isCalendarDay } from "../../domain/schemas/dates";

/** Issue 29 L1: the product's one day rule. */
describe("a calendar day", () => {
  it("is a real day written yyyy-MM-dd within 1900–2200", () => {
    for (const v of ["2024-02-29", "1900-01-01", "2200-12-31", "2026-12-02"]) expect(isCalendarDay(v), v).toBe(true);
    for (const v of ["2023-02-29", "2026-04-31", "2026-13-01", "9999-12-31", "1000-01-01", "1899-12-31", "2201-01-01", "0000-00-00", "2026-1-1", " 2026-01-01", "", null, 20260101]) expect(isCalendarDay(v), String(v)).toBe(false);
  });

  it("is what the schemas read, a narrower range where a field asks for one", () => {
    expect(calendarDay("bad").safeParse(" 2026-12-02 ").data).toBe("2026-12-02");
    expect(calendarDay("bad").safeParse("2023-02-29").error?.issues[0].message).toBe("bad");
    expect(calendarDay("bad", { from: "2000-01-01" }).safeParse("1999-12-31").success).toBe(false);
    expect(instant().safeParse("9999-12-31T00:00:00Z").success).toBe(false);
    expect(instant().safeParse("2026-12-02T10:00:00+13:00").data).toEqual(new Date("2026-12-01T21:00:00Z"));
  });
});
