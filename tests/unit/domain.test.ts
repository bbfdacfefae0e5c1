import { confidenceText, hearAboutUsText } from "../../domain/member";
import { memberListQuery } from "../../domain/schemas/members";
import { cancellationUndoableUntil, nextBillingDate, scheduledPriceChange } from "../../domain/subscription";
import { describe, expect, it } from "vitest";
import { BILLING_FREQUENCIES, compareFrequencies, termShorthand } from "../../domain/billing";
import { formatDateRange, formatDateTime, formatLocal, formatTime, localDay, localInstant, localMonthStart, localWeekStart, startOfLocalMonth, startOfLocalWeek, startOfToday } from "../../domain/dates";
import { capitaliseWords } from "../../domain/names";
import { formatCents, parseAmountToCents } from "../../domain/money";
import { paymentOutcome } from "../../domain/payment";
import { statusColour, subscriptionState } from "../../domain/subscription";

const now = new Date("2026-11-22T01:00:00Z"); // 2:00 PM Sunday in Auckland (NZDT, +13)
const past = new Date("2026-11-01T00:00:00Z");
const future = new Date("2026-12-20T00:00:00Z");

describe("dates in Pacific/Auckland", () => {
  it("formats with a 12-hour clock", () => {
    expect(formatTime(new Date("2026-11-21T20:00:00Z"))).toBe("9:00 AM");
    expect(formatDateTime(now)).toBe("22 Nov 2026, 2:00 PM");
  });
  it("says a period's month and year once, by Auckland days", () => {
    expect(formatDateRange("2026-11-18T11:00:00Z", "2026-11-25T11:00:00Z")).toBe("19 – 26 Nov 2026");
    expect(formatDateRange("2026-10-28T11:00:00Z", "2026-11-04T11:00:00Z")).toBe("29 Oct – 5 Nov 2026");
    expect(formatDateRange("2026-12-19T11:00:00Z", "2027-01-02T11:00:00Z")).toBe("20 Dec 2026 – 3 Jan 2027");
    // 31 October 11:30 PM UTC is already 1 November in Auckland.
    expect(formatDateRange("2026-10-31T11:30:00Z", "2026-11-30T11:00:00Z")).toBe("1 Nov – 1 Dec 2026");
  });
  it("finds today and the week's Monday across DST", () => {
    expect(startOfToday(now).toISOString()).toBe("2026-11-21T11:00:00.000Z");
    expect(startOfLocalWeek(now).toISOString()).toBe("2026-11-15T11:00:00.000Z");
    // NZ leaves DST on 5 April 2026: the Monday before was still +13, the day after +12.
    expect(startOfToday(new Date("2026-04-06T01:00:00Z")).toISOString()).toBe("2026-04-05T12:00:00.000Z");
  });
  it("finds the day, week and month of instants near midnight, DST changes and year ends", () => {
    // Asked in an order that moves in and out of the remembered day.
    const cases: [string, string, string, string, string][] = [
      // instant (UTC),           Auckland day,  Monday start (UTC),       month start (UTC),        next month start (UTC)
      ["2026-11-21T10:59:59.999Z", "2026-11-21", "2026-11-15T11:00:00.000Z", "2026-10-31T11:00:00.000Z", "2026-11-30T11:00:00.000Z"],
      ["2026-11-21T11:00:00.000Z", "2026-11-22", "2026-11-15T11:00:00.000Z", "2026-10-31T11:00:00.000Z", "2026-11-30T11:00:00.000Z"],
      ["2026-11-22T10:59:59.999Z", "2026-11-22", "2026-11-15T11:00:00.000Z", "2026-10-31T11:00:00.000Z", "2026-11-30T11:00:00.000Z"],
      ["2026-11-22T11:00:00.000Z", "2026-11-23", "2026-11-22T11:00:00.000Z", "2026-10-31T11:00:00.000Z", "2026-11-30T11:00:00.000Z"],
      ["2026-11-21T11:00:00.000Z", "2026-11-22", "2026-11-15T11:00:00.000Z", "2026-10-31T11:00:00.000Z", "2026-11-30T11:00:00.000Z"],
      // 5 April 2026: DST ends at 3 AM (+13 → +12), a 25-hour day.
      ["2026-04-05T11:30:00.000Z", "2026-04-05", "2026-03-29T11:00:00.000Z", "2026-03-31T11:00:00.000Z", "2026-04-30T12:00:00.000Z"],
      ["2026-04-05T12:00:00.000Z", "2026-04-06", "2026-04-05T12:00:00.000Z", "2026-03-31T11:00:00.000Z", "2026-04-30T12:00:00.000Z"],
      // 27 September 2026: DST starts at 2 AM (+12 → +13), a 23-hour day.
      ["2026-09-27T10:59:00.000Z", "2026-09-27", "2026-09-20T12:00:00.000Z", "2026-08-31T12:00:00.000Z", "2026-09-30T11:00:00.000Z"],
      ["2026-09-27T11:00:00.000Z", "2026-09-28", "2026-09-27T11:00:00.000Z", "2026-08-31T12:00:00.000Z", "2026-09-30T11:00:00.000Z"],
      // New Year in Auckland, while it is still 31 December in UTC.
      ["2026-12-31T11:00:00.000Z", "2027-01-01", "2026-12-27T11:00:00.000Z", "2026-12-31T11:00:00.000Z", "2027-01-31T11:00:00.000Z"],
    ];
    for (const [at, day, monday, month, nextMonth] of cases) {
      const d = new Date(at);
      expect([at, localDay(d)]).toEqual([at, day]);
      expect([at, startOfLocalWeek(d).toISOString()]).toEqual([at, monday]);
      expect([at, startOfLocalMonth(d).toISOString()]).toEqual([at, month]);
      expect([at, startOfLocalMonth(d, 1).toISOString()]).toEqual([at, nextMonth]);
      // The same days as calendar dates, worked out without a time-zone conversion.
      expect([at, localWeekStart(d)]).toEqual([at, localDay(new Date(monday))]);
      expect([at, localMonthStart(d), localMonthStart(d, 1)]).toEqual([at, localDay(new Date(month)), localDay(new Date(nextMonth))]);
    }
    expect(localMonthStart(new Date("2026-01-15T00:00:00Z"), -2)).toBe("2025-11-01");
    expect(startOfLocalMonth(new Date("2026-01-15T00:00:00Z"), -1).toISOString()).toBe("2025-11-30T11:00:00.000Z");
    expect(startOfLocalMonth(new Date("2026-11-22T00:00:00Z"), -11).toISOString()).toBe("2025-11-30T11:00:00.000Z");
  });
  it("writes every pattern the pages use, in Auckland time", () => {
    // 27 September 2026, 9:05 AM in Auckland (NZDT, +13): a Sunday, and a month whose short name is "Sep", not "Sept".
    const at = new Date("2026-09-26T20:05:09Z");
    const cases: [string, string][] = [
      ["EEE d MMM 'at' h:mm a", "Sun 27 Sep at 9:05 AM"],
      ["EEE d MMM yyyy", "Sun 27 Sep 2026"],
      ["EEE d MMM, h:mm a", "Sun 27 Sep, 9:05 AM"],
      ["EEE d", "Sun 27"],
      ["EEEE d MMMM", "Sunday 27 September"],
      ["HH:mm", "09:05"],
      ["MMM yyyy", "Sep 2026"],
      ["MMMM yyyy", "September 2026"],
      ["d MMMM yyyy", "27 September 2026"],
      ["yyyy-MM-dd", "2026-09-27"],
      ["h:mm a", "9:05 AM"],
    ];
    for (const [pattern, written] of cases) expect([pattern, formatLocal(at, pattern)]).toEqual([pattern, written]);
    // Midnight and noon on a 12-hour clock, and 24-hour midnight as 00.
    expect(formatLocal(new Date("2026-11-21T11:00:00Z"), "h:mm a HH:mm")).toBe("12:00 AM 00:00");
    expect(formatLocal(new Date("2026-11-21T23:30:00Z"), "h:mm a HH:mm")).toBe("12:30 PM 12:30");
  });
  it("reads an Auckland wall-clock time as its instant, across the clock changes", () => {
    expect(localInstant("2026-11-26", "09:30").toISOString()).toBe("2026-11-25T20:30:00.000Z");
    expect(localInstant("2026-06-15", "18:00").toISOString()).toBe("2026-06-15T06:00:00.000Z");
    // 27 September 2026, 2 AM: the clocks go to 3 AM, so 2:30 AM is never shown; it is read as the 3:30 AM it would be.
    expect(localInstant("2026-09-27", "01:59").toISOString()).toBe("2026-09-26T13:59:00.000Z");
    expect(localInstant("2026-09-27", "02:30").toISOString()).toBe("2026-09-26T14:30:00.000Z");
    expect(formatLocal(localInstant("2026-09-27", "02:30"), "h:mm a")).toBe("3:30 AM");
    expect(localInstant("2026-09-27", "03:00").toISOString()).toBe("2026-09-26T14:00:00.000Z");
    // 5 April 2026, 3 AM: the clocks go back to 2 AM, so 2:30 AM is shown twice; the first is taken.
    expect(localInstant("2026-04-05", "02:30").toISOString()).toBe("2026-04-04T13:30:00.000Z");
    expect(localInstant("2026-04-05", "03:00").toISOString()).toBe("2026-04-04T15:00:00.000Z");
    // Not a day: an invalid date, as date-fns-tz gave, for the caller's check to refuse.
    expect(Number.isNaN(localInstant("2026-xx-01", "09:00").getTime())).toBe(true);
  });
  it("capitalises each word of a name", () => expect(capitaliseWords("alex van der berg")).toBe("Alex Van Der Berg"));
});

