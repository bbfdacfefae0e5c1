import { describe, expect, it } from "vitest";
import { countBefore, describeDays, firstDay, fromRrule, lastDay, occurrenceDays, occurrenceTimes, toRrule } from "../../server/calendar/recurrence";

/** Weekly rules for recurring schedules (server/calendar/recurrence.ts): days 1–7 from Monday, Auckland wall-clock times. */
describe("weekly rules", () => {
  it("writes and reads RRULEs with days from Monday (1) to Sunday (7)", () => {
    expect(toRrule({ days: [4, 2, 2] })).toBe("FREQ=WEEKLY;BYDAY=TU,TH");
    expect(toRrule({ days: [7], count: 5 })).toBe("FREQ=WEEKLY;BYDAY=SU;COUNT=5");
    expect(toRrule({ days: [1, 3, 5], until: "2027-03-01" })).toBe("FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20270301T000000Z");
    expect(fromRrule("FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20270301T000000Z")).toEqual({ days: [1, 3, 5], count: null, until: "2027-03-01" });
    expect(fromRrule("FREQ=WEEKLY;BYDAY=SU;COUNT=5")).toEqual({ days: [7], count: 5, until: null });
  });

  it("expands over calendar days, counting from the start and stopping at the end date", () => {
    const counted = toRrule({ days: [2, 4], count: 5 });
    // Tuesday 1 December 2026 onwards.
    expect(occurrenceDays(counted, "2026-12-01", "2026-12-01", "2027-01-31")).toEqual(["2026-12-01", "2026-12-03", "2026-12-08", "2026-12-10", "2026-12-15"]);
    expect(occurrenceDays(counted, "2026-12-01", "2026-12-09", "2026-12-31")).toEqual(["2026-12-10", "2026-12-15"]);
    expect(lastDay(counted, "2026-12-01")).toBe("2026-12-15");
    expect(countBefore(counted, "2026-12-01", "2026-12-08")).toBe(2);
    const until = toRrule({ days: [1], until: "2026-12-14" });
    expect(occurrenceDays(until, "2026-12-02", "2026-12-01", "2027-01-31")).toEqual(["2026-12-07", "2026-12-14"]);
    expect(firstDay(until, "2026-12-02")).toBe("2026-12-07");
    expect(lastDay(toRrule({ days: [1] }), "2026-12-02")).toBeNull();
  });

  it("keeps a session's wall-clock time across daylight saving (NZ: starts 27 Sep 2026, ends 4 Apr 2027)", () => {
    const rule = toRrule({ days: [1] });
    const spring = occurrenceDays(rule, "2026-09-21", "2026-09-21", "2026-09-28").map((d) => occurrenceTimes(d, "09:00", 60));
    expect(spring.map((s) => s.starts_at.toISOString())).toEqual(["2026-09-20T21:00:00.000Z", "2026-09-27T20:00:00.000Z"]);
    expect(spring[1].ends_at.toISOString()).toBe("2026-09-27T21:00:00.000Z");
    const autumn = occurrenceDays(rule, "2027-03-29", "2027-03-29", "2027-04-05").map((d) => occurrenceTimes(d, "18:30", 45).starts_at.toISOString());
    expect(autumn).toEqual(["2027-03-29T05:30:00.000Z", "2027-04-05T06:30:00.000Z"]);
    // A Sunday session on the changeover day itself: 7:00 AM is after the 2:00 AM jump.
    expect(occurrenceTimes(occurrenceDays(toRrule({ days: [7] }), "2026-09-27", "2026-09-27", "2026-09-27")[0], "07:00", 60).starts_at.toISOString()).toBe("2026-09-26T18:00:00.000Z");
  });

  it("says the days as a person would", () => {
    expect(describeDays([4, 2])).toBe("Tuesdays and Thursdays");
    expect(describeDays([1, 3, 5])).toBe("Mondays, Wednesdays and Fridays");
    expect(describeDays([6])).toBe("Saturdays");
    expect(describeDays([1, 2, 3, 4, 5, 6, 7])).toBe("Every day");
  });
});

describe("wall-clock times as minutes", () => {
  it("turns HH:mm into minutes after midnight and back", async () => {
    const { hhmmOf, minutesOfDay } = await import("../../domain/dates");
    expect([minutesOfDay("00:00"), minutesOfDay("07:30"), minutesOfDay("23:59")]).toEqual([0, 450, 1439]);
    expect([hhmmOf(0), hhmmOf(450), hhmmOf(1439)]).toEqual(["00:00", "07:30", "23:59"]);
  });
});
