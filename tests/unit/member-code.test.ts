import { describe, expect, it } from "vitest";
import { formatMemberCode, readMemberCode } from "../../domain/member-code";

describe("member codes", () => {
  it.each([
    ["K7QF3M9P", "K7QF3M9P"],
    ["k7qf-3m9p", "K7QF3M9P"],
    [" K7QF 3M9P ", "K7QF3M9P"],
    // Crockford's reading: O is zero, I and L are one.
    ["KOQF3MIL", "K0QF3M11"],
  ])("reads %j as %s", (typed, code) => expect(readMemberCode(typed)).toBe(code));

  it.each(["", "K7QF3M9", "K7QF3M9PX", "K7QF3M9U", "Morgan", "K7QF_3M9P"])("refuses %j", (typed) => expect(readMemberCode(typed)).toBeNull());

  it("writes a code in two groups", () => expect(formatMemberCode("K7QF3M9P")).toBe("K7QF-3M9P"));
});
