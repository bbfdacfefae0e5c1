import { describe, expect, it } from "vitest";
import { csvText, safe } from "../../server/core/csv";

/** Issue 29 M2: every cell a spreadsheet would read as a formula is neutralised, in the one CSV writer. */
describe("CSV cells (OWASP CSV injection)", () => {
  it("neutralises every formula start, the forms the probe found live included", () => {
    for (const v of ["=1+1", "+1", "-1+2", "-1+", "+(1)", "+(", "- x", "-x", "@SUM(A1)", "\t=1", "\r=1", "\n=1", " =1+1", "\u00a0-1+1", "＝1+1", "+64 21 555 0100", "-", "+"]) {
      expect(safe(v), JSON.stringify(v)).toBe(`'${v}`);
    }
  });

  it("leaves plain text and plain numbers (negative amounts included) as they are", () => {
    for (const v of ["Ana Smith", "021 555 0100", "12.50", "-12.50", "0", "-3", "", "a=b", "x-1+2"]) expect(safe(v), v).toBe(v);
  });

  it("is what csvText writes: quoted where CSV needs it, neutralised first", () => {
    expect(csvText([["Name", "Amount"], ["-1+2", "-12.50"], ['=HYPERLINK("http://x")', "1"]])).toBe(`Name,Amount\n'-1+2,-12.50\n"'=HYPERLINK(""http://x"")",1\n`);
  });
});
