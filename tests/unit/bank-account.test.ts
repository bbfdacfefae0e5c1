import { stdnum } from "stdnum";
import { describe, expect, it } from "vitest";
import { parseNzAccount } from "../../domain/bank-account";

describe("New Zealand bank account numbers", () => {
  it.each([
    ["12-3140-0171323-50", "12-3140-0171323-50"],
    ["12 3140 0171323 050", "12-3140-0171323-050"],
    ["123140017132350", "12-3140-0171323-50"],
  ])("%s is %s", (input, formatted) => {
    const parsed = parseNzAccount(input);
    expect(parsed.ok && parsed.account.formatted).toBe(formatted);
  });

  it.each(["12-3140-0171324-50", "99-3140-0171323-50", "12-3140-017132-50", "12-314-0171323-50", "abc", ""])("refuses %s", (input) => {
    expect(parseNzAccount(input).ok).toBe(false);
  });

  it("takes the numbers the end-to-end tests use for the sandbox's behaviours", () => {
    // Account parts ending 1234 (pays) and 9995 (insufficient funds: server/core/providers/sandbox-accounts.ts).
    expect(parseNzAccount("12-3140-0071234-00").ok).toBe(true);
    expect(parseNzAccount("12-3140-0089995-00").ok).toBe(true);
    expect(stdnum.NZ.bank.validate("12-3140-0089995-00").isValid).toBe(true);
  });
});
