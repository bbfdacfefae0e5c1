import { describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { nextCharge, pauseDaysRemaining, previewCancel, previewEndPause, previewPause, previewPriceChange, previewRemovePause, type MembershipFacts } from "../../domain/lifecycle";

/** A weekly $25.00 member on Mondays since 2 November 2026, paid up to Monday 7 December; today is Wednesday 2 December. */
const TODAY = "2026-12-02";
const weekly = (extra: Partial<MembershipFacts> = {}): MembershipFacts => ({
  frequency: "weekly",
  amount: 2_500,
  anchor: "2026-11-02",
  paidUntil: "2026-12-07",
  pauses: [],
  cancelledAt: null,
  graceEndsAt: null,
  upcomingState: null,
  termEndsAt: null,
  coolingEndsAt: null,
  pifEndsAt: null,
  priceChange: null,
  pauseDaysCredit: 0,
  ...extra,
});

describe("the next charge", () => {
  it.each([
    ["a running weekly membership", weekly(), { day: "2026-12-07", amount: 2_500 }],
    ["paused over the next charge: moved by the pause's 14 days", weekly({ pauses: [{ start: "2026-12-05", end: "2026-12-19" }] }), { day: "2026-12-21", amount: 2_500 }],
    ["a pause after the next charge leaves it", weekly({ pauses: [{ start: "2026-12-08", end: "2026-12-15" }] }), { day: "2026-12-07", amount: 2_500 }],
    ["a scheduled price change from that day", weekly({ priceChange: { from: "2026-12-07", amount: 2_900 } }), { day: "2026-12-07", amount: 2_900 }],
    ["cancelled: none", weekly({ cancelledAt: new Date() }), null],
    ["stopped for a debt: none", weekly({ upcomingState: "failed" }), null],
    ["paid in full: none", weekly({ frequency: "one_off", anchor: null }), null],
  ])("%s", (_what, facts, expected) => {
    expect(nextCharge(facts, TODAY)).toEqual(expected);
  });
});

describe("a pause's preview", () => {
  it.each([
    ["ends before it starts", { start: "2026-12-10", end: "2026-12-09" }, { end: ["The pause must end after it starts"] }],
    ["starts in the past", { start: "2026-12-01", end: "2026-12-09" }, { start: ["The pause cannot start in the past"] }],
    ["is longer than a year", { start: "2026-12-10", end: "2027-12-11" }, { end: ["A pause is at most 365 days"] }],
    ["starts more than a year ahead", { start: "2028-02-01", end: "2028-02-08" }, { start: ["The pause must start within the next year"] }],
  ])("is refused when it %s", (_what, pause, errors) => {
    expect(previewPause(weekly(), pause, TODAY)).toEqual({ errors });
  });

  it("is refused for a cancelled, a stopped or a paid-in-full membership", () => {
    const pause = { start: "2026-12-10", end: "2026-12-17" };
    expect(previewPause(weekly({ cancelledAt: new Date() }), pause, TODAY)).toEqual({ errors: { _: ["A cancelled membership cannot be paused"] } });
    expect(previewPause(weekly({ upcomingState: "failed" }), pause, TODAY)).toEqual({ errors: { _: ["A membership stopped for an unpaid payment cannot be paused: settle it first"] } });
    expect(previewPause(weekly({ frequency: "one_off" }), pause, TODAY)).toEqual({ errors: { _: ["A paid-in-full membership cannot be paused"] } });
  });

  it("draws on the pause credit and says what the card will say on its first day", () => {
    const answer = previewPause(weekly({ pauseDaysCredit: 10 }), { start: "2026-12-02", end: "2026-12-16" }, TODAY);
    expect(answer).toMatchObject({
      effect: { days: 14, creditRemainingBefore: 10, creditRemainingAfter: -4, nextChargeAfter: { day: "2026-12-21" }, card: { label: "Paused", colour: "amber", detail: "Paused until 16 Dec 2026" } },
    });
  });

  it("ends a running pause early, and removes only one not yet started", () => {
    const facts = weekly({ pauses: [{ id: 1, start: "2026-11-30", end: "2026-12-28" }, { id: 2, start: "2027-01-10", end: "2027-01-17" }], pauseDaysCredit: 35 });
    expect(pauseDaysRemaining(facts)).toBe(0);
    expect(previewEndPause(facts, 1, "2026-12-29", TODAY)).toEqual({ errors: { end: ["Choose a day before 28 Dec 2026, when it ends anyway"] } });
    expect(previewEndPause(facts, 2, TODAY, TODAY)).toEqual({ errors: { pause_id: ["That pause has not started: remove it instead"] } });
    const ended = previewEndPause(facts, 1, "2026-12-04", TODAY);
    expect(ended).toMatchObject({ effect: { days: 4, creditRemainingAfter: 24, card: { label: "Active" } } });
    expect(previewRemovePause(facts, 1, TODAY)).toEqual({ errors: { pause_id: ["That pause has started: end it early instead"] } });
    expect(previewRemovePause(facts, 2, TODAY)).toMatchObject({ effect: { creditRemainingAfter: 7 } });
  });
});

describe("a cancellation's preview", () => {
  it.each([
    ["at the period end: access until then, undoable until then", "period_end", weekly(), { accessEnds: "2026-12-07", undoUntil: "2026-12-07", breakFee: 0, unusedDays: 0 }],
    ["now: access ends today, the paid days given up, final", "now", weekly(), { accessEnds: "2026-12-02", undoUntil: null, breakFee: 0, unusedDays: 5 }],
    [
      "a 12-month term after cooling-off: half the 48 weekly charges left",
      "period_end",
      weekly({ amount: 2_000, termEndsAt: "2027-11-02", coolingEndsAt: "2026-11-09" }),
      { breakFee: 48_000, coolingOff: false },
    ],
    ["a term inside its cooling-off window: free", "now", weekly({ termEndsAt: "2027-11-30", coolingEndsAt: "2026-12-07" }), { breakFee: 0, coolingOff: true }],
    ["a term after it ended: free", "now", weekly({ termEndsAt: "2026-11-30", coolingEndsAt: "2025-12-07" }), { breakFee: 0, coolingOff: false }],
  ] as const)("%s", (_what, when, facts, expected) => {
    expect(previewCancel(facts, when, TODAY, 50)).toMatchObject({ effect: expected });
  });

  it("shows the card green until access ends, and refuses a second cancellation", () => {
    expect(previewCancel(weekly(), "period_end", TODAY, null)).toMatchObject({ effect: { card: { label: "Cancelled", colour: "green", detail: "Cancelled: access until 7 Dec 2026" } } });
    expect(previewCancel(weekly({ cancelledAt: startOfLocalDay(TODAY) }), "now", TODAY, null)).toEqual({ errors: { _: ["This membership is cancelled already"] } });
  });
});

describe("a price change's preview", () => {
  it("applies from the period end or a day from tomorrow, at the same billing rhythm", () => {
    expect(previewPriceChange(weekly(), { amount: 2_900, frequency: "weekly" }, null, TODAY)).toMatchObject({ effect: { takesEffect: "2026-12-07", nextChargeAfter: { day: "2026-12-07", amount: 2_900 } } });
    expect(previewPriceChange(weekly(), { amount: 2_900, frequency: "weekly" }, "2026-12-10", TODAY)).toMatchObject({ effect: { takesEffect: "2026-12-10", nextChargeAfter: { day: "2026-12-07", amount: 2_500 } } });
    expect(previewPriceChange(weekly(), { amount: 9_900, frequency: "monthly" }, null, TODAY)).toMatchObject({ errors: { price_id: [expect.stringMatching(/weekly price/)] } });
    expect(previewPriceChange(weekly(), { amount: 2_900, frequency: "weekly" }, TODAY, TODAY)).toEqual({ errors: { date: ["Choose a day from tomorrow"] } });
  });
});
