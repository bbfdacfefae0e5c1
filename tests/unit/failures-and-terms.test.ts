import { describe, expect, it } from "vitest";
import type { BillingFrequency } from "../../domain/billing";
import { declineKind, graceEnds, nextRetryDay, retrySchedule, type DeclineKind } from "../../domain/failures";
import { breakFee, chargesLeft } from "../../domain/terms";

describe("declineKind: soft declines are retried, hard ones are not", () => {
  it.each<[string | null, DeclineKind]>([
    ["insufficient_funds", "soft"],
    ["try_again_later", "soft"],
    ["issuer_not_available", "soft"], // the bank is offline
    ["generic_decline", "soft"],
    ["refer_to_payer", "soft"], // GoCardless
    ["lost_card", "hard"],
    ["stolen_card", "hard"],
    ["expired_card", "hard"],
    ["mandate_cancelled", "hard"], // GoCardless
    ["bank_account_closed", "hard"],
    ["charged_back", "hard"], // the payer disputed it: not their card again, staff take it
    ["a_code_we_have_never_seen", "soft"],
    [null, "soft"],
  ])("%s is %s", (code, kind) => {
    expect(declineKind(code)).toBe(kind);
  });
});

describe("nextRetryDay: 1, 3, 5 and 7 days after the first failure", () => {
  it.each<[number, DeclineKind, string | null]>([
    [0, "soft", "2026-12-30"],
    [1, "soft", "2027-01-01"], // across New Year
    [2, "soft", "2027-01-03"],
    [3, "soft", "2027-01-05"],
    [4, "soft", null], // the schedule is spent
    [0, "hard", null],
  ])("after %i retries of a %s decline: %s", (retries, kind, expected) => {
    expect(nextRetryDay("2026-12-29", retries, kind)).toBe(expected);
  });

  it.each<[string, string[]]>([
    ["2027-01-05", ["2026-12-30", "2027-01-01", "2027-01-03", "2027-01-04"]], // a week's grace: the 7th day's try moves to the 6th
    ["2027-01-03", ["2026-12-30", "2027-01-01", "2027-01-02"]], // five days: 1, 3 and the last day of access
    ["2027-01-02", ["2026-12-30", "2027-01-01"]], // four days: the last day of access has its try already
    ["2026-12-31", ["2026-12-30"]],
    ["2026-12-30", []], // one day: access stops before the first try
    ["2027-01-12", ["2026-12-30", "2027-01-01", "2027-01-03", "2027-01-05"]], // two weeks: the whole schedule
  ])("tries only while the member has access (it stops when %s begins): %j", (stops, expected) => {
    expect(retrySchedule("2026-12-29", "soft", stops)).toEqual(expected);
    expect(expected.map((_, n) => nextRetryDay("2026-12-29", n, "soft", stops))).toEqual(expected);
    expect(nextRetryDay("2026-12-29", expected.length, "soft", stops)).toBeNull();
  });

  it("never tries a hard decline again, whatever the grace period", () => {
    expect(retrySchedule("2026-12-29", "hard", "2027-01-30")).toEqual([]);
  });
});

describe("graceEnds", () => {
  it.each<[string, number, "day" | "week" | "month", string]>([
    ["2026-04-01", 7, "day", "2026-04-08"], // across the end of DST
    ["2026-12-28", 2, "week", "2027-01-11"],
    ["2026-01-31", 1, "month", "2026-02-28"],
    ["2026-05-05", 0, "day", "2026-05-05"], // no grace: access stops at once
  ])("failed %s, %i %s → %s", (failed, amount, unit, expected) => {
    expect(graceEnds(failed, amount, unit)).toBe(expected);
  });
});

describe("term memberships: charges left and the break fee", () => {
  // A 6-month weekly term from Monday 5 January 2026: it ends 5 July 2026.
  const term = { anchor: "2026-01-05", ends: "2026-07-05", coolingEnds: "2026-01-12" };
  const weekly = { amount: 1_299, frequency: "weekly" as BillingFrequency };

  it.each<[string, number]>([
    ["2026-01-05", 25], // cancelled on the first billing day: the 26 periods less the one charged today
    ["2026-06-28", 1], // the last period starts on Monday 29 June
    ["2026-06-29", 0], // and has been charged
    ["2026-07-05", 0],
  ])("cancelled %s: %i charges left", (cancelled, n) => {
    expect(chargesLeft(term.anchor, "weekly", term.ends, cancelled)).toBe(n);
  });

  it("charges the percentage of the remaining value, half up, after the cooling-off window only", () => {
    // Cancelled 2 March: periods from 9 March to 29 June, 17 charges × $12.99 = $220.83; 25 % = 55.2075 → $55.21.
    expect(chargesLeft(term.anchor, "weekly", term.ends, "2026-03-02")).toBe(17);
    expect(breakFee(weekly, term, "2026-03-02", 25)).toBe(5_521);
    expect(breakFee(weekly, term, "2026-01-11", 25)).toBe(0); // within cooling-off
    expect(breakFee(weekly, term, "2026-03-02", null)).toBe(0); // the gym charges none
    // A year's monthly term from 31 January, cancelled on its 30 November billing day: 31 December is left.
    expect(breakFee({ amount: 7_900, frequency: "monthly" }, { anchor: "2026-01-31", ends: "2027-01-31", coolingEnds: null }, "2026-11-30", 50)).toBe(3_950);
  });
});
