import { describe, expect, it } from "vitest";
import { BILLING_FREQUENCIES, type BillingFrequency } from "../../domain/billing";
import { addCalendarDays, startOfLocalDay } from "../../domain/dates";
import { addCalendarMonths, daysBetween, defaultFirstFullCharge, nthPeriod, periodIndexOn, periodOn, periodStart, proRata, termEnd } from "../../domain/periods";

// Pacific/Auckland: DST ended Sunday 5 April 2026 and starts Sunday 27 September 2026.

describe("addCalendarMonths keeps the anchor's day, clamped to short months", () => {
  it.each([
    ["2026-01-31", 1, "2026-02-28"],
    ["2026-01-31", 2, "2026-03-31"],
    ["2026-01-31", 3, "2026-04-30"],
    ["2028-01-31", 1, "2028-02-29"], // leap year
    ["2026-03-31", -1, "2026-02-28"],
    ["2025-12-15", 1, "2026-01-15"], // New Year
    ["2026-11-30", 3, "2027-02-28"],
    ["2024-02-29", 12, "2025-02-28"],
    ["2024-02-29", 48, "2028-02-29"],
    ["2026-05-01", -5, "2025-12-01"],
  ])("%s + %i months = %s", (anchor, n, expected) => {
    expect(addCalendarMonths(anchor, n)).toBe(expected);
  });
});

describe("periodStart: the k-th period from the anchor", () => {
  it.each<[string, BillingFrequency, number, string]>([
    ["2026-01-31", "monthly", 0, "2026-01-31"],
    ["2026-01-31", "monthly", 1, "2026-02-28"],
    ["2026-01-31", "monthly", 2, "2026-03-31"], // the anchor day returns after February
    ["2026-01-31", "monthly", 3, "2026-04-30"],
    ["2026-04-01", "weekly", 1, "2026-04-08"], // across the end of DST
    ["2026-09-23", "weekly", 1, "2026-09-30"], // across the start of DST
    ["2026-04-04", "daily", 1, "2026-04-05"],
    ["2026-04-04", "daily", 2, "2026-04-06"],
    ["2026-12-25", "fortnightly", 1, "2027-01-08"], // New Year
    ["2026-11-30", "quarterly", 1, "2027-02-28"],
    ["2026-11-30", "quarterly", 2, "2027-05-30"],
    ["2026-08-31", "bi_monthly", 3, "2027-02-28"],
    ["2026-08-31", "twice_yearly", 1, "2027-02-28"],
    ["2026-08-31", "twice_yearly", 2, "2027-08-31"],
    ["2024-02-29", "yearly", 1, "2025-02-28"],
    ["2024-02-29", "yearly", 4, "2028-02-29"],
  ])("%s %s k=%i starts %s", (anchor, frequency, k, expected) => {
    expect(periodStart(anchor, frequency, k)).toBe(expected);
  });

  it("is in whole Auckland days whatever DST does: a weekly period across a change is 7 days of 167 or 169 hours", () => {
    const ended = nthPeriod("2026-04-01", "weekly", 0);
    const began = nthPeriod("2026-09-23", "weekly", 0);
    const hours = (p: { start: string; end: string }) => (startOfLocalDay(p.end).getTime() - startOfLocalDay(p.start).getTime()) / 3_600_000;
    expect([daysBetween(ended.start, ended.end), hours(ended)]).toEqual([7, 169]);
    expect([daysBetween(began.start, began.end), hours(began)]).toEqual([7, 167]);
  });

  it("refuses a paid-in-full price, which has no repeating periods", () => {
    expect(() => periodStart("2026-01-01", "one_off", 1)).toThrow(RangeError);
  });
});

describe("periodIndexOn / periodOn: which period holds a day", () => {
  it.each<[string, BillingFrequency, string, number]>([
    ["2026-01-31", "monthly", "2026-01-31", 0],
    ["2026-01-31", "monthly", "2026-02-27", 0],
    ["2026-01-31", "monthly", "2026-02-28", 1],
    ["2026-01-31", "monthly", "2026-03-30", 1],
    ["2026-01-31", "monthly", "2026-03-31", 2],
    ["2026-01-31", "monthly", "2026-01-30", -1],
    ["2026-04-01", "weekly", "2026-04-07", 0],
    ["2026-04-01", "weekly", "2026-04-08", 1],
    ["2026-04-01", "weekly", "2026-03-31", -1],
    ["2024-02-29", "yearly", "2025-02-27", 0],
    ["2024-02-29", "yearly", "2025-02-28", 1],
  ])("%s %s: %s is in period %i", (anchor, frequency, day, k) => {
    expect(periodIndexOn(anchor, frequency, day)).toBe(k);
  });

  it("agrees with periodStart for every frequency and every day of three years", () => {
    for (const frequency of BILLING_FREQUENCIES.filter((f) => f !== "one_off")) {
      for (const anchor of ["2026-01-31", "2026-02-28", "2026-04-05", "2026-12-31"]) {
        for (let day = "2025-06-01"; day < "2028-06-01"; day = addCalendarDays(day, 1)) {
          const p = periodOn(anchor, frequency, day);
          expect(p.start <= day && day < p.end, `${frequency} ${anchor} ${day} in ${p.start}..${p.end}`).toBe(true);
        }
      }
    }
  });
});

