import { describe, expect, it } from "vitest";
import { startPlan, type StartPrice } from "../../domain/start";

const weekly: StartPrice = { amount: 2_100, frequency: "weekly", joiningFee: 4_900, termAmount: null, termUnit: null };
const monthly: StartPrice = { amount: 9_000, frequency: "monthly", joiningFee: 0, termAmount: null, termUnit: null };

describe("how a subscription starts (domain/start.ts)", () => {
  it.each<[string, StartPrice, string, string | null, Partial<ReturnType<typeof startPlan>>]>([
    [
      "weekly from a Wednesday: the days to Monday pro rata, plus the joining fee",
      weekly,
      "2026-11-25",
      null,
      {
        anchor: "2026-11-30",
        firstPayment: { amount: 1_500 + 4_900, joiningFee: 4_900, period: { start: "2026-11-25", end: "2026-11-30" }, isProRata: true, kind: "subscription" },
        currentPeriod: { start: "2026-11-25", end: "2026-11-30" },
      },
    ],
    [
      "weekly from a Monday: the first full week",
      weekly,
      "2026-11-30",
      null,
      { anchor: "2026-11-30", firstPayment: { amount: 7_000, joiningFee: 4_900, period: { start: "2026-11-30", end: "2026-12-07" }, isProRata: false, kind: "subscription" } },
    ],
    [
      "monthly from 20 November, billed from the 1st: 11 of November's 30 days",
      monthly,
      "2026-11-20",
      null,
      { anchor: "2026-12-01", firstPayment: { amount: 3_300, joiningFee: 0, period: { start: "2026-11-20", end: "2026-12-01" }, isProRata: true, kind: "subscription" } },
    ],
    [
      "monthly with a chosen billing date on the start: no pro-rata",
      monthly,
      "2027-01-31",
      "2027-01-31",
      { anchor: "2027-01-31", currentPeriod: { start: "2027-01-31", end: "2027-02-28" } },
    ],
    [
      "a six-month term: committed until six months on, free to cancel for a week",
      { ...monthly, termAmount: 6, termUnit: "month" },
      "2026-12-01",
      null,
      { termEnds: "2027-06-01", coolingOffEnds: "2026-12-08", pifEnds: null },
    ],
    [
      "paid in full for 12 months, with a joining fee",
      { amount: 79_900, frequency: "one_off", joiningFee: 2_500, termAmount: 12, termUnit: "month" },
      "2026-11-24",
      null,
      {
        anchor: null,
        firstPayment: { amount: 82_400, joiningFee: 2_500, period: { start: "2026-11-24", end: "2027-11-24" }, isProRata: false, kind: "pif" },
        currentPeriod: { start: "2026-11-24", end: "2027-11-24" },
        termEnds: null,
        coolingOffEnds: null,
        pifEnds: "2027-11-24",
      },
    ],
  ])("%s", (_, price, start, billing, expected) => {
    expect(startPlan(price, start, billing)).toMatchObject(expected);
  });

  it("refuses a billing date before the start, or a period or more after it", () => {
    expect(() => startPlan(weekly, "2026-11-25", "2026-11-24")).toThrow(RangeError);
    expect(() => startPlan(weekly, "2026-11-25", "2026-12-02")).toThrow(RangeError);
  });
});
