import { describe, expect, it } from "vitest";
import { bankPaymentTimeline } from "../../domain/bank-payment";
import { addBusinessDays, isBusinessDay, onOrAfterBusinessDay } from "../../domain/business-days";
import { startOfLocalDay } from "../../domain/dates";
import { chargeDateFor, directDebitTimeline, earliestChargeDate, statusAt } from "../../domain/direct-debit";
import { declineKind } from "../../domain/failures";
import { accountLastFour, sandboxAccountBehaviour } from "../../server/core/providers/sandbox-accounts";

/** `hour` o'clock Auckland time on `day`. */
const at = (day: string, hour: number) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);

describe("New Zealand business days", () => {
  it.each([
    ["2026-11-23", true, "a Monday"],
    ["2026-11-28", false, "a Saturday"],
    ["2026-11-29", false, "a Sunday"],
    ["2026-12-25", false, "Christmas Day"],
    ["2026-12-28", false, "Boxing Day, Mondayised (26 December is a Saturday)"],
    ["2027-01-01", false, "New Year's Day"],
    ["2027-01-04", false, "the day after New Year's Day, Mondayised"],
    ["2026-02-06", false, "Waitangi Day"],
    ["2026-04-03", false, "Good Friday"],
    ["2026-04-06", false, "Easter Monday"],
    ["2026-04-27", false, "Anzac Day, Mondayised"],
    ["2026-06-01", false, "King's Birthday"],
    ["2026-07-10", false, "Matariki"],
    ["2026-10-26", false, "Labour Day"],
    ["2026-01-26", true, "Auckland Anniversary Day: regional, the banks open"],
  ])("%s is a business day: %s (%s)", (day, expected) => {
    expect(isBusinessDay(day)).toBe(expected);
  });

  it.each([
    ["2026-11-23", 0, "2026-11-23"],
    ["2026-11-28", 0, "2026-11-30"],
    ["2026-11-27", 1, "2026-11-30"],
    ["2026-12-24", 1, "2026-12-29"],
    ["2026-12-24", 3, "2026-12-31"],
    ["2026-12-24", 4, "2027-01-05"],
    ["2026-04-02", 1, "2026-04-07"],
  ])("%s plus %i business days is %s", (day, n, expected) => {
    expect(addBusinessDays(day, n)).toBe(expected);
  });

  it("refuses a negative count, and names the next business day", () => {
    expect(() => addBusinessDays("2026-11-23", -1)).toThrow(RangeError);
    expect(onOrAfterBusinessDay("2026-12-25")).toBe("2026-12-29");
  });
});

describe("a direct debit's BECS NZ timeline", () => {
  it.each([
    ["Monday morning: two business days on", at("2026-11-23", 10), "2026-11-25"],
    ["Monday before the 5 pm deadline", at("2026-11-23", 16.9), "2026-11-25"],
    ["Monday at 5 pm: from the next business day", at("2026-11-23", 17), "2026-11-26"],
    ["a Friday: over the weekend", at("2026-11-27", 10), "2026-12-01"],
    ["a Saturday: from Monday", at("2026-11-28", 10), "2026-12-02"],
    ["Christmas Eve: past Christmas and Mondayised Boxing Day", at("2026-12-24", 10), "2026-12-30"],
  ])("made %s, is charged at the earliest on the day expected", (_what, created, expected) => {
    expect(earliestChargeDate(created)).toBe(expected);
  });

  it("keeps a charge date asked for if it can be met, on a business day", () => {
    expect(chargeDateFor(at("2026-11-23", 10), "2026-12-01")).toBe("2026-12-01");
    expect(chargeDateFor(at("2026-11-23", 10), "2026-11-28")).toBe("2026-11-30");
    expect(chargeDateFor(at("2026-11-23", 10), "2026-11-23")).toBe("2026-11-25");
    expect(chargeDateFor(at("2026-11-23", 10), null)).toBe("2026-11-25");
  });

  it("is submitted on the charge date, confirmed three business days on and paid out on the fourth, or fails the next business day", () => {
    const created = at("2026-11-23", 10);
    const paid = directDebitTimeline(created, "2026-11-25", "paid");
    expect(paid.map((e) => [e.status, e.at.toISOString()])).toEqual([
      ["pending_submission", created.toISOString()],
      ["submitted", at("2026-11-25", 6).toISOString()],
      ["confirmed", at("2026-11-30", 6).toISOString()],
      ["paid_out", at("2026-12-01", 6).toISOString()],
    ]);
    expect([statusAt(paid, at("2026-11-24", 12)), statusAt(paid, at("2026-11-27", 12)), statusAt(paid, at("2026-11-30", 7))]).toEqual(["pending_submission", "submitted", "confirmed"]);
    const failed = directDebitTimeline(created, "2026-11-25", "failed");
    expect(failed.at(-1)).toEqual({ status: "failed", at: at("2026-11-26", 6) });
  });
});

describe("a bank payment's timeline (the sandbox Akahu)", () => {
  it("is sent or declined two minutes after it is made, or a day later when the member must approve it", () => {
    const created = at("2026-11-23", 10);
    expect(bankPaymentTimeline(created, "sent").map((e) => [e.status, e.at.getTime() - created.getTime()])).toEqual([
      ["READY", 0],
      ["SENT", 120_000],
    ]);
    expect(bankPaymentTimeline(created, "declined").at(-1)!.status).toBe("DECLINED");
    expect(bankPaymentTimeline(created, "approval").map((e) => e.status)).toEqual(["PENDING_APPROVAL", "SENT"]);
  });
});

describe("the sandboxes' test bank accounts", () => {
  it.each([
    ["12-3456-0009995-00", "9995", "insufficient_funds"],
    ["12-3456-0009995-000", "9995", "insufficient_funds"],
    ["123456000999500", "9995", "insufficient_funds"],
    ["01-0123-0000002-01", "0002", "refused"],
    ["01-0123-0009987-01", "9987", "closed"],
    ["01-0123-0009979-01", "9979", "authority_cancelled"],
    ["01-0123-0004000-01", "4000", "needs_approval"],
    ["01-0123-0456789-01", "6789", "pays"],
    ["not a number", null, "pays"],
  ])("%s ends in %s: %s", (account, lastFour, behaviour) => {
    expect(accountLastFour(account)).toBe(lastFour);
    expect(sandboxAccountBehaviour(account)).toBe(behaviour);
  });

  it("sorts the providers' codes into declines worth retrying and declines that need the member", () => {
    expect(["insufficient_funds", "refer_to_payer", "bank_error", "provider_refused"].map(declineKind)).toEqual(["soft", "soft", "soft", "soft"]);
    expect(["mandate_cancelled", "bank_account_closed", "invalid_account", "authentication_failed", "no_bank_connection", "no_mandate"].map(declineKind)).toEqual([
      "hard",
      "hard",
      "hard",
      "hard",
      "hard",
      "hard",
    ]);
  });
});
