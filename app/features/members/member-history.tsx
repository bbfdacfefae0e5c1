import { Link } from "@remix-run/react";
import { FREQUENCY_LABELS, type BillingFrequency } from "../../../domain/billing";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import type { Credential, PaymentsPage, PriceChange, VisitsPage } from "./detail-types";

const OUTCOME = {
  successful: { label: "Successful", className: "bg-green-100 text-green-800" },
  not_failed: { label: "Pending", className: "bg-slate-100 text-slate-800" },
  failed: { label: "Failed", className: "bg-red-100 text-red-800" },
} as const;

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white">
      <h2 id={id} className="border-b border-slate-200 px-4 py-3 font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const th = "px-3 py-2 text-left font-semibold";
const td = "px-3 py-2 text-slate-800";

function Pager({ meta, param, params, anchor }: { meta: PaymentsPage["meta"]; param: string; params: URLSearchParams; anchor: string }) {
  if (meta.pages <= 1) return null;
  const to = (page: number) => {
    const next = new URLSearchParams(params);
    next.set(param, String(page));
    return `?${next}#${anchor}`;
  };
  return (
    <nav aria-label={`${anchor} pages`} className="flex items-center justify-between px-4 py-2 text-sm">
      <span className="text-slate-700">
        Page {meta.page} of {meta.pages}
      </span>
      <span className="flex gap-3">
        {meta.page > 1 ? <Link to={to(meta.page - 1)} className="font-medium text-brand-700 hover:underline">Newer</Link> : null}
        {meta.page < meta.pages ? <Link to={to(meta.page + 1)} className="font-medium text-brand-700 hover:underline">Older</Link> : null}
      </span>
    </nav>
  );
}

/** The payment's own status word, when it says more than its outcome badge ("pending request", not "sent"). */
function statusDetail(p: PaymentsPage["data"][number]) {
  const words = p.status.replace(/_/g, " ");
  return p.status === "sent" || words === OUTCOME[p.outcome].label.toLowerCase() ? null : words;
}

function paymentNotes(p: PaymentsPage["data"][number]) {
  return [p.is_retry ? "Retry" : null, p.is_pro_rata ? "Pro rata" : null, p.pif_payment ? `Paid in full (${p.pif_payment.replace("_", " ")})` : null, p.error_description]
    .filter(Boolean)
    .join(" · ");
}

/**
 * Every column fits in the member page's wide column at 1280 px: a surcharge shows under its amount rather
 * than in a column of dashes, periods say their month and year once, the status word shows under its badge
 * only when it adds something, and notes wrap. On a phone each payment is a card (stack-table,
 * app/tailwind.css) that leaves out empty notes.
 */