describe("billing", () => {
  it("orders frequencies shortest to longest with PIF last", () => {
    expect([...BILLING_FREQUENCIES].sort(compareFrequencies)).toEqual(BILLING_FREQUENCIES);
    expect(BILLING_FREQUENCIES.at(-1)).toBe("one_off");
  });
  it("writes term shorthand", () => {
    expect(termShorthand({ billing_frequency: "weekly", term_amount: 6, term_unit: "month" })).toBe("6m Term");
    expect(termShorthand({ billing_frequency: "one_off" })).toBe("PIF");
    expect(termShorthand({ billing_frequency: "weekly" })).toBeNull();
  });
});

describe("money", () => {
  it("formats cents in USD and parses amounts", () => {
    expect(formatCents(123456)).toBe("$1,234.56");
    expect(parseAmountToCents("$12.5")).toBe(1250);
    expect(parseAmountToCents("12.345")).toBeNull();
  });
});

describe("subscription state and status card (SPEC §4)", () => {
  it("derives the state in SPEC order", () => {
    expect(subscriptionState({}, now)).toBe("active");
    expect(subscriptionState({ pause_start_at: past, pause_end_at: future, cancelled_at: past }, now)).toBe("paused");
    expect(subscriptionState({ pause_start_at: future, pause_end_at: future }, now)).toBe("active");
    expect(subscriptionState({ cancelled_at: past, grace_period_ends_at: future }, now)).toBe("cancelled");
    expect(subscriptionState({ grace_period_ends_at: future }, now)).toBe("grace_period");
    expect(subscriptionState({ upcoming_state: "failed" }, now)).toBe("upcoming");
  });
  it("colours the card", () => {
    expect(statusColour({}, now)).toBe("green");
    expect(statusColour({ cancelled_at: past, current_period_end: future }, now)).toBe("green");
    expect(statusColour({ cancelled_at: past, current_period_end: past }, now)).toBe("red");
    expect(statusColour({ cancelled_at: past, current_period_end: future, grace_period_ends_at: future }, now)).toBe("red");
    expect(statusColour({ upcoming_state: "upcoming" }, now)).toBe("amber");
    expect(statusColour({ grace_period_ends_at: future }, now)).toBe("amber");
  });
});