describe("termEnd", () => {
  it.each<[string, number, "day" | "week" | "month" | "year", string]>([
    ["2026-01-31", 6, "month", "2026-07-31"],
    ["2026-08-31", 6, "month", "2027-02-28"],
    ["2024-02-29", 1, "year", "2025-02-28"],
    ["2026-12-20", 2, "week", "2027-01-03"],
    ["2026-04-04", 10, "day", "2026-04-14"],
  ])("%s + %i %s ends %s", (start, amount, unit, expected) => {
    expect(termEnd(start, amount, unit)).toBe(expected);
  });
});

describe("proRata: price × remaining days ÷ days in the period, half up", () => {
  it.each<[number, BillingFrequency, string, string, number, number, number]>([
    // amount, frequency, start, first full charge → cents, days, days in period
    [10_000, "monthly", "2026-02-15", "2026-03-01", 5_000, 14, 28],
    [10_000, "monthly", "2026-01-10", "2026-02-01", 7_097, 22, 31], // 7096.77
    [10_000, "monthly", "2028-02-15", "2028-03-01", 5_172, 15, 29], // leap February: 5172.41
    [2_500, "weekly", "2026-04-03", "2026-04-06", 1_071, 3, 7], // across the end of DST: 1071.43
    [1, "fortnightly", "2026-04-01", "2026-04-08", 1, 7, 14], // 0.5 rounds up
    [3, "fortnightly", "2026-04-01", "2026-04-08", 2, 7, 14], // 1.5 rounds up
    [10_000, "monthly", "2026-03-16", "2026-03-31", 4_839, 15, 31], // a 31st anchor: the period is 28 Feb – 31 Mar
    [52_000, "yearly", "2026-12-01", "2027-01-01", 4_416, 31, 365], // New Year: 4416.44
    [10_000, "monthly", "2026-05-01", "2026-05-01", 0, 0, 30], // starts on the billing day: nothing extra
  ])("%i cents %s from %s, first full charge %s → %i", (amount, frequency, start, first, cents, days, daysInPeriod) => {
    const r = proRata(amount, frequency, start, first);
    expect([r.amount, r.days, r.daysInPeriod]).toEqual([cents, days, daysInPeriod]);
    expect(r.covers).toEqual({ start, end: first });
    expect(r.period.end).toBe(first);
    expect(r.firstFullCharge).toBe(first);
  });

  it("refuses a first full charge before the start or a whole period after it, and amounts that are not cents", () => {
    expect(() => proRata(10_000, "monthly", "2026-05-02", "2026-05-01")).toThrow(RangeError);
    expect(() => proRata(10_000, "monthly", "2026-05-01", "2026-06-01")).toThrow(RangeError);
    expect(() => proRata(10_000, "weekly", "2026-05-01", "2026-05-08")).toThrow(RangeError);
    expect(() => proRata(10.5, "weekly", "2026-05-01", "2026-05-02")).toThrow(RangeError);
    expect(() => proRata(100, "one_off", "2026-05-01", "2026-05-02")).toThrow(RangeError);
  });
});

describe("defaultFirstFullCharge: the usual billing day on or after the start", () => {
  it.each<[BillingFrequency, string, string]>([
    ["monthly", "2026-02-15", "2026-03-01"],
    ["monthly", "2026-03-01", "2026-03-01"],
    ["yearly", "2026-12-31", "2027-01-01"],
    ["quarterly", "2026-11-02", "2026-12-01"],
    ["weekly", "2026-04-03", "2026-04-06"], // Friday → Monday
    ["weekly", "2026-04-06", "2026-04-06"], // a Monday
    ["fortnightly", "2026-04-05", "2026-04-06"], // Sunday → Monday
    ["daily", "2026-04-05", "2026-04-05"],
  ])("%s from %s: %s", (frequency, start, expected) => {
    expect(defaultFirstFullCharge(frequency, start)).toBe(expected);
  });
});
