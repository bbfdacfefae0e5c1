import type { dateWriters } from "./date-writers";
import { formatCents } from "./money";

/**
 * A receipt's lines (issue 31), one list for both faces: the member's receipt page and the receipt e-mail. Dates
 * come from the writers over the server's Auckland texts (domain/date-writers.ts), so both say the same words.
 */
export interface ReceiptFacts {
  amount: number;
  surcharge: number;
  total: number;
  joining_fee: number;
  is_pro_rata: boolean;
  period_start_at: string | null;
  period_end_at: string | null;
  paid_at: string | null;
  method: string | null;
  adjustments: { id: number; in_words: string }[];
}

export function receiptRows(r: ReceiptFacts, dates: Pick<ReturnType<typeof dateWriters>, "date" | "dateTime" | "range">): [string, string][] {
  return [
    ["Paid on", r.paid_at ? dates.dateTime(r.paid_at) : "—"],
    [
      "For",
      r.period_start_at && r.period_end_at && new Date(r.period_end_at) > new Date(r.period_start_at)
        ? `Membership, ${dates.range(r.period_start_at, r.period_end_at)}${r.is_pro_rata ? " (part period)" : ""}`
        : // Paid in full without an end: its period starts and never ends.
        r.period_start_at
        ? `Membership from ${dates.date(r.period_start_at)}`
        : "Membership",
    ],
    ...(r.joining_fee ? [["Joining fee", formatCents(r.joining_fee)] as [string, string]] : []),
    ["Amount", formatCents(r.amount)],
    ...(r.surcharge ? [["Card surcharge", formatCents(r.surcharge)] as [string, string]] : []),
    ["Total paid", formatCents(r.total)],
    ["Paid with", r.method ?? "—"],
    ...r.adjustments.map((a): [string, string] => ["Since", a.in_words]),
  ];
}