describe("payment status", () => {
  it.each([
    ["sent", "successful"],
    ["pending", "not_failed"],
    ["awaiting_payment", "not_failed"],
    ["failed", "failed"],
    ["charged_back", "failed"],
  ])("%s is %s", (status, outcome) => expect(paymentOutcome(status)).toBe(outcome));
});

describe("scheduled price change, undo window and next billing date (SPEC §4)", () => {
  const now = new Date("2026-04-15T00:00:00Z");
  it("finds a scheduled change and when it takes effect", () => {
    expect(scheduledPriceChange({ transition_to_price_id: null, current_period_end: "2026-04-20T00:00:00Z" })).toBeNull();
    expect(scheduledPriceChange({ transition_to_price_id: 7, transition_takes_effect_at: "2026-05-01T00:00:00Z", current_period_end: "2026-04-20T00:00:00Z" })).toEqual({
      to_price_id: 7,
      takes_effect_at: new Date("2026-05-01T00:00:00Z"),
    });
    // Without its own date, at the end of the current period.
    expect(scheduledPriceChange({ transition_to_price_id: 7, current_period_end: "2026-04-20T00:00:00Z" })?.takes_effect_at).toEqual(new Date("2026-04-20T00:00:00Z"));
  });

  it("offers undo only while the window is open", () => {
    expect(cancellationUndoableUntil({ cancelled_at: "2026-04-10T00:00:00Z", undo_cancellation_until: "2026-04-17T00:00:00Z" }, now)).toEqual(new Date("2026-04-17T00:00:00Z"));
    expect(cancellationUndoableUntil({ cancelled_at: "2026-04-01T00:00:00Z", undo_cancellation_until: "2026-04-08T00:00:00Z" }, now)).toBeNull();
    expect(cancellationUndoableUntil({ cancelled_at: null, undo_cancellation_until: "2026-04-17T00:00:00Z" }, now)).toBeNull();
  });

  it("bills next at the period end, after a pause, and never for PIF, cancelled or upcoming", () => {
    const end = "2026-04-20T00:00:00Z";
    expect(nextBillingDate({ current_period_end: end }, "weekly", now)).toEqual(new Date(end));
    expect(nextBillingDate({ current_period_end: end }, "one_off", now)).toBeNull();
    expect(nextBillingDate({ current_period_end: end, cancelled_at: "2026-04-10T00:00:00Z" }, "weekly", now)).toBeNull();
    expect(nextBillingDate({ current_period_end: end, upcoming_state: "upcoming" }, "weekly", now)).toBeNull();
    expect(nextBillingDate({ current_period_end: end, pause_start_at: "2026-04-01T00:00:00Z", pause_end_at: "2026-05-01T00:00:00Z" }, "weekly", now)).toEqual(
      new Date("2026-05-01T00:00:00Z"),
    );
  });
});

describe("member answers", () => {
  it("reads confidence and hear-about-us answers as labels", () => {
    expect(confidenceText("been_but_stopped_going")).toBe("Been before, but stopped going");
    expect(confidenceText("unknown")).toBeNull();
    expect(hearAboutUsText("friend")).toBe("A friend");
    expect(hearAboutUsText("other", "bus stop")).toBe("Other: bus stop");
    expect(hearAboutUsText(null)).toBeNull();
  });
});

describe("members list query", () => {
  it("treats empty GET fields as no filter and refuses values it cannot use", () => {
    expect(memberListQuery.parse({ status: "", offering: "", page: "", sort: "" })).toEqual({ page: 1, sort: "name" });
    expect(memberListQuery.parse({ gym: "all", offering: "3", page: "2", sort: "last_visit", dir: "asc" })).toMatchObject({ gym: "all", offering: 3, page: 2 });
    expect(memberListQuery.safeParse({ status: "sleeping" }).success).toBe(false);
  });
});
