import { describe, expect, it } from "vitest";
import { guessDateOrder, guessMapping, guessPlanPrice, mappingProblem, parseDate, readRow, readState, type Reading } from "../../domain/imports";

/** How a member file is read (domain/imports.ts; IMPORTS.md): headers, dates, and one row. */
describe("reading a member file", () => {
  it("matches headers the way common exports write them", () => {
    expect(guessMapping(["firstName", "lastName", "Membership Title", "guardianEmail", "email"])).toEqual(["first_name", "last_name", "plan", "ignore", "email"]);
    expect(guessMapping(["first_name", "last_name", "mobile_phone", "birth_date", "postal_code", "address_line_1"])).toEqual(["first_name", "last_name", "mobile_number", "dob", "post_code", "address"]);
    // The joining day and the status, as other systems name them.
    expect(guessMapping(["Email", "Membership Start Date", "Membership Status"])).toEqual(["email", "joined_on", "status"]);
    expect(guessMapping(["member_status", "start_date", "State"])).toEqual(["status", "joined_on", "ignore"]);
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

  it("reads a status as one of our states, and knows when it cannot", () => {
    for (const [text, state] of [
      ["ACTIVE", "active"],
      ["Current", "active"],
      ["FROZEN", "paused"],
      ["On Hold", "paused"],
      ["on_hold", "paused"],
      ["Suspended", "paused"],
      ["CANCELLED", "cancelled"],
      ["Canceled", "cancelled"],
      ["inactive", "cancelled"],
      ["Expired", "cancelled"],
      ["no_membership", "cancelled"],
    ] as const) {
      expect(readState(text), text).toBe(state);
    }
    for (const text of ["Pending", "lead", "", "Trial"]) expect(readState(text), text).toBeNull();
    const reading: Reading = { mapping: ["email", "name", "plan", "status"], dateOrder: "dmy", plans: { Gold: 7 }, today: "2026-11-24" };
    expect(readRow(["a@example.com", "A", "Gold", "FROZEN"], reading)).toEqual({ ok: true, member: expect.objectContaining({ state: "paused", price_id: 7, tags: ["imported as paused"] }) });
    // A cancelled member joins on no price: their plan, known or not, is not asked about.
    expect(readRow(["a@example.com", "A", "Platinum", "Cancelled"], reading)).toEqual({ ok: true, member: expect.objectContaining({ state: "cancelled", price_id: null, tags: ["imported as cancelled"] }) });
    expect(readRow(["a@example.com", "A", "Gold", "Pending"], reading)).toEqual({ ok: false, reason: "Unknown membership status: Pending (use Active, Frozen or Cancelled)" });
    expect(readRow(["a@example.com", "A", "Gold", ""], reading)).toEqual({ ok: false, reason: "No membership status" });
    // Without a status column every member is active, as before.
    expect(readRow(["a@example.com", "A", "Gold"], { ...reading, mapping: ["email", "name", "plan"] })).toEqual({ ok: true, member: expect.objectContaining({ state: "active", tags: [] }) });
  });

  it("guesses the price a plan name is, only when one fits", () => {
    const prices = [
      { id: 1, offering: "Anytime", amount: 2500, billing_frequency: "weekly" },
      { id: 2, offering: "Anytime", amount: 9000, billing_frequency: "monthly" },
      { id: 3, offering: "Off Peak", amount: 1800, billing_frequency: "weekly" },
      { id: 4, offering: "Student Saver", amount: 1500, billing_frequency: "weekly" },
      { id: 5, offering: "Gold", amount: 3000, billing_frequency: "weekly" },
    ];
    expect(guessPlanPrice("Off Peak", prices)).toBe(3);
    expect(guessPlanPrice("OFF-PEAK MEMBERSHIP", prices)).toBe(3);
    expect(guessPlanPrice("Anytime Weekly", prices)).toBe(1);
    expect(guessPlanPrice("Anytime $90", prices)).toBe(2);
    expect(guessPlanPrice("Student Savr", prices)).toBe(4);
    expect(guessPlanPrice("no_membership", prices)).toBe(0);
    // Two prices and nothing to choose between them; a different short word; nothing like it.
    expect(guessPlanPrice("Anytime", prices)).toBeNull();
    expect(guessPlanPrice("Good", prices)).toBeNull();
    expect(guessPlanPrice("Platinum", prices)).toBeNull();
    expect(guessPlanPrice("Off Peak Monthly", prices)).toBeNull();
  });
});
