import { describe, expect, it } from "vitest";
import { guessDateOrder, guessMapping, mappingProblem, parseDate, readRow, type Reading } from "../../domain/imports";

/** How a member file is read (domain/imports.ts; IMPORTS.md): headers, dates, and one row. */
describe("reading a member file", () => {
  it("matches headers the way common exports write them", () => {
    expect(guessMapping(["firstName", "lastName", "Membership Title", "guardianEmail", "email"])).toEqual(["first_name", "last_name", "plan", "ignore", "email"]);
    expect(guessMapping(["first_name", "last_name", "mobile_phone", "birth_date", "postal_code", "address_line_1"])).toEqual(["first_name", "last_name", "mobile_number", "dob", "post_code", "address"]);
    // A field is taken by its first column only.
    expect(guessMapping(["Email", "E-mail"])).toEqual(["email", "ignore"]);
    expect(mappingProblem(["email", "email"])).toBe("E-mail is chosen for two columns");
    expect(mappingProblem(["name", "ignore"])).toBe("Choose the column that holds the e-mail address");
  });

  it("reads dates day-first unless the file proves otherwise, and refuses impossible ones", () => {
    expect(guessDateOrder(["05/06/1985", "01/02/1990"])).toBe("dmy");
    expect(guessDateOrder(["12/31/1990", "01/02/1990"])).toBe("mdy");
    expect(guessDateOrder(["1990-12-31"])).toBe("ymd");
    expect(parseDate("31-12-1990", "dmy")).toBe("1990-12-31");
    expect(parseDate("12/31/1990", "mdy")).toBe("1990-12-31");
    expect(parseDate("1990-12-31T00:00:00Z", "dmy")).toBe("1990-12-31");
    expect(parseDate("31/02/1990", "dmy")).toBeNull();
    expect(parseDate("1/2/05", "dmy")).toBe("2005-02-01");
    expect(parseDate("soon", "dmy")).toBeNull();
  });

  it("makes a member of a row, or says why not", () => {
    const reading: Reading = { mapping: ["first_name", "last_name", "email", "dob", "plan", "tags"], dateOrder: "dmy", plans: { Gold: 7, Casual: 0 }, today: "2026-11-24" };
    const ok = readRow(["ana", "o'neil", " Ana@Example.com ", "31/12/1990", "Gold", "early birds; yoga"], reading);
    expect(ok).toEqual({ ok: true, member: expect.objectContaining({ name: "Ana O'Neil", email: "ana@example.com", dob: "1990-12-31", price_id: 7, tags: ["early birds", "yoga"] }) });
    expect(readRow(["McKenzie", "DE VRIES", "m@example.com", "", "Casual", ""], reading)).toEqual({ ok: true, member: expect.objectContaining({ name: "McKenzie De Vries", price_id: null }) });
    expect(readRow(["A", "B", "", "", "", ""], reading)).toEqual({ ok: false, reason: "No e-mail address" });
    expect(readRow(["", "", "x@example.com", "", "", ""], reading)).toEqual({ ok: false, reason: "No name" });
    expect(readRow(["A", "B", "x@example.com", "01/01/2030", "", ""], reading)).toEqual({ ok: false, reason: "Date of birth is not believable: 01/01/2030" });
    expect(readRow(["A", "B", "x@example.com", "", "Platinum", ""], reading)).toEqual({ ok: false, reason: "Unknown price: Platinum" });
  });
});
