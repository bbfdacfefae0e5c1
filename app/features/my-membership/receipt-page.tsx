import { receiptRows, type ReceiptFacts } from "../../../domain/receipt";
import { useDates } from "../../lib/date-texts";
import { MemberFrame } from "./member-frame";

export interface ReceiptData extends ReceiptFacts {
  number: string;
  organisation: string;
  gym: string;
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
          {receiptRows(r, dates).map(([label, value], i) => (
            <Row key={i} label={label} value={value} />
          ))}
        </dl>
      </section>
    </MemberFrame>
  );
}
