import { describe, expect, it } from "vitest";
import { formatDate, formatDateRange, formatDateTime, formatLocal, formatTime } from "../../domain/dates";
import { dateWriters } from "../../domain/date-writers";
import { withDateTexts } from "../../app/lib/date-texts.server";

describe("dates written by the loader, read in the browser", () => {
  const instants = [
    "2026-11-18T11:00:00Z",
    "2026-11-25T11:00:00Z",
    "2026-10-28T11:00:00Z",
    "2026-11-04T11:00:00Z",
    "2026-12-19T11:00:00Z",
    "2027-01-02T11:00:00Z",
    "2026-09-26T20:05:09.000Z",
    "2026-11-21T11:00:00.123456+00:00",
  ];
  const data = withDateTexts({ list: instants.map((at) => ({ at, day: "2026-11-22" })), when: new Date("2026-11-22T01:00:00Z") });
  const dates = dateWriters(data.dateTexts);

  it("writes what domain/dates writes, for every instant in the data", () => {
    for (const at of [...instants, "2026-11-22T01:00:00.000Z"]) {
      expect([at, dates.date(at), dates.time(at), dates.dateTime(at), dates.session(at)]).toEqual([
        at,
        formatDate(at),
        formatTime(at),
        formatDateTime(at),
        formatLocal(at, "EEE d MMM, h:mm a"),
      ]);
    }
    for (let i = 0; i < 6; i += 2) expect(dates.range(instants[i], instants[i + 1])).toBe(formatDateRange(instants[i], instants[i + 1]));
    expect(dates.date(new Date("2026-11-22T01:00:00Z"))).toBe("22 Nov 2026");
  });
  it("leaves calendar days alone and shows an instant it was not given as it is", () => {
    expect(Object.keys(data.dateTexts)).not.toContain("2026-11-22");
    expect(dates.date("2030-01-01T00:00:00Z")).toBe("2030-01-01T00:00:00Z");
  });
});