export function PaymentsTable({ payments, params, memberId }: { payments: PaymentsPage; params: URLSearchParams; memberId: number }) {
  const dates = useDates();
  return (
    <Section id="payments" title={`Payments (${payments.meta.total})`}>
      {payments.data.length === 0 ? (
        <p className="p-4 text-sm text-slate-700">No payments yet.</p>
      ) : (
        // Focusable, so keyboard users can scroll it should a table ever be wider than the screen.
        <div className="overflow-x-auto" tabIndex={0} role="group" aria-label="Payments table">
          <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className={th}>Date</th>
                <th scope="col" className={th}>Amount</th>
                <th scope="col" className={th}>Period</th>
                <th scope="col" className={th}>Status</th>
                <th scope="col" className={th}>Notes</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {payments.data.map((p) => {
                const detail = statusDetail(p);
                const notes = paymentNotes(p);
                return (
                  <tr key={p.id}>
                    <td data-label="Date" data-title="" className={`${td} whitespace-nowrap font-medium md:font-normal`}>
                      {p.created_at ? dates.date(p.created_at) : "—"}
                    </td>
                    <td data-label="Amount" className={td}>
                      <span>
                        <span className="block whitespace-nowrap">{formatCents(p.amount)}</span>
                        {p.surcharge ? <span className="block whitespace-nowrap text-xs text-slate-600">+ {formatCents(p.surcharge)} surcharge</span> : null}
                        {p.adjustments.map((a) => (
                          <span key={a.id} className={`block whitespace-nowrap text-xs ${a.status === "failed" || a.status === "won" ? "text-slate-600" : "font-medium text-amber-800"}`}>
                            {a.in_words}
                          </span>
                        ))}
                        {p.can_refund && p.refundable > 0 && !p.refund_blocked ? (
                          <Link to={`/members/${memberId}/refunds/${p.id}`} className="block text-xs font-medium text-brand-700 hover:underline">
                            Refund<span className="sr-only"> the payment of {formatCents(p.amount + p.surcharge)}</span>
                          </Link>
                        ) : null}
                      </span>
                    </td>
                    <td data-label="Period" className={`${td} whitespace-nowrap`}>
                      {p.period_start_at && p.period_end_at ? dates.range(p.period_start_at, p.period_end_at) : "—"}
                    </td>
                    <td data-label="Status" className={td}>
                      <span>
                        <span className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${OUTCOME[p.outcome].className}`}>
                          {OUTCOME[p.outcome].label}
                        </span>
                        {detail ? <span className="block whitespace-nowrap text-xs text-slate-600">{detail}</span> : null}
                      </span>
                    </td>
                    <td data-label="Notes" data-empty={notes ? undefined : ""} className={`${td} min-w-[8rem]`}>
                      {notes || "—"}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager meta={payments.meta} param="payments_page" params={params} anchor="payments" />
    </Section>
  );
}

export function VisitsTable({ visits, params }: { visits: VisitsPage; params: URLSearchParams }) {
  const dates = useDates();
  return (
    <Section id="visits" title={`Visits (${visits.meta.total})`}>
      {visits.data.length === 0 ? (
        <p className="p-4 text-sm text-slate-700">No visits yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {visits.data.map((v) => (
            <li key={v.id} className="flex justify-between gap-3 px-4 py-2 text-sm">
              <span className="text-slate-800">{v.visited_at ? dates.dateTime(v.visited_at) : "—"}</span>
              <span className="text-slate-600">{v.gym.name}</span>
              <span className={v.successful ? "text-green-800" : "font-medium text-red-800"}>{v.successful ? "Entered" : "Refused at the door"}</span>
            </li>
          ))}
        </ul>
      )}
      <Pager meta={visits.meta} param="visits_page" params={params} anchor="visits" />
    </Section>
  );
}

export function CredentialsList({ credentials }: { credentials: Credential[] }) {
  const dates = useDates();
  return (
    <Section id="credentials" title="Door access">
      {credentials.length === 0 ? (
        <p className="p-4 text-sm text-slate-700">No door credentials.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {credentials.map((c) => (
            <li key={c.id} className="px-4 py-2 text-sm text-slate-800">
              <span className="font-medium capitalize">{c.kind}</span>
              {c.identifier_hint ? ` ending ${c.identifier_hint}` : ""} · {c.provider} · <span className="capitalize">{c.status}</span>
              {c.gym ? ` · ${c.gym.name}` : ""}
              <span className="block text-xs text-slate-600">
                Issued {c.issued_at ? dates.date(c.issued_at) : "—"}
                {c.last_used_at ? `, last used ${dates.dateTime(c.last_used_at)}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

const STATUS_TEXT = { scheduled: "Scheduled", applied: "Applied", called_off: "Called off" } as const;
const priceWords = (p: { amount: number; billing_frequency: string | null }) =>
  `${formatCents(p.amount)}${p.billing_frequency ? ` ${FREQUENCY_LABELS[p.billing_frequency as BillingFrequency] ?? p.billing_frequency}` : ""}`;

export function PriceChanges({ changes }: { changes: PriceChange[] }) {
  const dates = useDates();
  return (
    <Section id="price-changes" title="Price changes">
      {changes.length === 0 ? (
        <p className="p-4 text-sm text-slate-700">No price changes.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {changes.map((c) => (
            <li key={c.id} className="px-4 py-2 text-sm text-slate-800">
              {c.from ? `${priceWords(c.from)} → ` : ""}
              <span className="font-medium">{priceWords(c.to)}</span> ({c.to.offering}) · {STATUS_TEXT[c.status as keyof typeof STATUS_TEXT]}
              <span className="block text-xs text-slate-600">
                {c.takes_effect_at ? `Takes effect ${dates.date(c.takes_effect_at)} · ` : ""}
                Made {c.created_at ? dates.date(c.created_at) : "—"}
                {c.changed_by ? ` by ${c.changed_by}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
