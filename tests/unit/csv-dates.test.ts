import { describe, expect, it } from "vitest";
import { csvDate, csvDateTime } from "../../server/core/csv";
import { memberCsvRow } from "../../server/members/csv";
import { paymentCsvRow, type PaymentListRow } from "../../server/payments/list";
import { visitCsvRow } from "../../server/visits/list";
import type { MemberListRow } from "../../server/members/list";

/** Issue 32: an export writes Auckland's dates and times, as the pages do, never UTC. */
describe("dates in a CSV export", () => {
  it("writes an instant on Auckland's clock, daylight saving included", () => {
    // The walk's member: the page says they joined on 30 Sep (NZDT, UTC+13).
    expect(csvDateTime("2026-09-29T21:52:00.000Z")).toBe("2026-09-30 10:52");
    expect(csvDateTime(new Date("2026-07-01T00:00:00Z"))).toBe("2026-07-01 12:00"); // NZST, UTC+12
    // Daylight saving starts 27 Sep 2026: 1:59 AM, then 3:00 AM a minute later.
    expect(csvDateTime("2026-09-26T13:59:00Z")).toBe("2026-09-27 01:59");
    expect(csvDateTime("2026-09-26T14:00:00Z")).toBe("2026-09-27 03:00");
    // It ends 5 Apr 2026: 2:30 AM shows twice, an hour apart.
    expect(csvDateTime("2026-04-04T13:30:00Z")).toBe("2026-04-05 02:30");
    expect(csvDateTime("2026-04-04T14:30:00Z")).toBe("2026-04-05 02:30");
    expect(csvDateTime(null)).toBe("");
  });

  it("writes a day as Auckland's day, which is not UTC's for half of it", () => {
    expect(csvDate("2026-09-29T10:59:00Z")).toBe("2026-09-29");
    expect(csvDate("2026-09-29T11:00:00Z")).toBe("2026-09-30"); // midnight NZDT
    expect(csvDate("2026-04-04T11:00:00Z")).toBe("2026-04-05"); // midnight NZDT, the day daylight saving ends
    expect(csvDate("2026-04-05T11:00:00Z")).toBe("2026-04-05"); // 11 PM NZST that day
  });

  it("is what each export's rows carry", () => {
    const member = {
      id: 1,
      name: "Ana",
      email: "a@example.com",
      mobile_number: null,
      gym: null,
      membership: null,
      status: null,
      tags: [],
      visits_count: 2,
      last_visit_at: "2026-09-26T14:00:00.000Z",
      joined_at: "2026-09-29T21:52:00.000Z",
    } as unknown as MemberListRow;
    expect(memberCsvRow(member).slice(-3)).toEqual(["2026-09-27 03:00", "2", "2026-09-30"]);
    const payment = {
      id: 5,
      created_at: "2026-04-04T14:30:00.000Z",
      user: { id: 1, name: "Ana" },
      gym: "North",
      amount: 2500,
      surcharge: 0,
      status: "sent",
      method: null,
      type: null,
      period_start: "2026-04-05",
      period_end: "2026-04-12",
      is_retry: false,
      error: null,
      refunded: 0,
      charged_back: 0,
    } as unknown as PaymentListRow;
    expect(paymentCsvRow(payment)[1]).toBe("2026-04-05 02:30");
    expect(
      visitCsvRow({ id: 9, visited_at: "2026-09-29T21:52:00.000Z", successful: true, user: { id: 1, name: "Ana" }, gym: { id: 1, name: "North" } })[1],
    ).toBe("2026-09-30 10:52");
  });
});
