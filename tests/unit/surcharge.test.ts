import { describe, expect, it } from "vitest";
import { formatSurcharge, surchargeFor, type PaymentTypeKind } from "../../domain/surcharge";

describe("surchargeFor: a card's percentage, half up, plus the fixed part", () => {
  it.each<[number, PaymentTypeKind, number, number, number]>([
    // amount, kind, basis points, fixed → surcharge
    [10_000, "stripe_card", 150, 0, 150],
    [1_999, "stripe_card", 150, 0, 30], // 29.985 → 30
    [1_990, "stripe_card", 150, 0, 30], // 29.85 → 30
    [1_000, "stripe_card", 125, 0, 13], // 12.5 → 13: half up
    [999, "stripe_card", 125, 0, 12], // 12.4875 → 12
    [7_900, "stripe_card", 175, 30, 168], // 138.25 → 138, + 30
    [7_900, "stripe_card", 0, 50, 50],
    [7_900, "gocardless_bank_account", 175, 30, 0], // direct debit carries none
    [7_900, "bank_account", 175, 30, 0],
    [0, "stripe_card", 175, 30, 0], // nothing to pay, nothing added
  ])("%i cents by %s at %i bp + %i → %i", (amount, kind, basisPoints, fixed, expected) => {
    expect(surchargeFor(amount, kind, { basisPoints, fixed })).toBe(expected);
  });

  it("refuses amounts that are not cents", () => {
    expect(() => surchargeFor(10.5, "stripe_card", { basisPoints: 150, fixed: 0 })).toThrow(RangeError);
    expect(() => surchargeFor(-1, "stripe_card", { basisPoints: 150, fixed: 0 })).toThrow(RangeError);
  });
});

describe("formatSurcharge", () => {
  it.each([
    [150, 30, "1.5% + $0.30"],
    [200, 0, "2%"],
    [175, 0, "1.75%"],
    [0, 50, "$0.50"],
    [0, 0, null],
  ])("%i bp + %i → %s", (basisPoints, fixed, expected) => {
    expect(formatSurcharge({ basisPoints, fixed })).toBe(expected);
  });
});
