import { describe, expect, it } from "vitest";
import { dateWriters } from "../../domain/date-writers";
import { withDateTexts } from "../../domain/date-texts";
import { receiptRows, type ReceiptFacts } from "../../domain/receipt";

/** The receipt's lines (issue 31): the page and the e-mail read the same list. */
const base: ReceiptFacts = {
  amount: 1_999,
  surcharge: 30,
  total: 2_029,
  joining_fee: 0,
  is_pro_rata: false,
  period_start_at: "2026-11-29T11:00:00.000Z",
  period_end_at: "2026-12-06T11:00:00.000Z",
  paid_at: "2026-11-29T20:30:00.000Z",
  method: "VISA ending 4242, expires 12/2030",
  adjustments: [],
};
const rows = (r: ReceiptFacts) => Object.fromEntries(receiptRows(r, dateWriters(withDateTexts(r).dateTexts)));

describe("receiptRows", () => {
  it("says the period, the amounts in dollars and how it was paid, in Auckland dates", () => {
    expect(rows(base)).toEqual({
      "Paid on": "30 Nov 2026, 9:30 AM",
      For: "Membership, 30 Nov – 7 Dec 2026",
      Amount: "$19.99",
      "Card surcharge": "$0.30",
      "Total paid": "$20.29",
      "Paid with": "VISA ending 4242, expires 12/2030",
    });
  });

  it("a paid-in-full membership without an end says where it starts, not a period of no days", () => {
    expect(rows({ ...base, surcharge: 0, period_end_at: base.period_start_at, method: "Paid at the gym (cash)" }).For).toBe("Membership from 30 Nov 2026");
  });
});
