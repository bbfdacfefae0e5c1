import { formatCents } from "../../../domain/money";
import { useDates } from "../../lib/date-texts";
import { MemberFrame } from "./member-frame";

export interface ReceiptData {
  number: string;
  organisation: string;
  gym: string;
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

/** A receipt for one payment that went through: a page that prints on its own (the frame's links hide in print). */
export function ReceiptPage({ receipt: r }: { receipt: ReceiptData }) {
  const dates = useDates();
  const Row = ({ label, value }: { label: string; value: string }) => (
    <div className="flex justify-between gap-4 py-1.5">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
  return (
    <MemberFrame title={`Receipt ${r.number}`} gym={r.gym}>
      <section className="rounded-lg border border-slate-200 bg-white p-6 text-sm print:border-0 print:p-0">
        <p className="font-semibold text-slate-900">{r.organisation}</p>
        <p className="text-slate-600">{r.gym}</p>
        <dl className="mt-4 divide-y divide-slate-100">
          <Row label="Paid on" value={r.paid_at ? dates.dateTime(r.paid_at) : "—"} />
          <Row
            label="For"
            value={
              r.period_start_at && r.period_end_at
                ? `Membership, ${dates.range(r.period_start_at, r.period_end_at)}${r.is_pro_rata ? " (part period)" : ""}`
                : "Membership"
            }
          />
          {r.joining_fee ? <Row label="Joining fee" value={formatCents(r.joining_fee)} /> : null}
          <Row label="Amount" value={formatCents(r.amount)} />
          {r.surcharge ? <Row label="Card surcharge" value={formatCents(r.surcharge)} /> : null}
          <Row label="Total paid" value={formatCents(r.total)} />
          <Row label="Paid with" value={r.method ?? "—"} />
          {r.adjustments.map((a) => (
            <Row key={a.id} label="Since" value={a.in_words} />
          ))}
        </dl>
      </section>
    </MemberFrame>
  );
}
