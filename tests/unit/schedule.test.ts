import { describe, expect, it } from "vitest";
import { chargesDue, MAX_DUE_AT_ONCE, type ScheduleFacts } from "../../domain/schedule";

// Weekly from Monday 5 January 2026 at $19.99; the first week (5–12 Jan) is charged.
const weekly: ScheduleFacts = { frequency: "weekly", anchor: "2026-01-05", paidUntil: "2026-01-12", amount: 1_999 };
const starts = (facts: ScheduleFacts, today: string) => chargesDue(facts, today).map((c) => c.period.start);

describe("chargesDue: which periods are due by today, and at what price", () => {
  it.each<[string, Partial<ScheduleFacts>, string, string[]]>([
    ["weeks not yet charged, up to today", {}, "2026-01-26", ["2026-01-12", "2026-01-19", "2026-01-26"]],
    ["nothing before the next charge day", {}, "2026-01-11", []],
    ["nothing already charged", { paidUntil: "2026-02-02" }, "2026-01-26", []],
    // A pause of 14 days inside a paid week: the 12 January charge moves to the 26th, the rhythm with it.
    ["a pause moves the next charge by its length", { pauses: [{ start: "2026-01-07", end: "2026-01-21" }] }, "2026-02-02", ["2026-01-26", "2026-02-02"]],
    ["a pause from a charge day moves that charge", { pauses: [{ start: "2026-01-12", end: "2026-01-19" }] }, "2026-01-26", ["2026-01-19", "2026-01-26"]],
    ["an open-ended pause stops every charge from its start", { pauses: [{ start: "2026-01-10", end: null }] }, "2026-03-01", []],
    [
      "two pauses add up",
      { pauses: [{ start: "2026-01-20", end: "2026-01-23" }, { start: "2026-01-07", end: "2026-01-09" }] },
      "2026-02-01",
      ["2026-01-14", "2026-01-24", "2026-01-31"],
    ],
    ["a cancellation at period end stops the charges from then", { cancelledFrom: "2026-01-19" }, "2026-02-01", ["2026-01-12"]],
  ])("%s", (_what, facts, today, expected) => {
    expect(starts({ ...weekly, ...facts }, today)).toEqual(expected);
  });

  it("charges a scheduled price change from its day, and each period its own dates", () => {
    expect(chargesDue({ ...weekly, priceChange: { from: "2026-01-19", amount: 2_499 } }, "2026-01-26")).toEqual([
      { period: { start: "2026-01-12", end: "2026-01-19" }, amount: 1_999 },
      { period: { start: "2026-01-19", end: "2026-01-26" }, amount: 2_499 },
      { period: { start: "2026-01-26", end: "2026-02-02" }, amount: 2_499 },
    ]);
  });

  it("keeps a month's anchor day, and a pause gives month periods a new one", () => {
    const monthly: ScheduleFacts = { frequency: "monthly", anchor: "2026-01-31", paidUntil: "2026-02-28", amount: 7_900 };
    expect(starts(monthly, "2026-04-30")).toEqual(["2026-02-28", "2026-03-31", "2026-04-30"]);
    // Ten days' pause in February: the 28 February charge falls on 10 March, then the 10th of each month.
    expect(starts({ ...monthly, pauses: [{ start: "2026-02-10", end: "2026-02-20" }] }, "2026-04-15")).toEqual(["2026-03-10", "2026-04-10"]);
  });

  it("answers the same whatever it was asked before: charging what it said makes it say nothing more", () => {
    const facts = { ...weekly, pauses: [{ start: "2026-01-07", end: "2026-01-21" }] };
    const first = chargesDue(facts, "2026-02-02");
    expect(chargesDue({ ...facts, paidUntil: first.at(-1)!.period.end }, "2026-02-02")).toEqual([]);
    expect(chargesDue({ ...facts, paidUntil: first[0].period.end }, "2026-02-02")).toEqual(first.slice(1));
  });

  it("never charges a paid-in-full price here, and answers a long-unbilled daily price in steps", () => {
    expect(chargesDue({ ...weekly, frequency: "one_off" }, "2027-01-01")).toEqual([]);
    const daily = chargesDue({ frequency: "daily", anchor: "2020-01-01", paidUntil: "2020-01-01", amount: 500 }, "2026-01-01");
    expect(daily).toHaveLength(MAX_DUE_AT_ONCE);
    expect(daily[0].period).toEqual({ start: "2020-01-01", end: "2020-01-02" });
  });
});
