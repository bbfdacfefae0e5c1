import { Link } from "@remix-run/react";
import { formatCents } from "../../../domain/money";
import { gettingInWords, type MemberDoor } from "../../../domain/welcome-words";
import { useDates } from "../../lib/date-texts";
import { StatusCard } from "../members/status-card";
import type { StatusCardData } from "../members/detail-types";
import { MemberFrame } from "./member-frame";
import { paymentPurpose } from "../../../domain/payment-purpose";

type Payment = {
  id: number;
  amount: number;
  surcharge: number;
  status: string;
  outcome: "successful" | "not_failed" | "failed";
  period_start_at: string | null;
  period_end_at: string | null;
  type: string | null;
  created_at: string | null;
  error_description: string | null;
  adjustments: { id: number; in_words: string }[];
};

export interface MyMembershipData {
  name: string;
  member_code: string;
  qr: string;
  gym: { id: number; name: string } | null;
  organisation: string;
  membership: StatusCardData;
  owing: { total: number; periods: { payment_id: number; amount: number; period_start_at: string | null; period_end_at: string | null; why: string }[] };
  door: MemberDoor;
  payment_method: { kind: "card" | "bank"; text: string } | null;
  payments: { data: Payment[]; meta: { page: number; pages: number; total: number } };
  actions: {
    pause: { offered: boolean; allowed: boolean; days_left: number };
    cancel: { offered: boolean; allowed: boolean; notice_days: number };
    undo: { allowed: boolean; scheduled: boolean };
  };
}

const OUTCOME = { successful: "Paid", not_failed: "In progress", failed: "Failed" } as const;
const OUTCOME_CLASS = {
  successful: "bg-green-50 text-green-800 ring-green-600/20",
  not_failed: "bg-amber-50 text-amber-800 ring-amber-600/20",
  failed: "bg-red-50 text-red-800 ring-red-600/20",
} as const;

/** "My membership" (issue 31): the status card staff see, what is owed and why, the door, how they pay, and every payment. */
export function MyMembershipPage({ data: d }: { data: MyMembershipData }) {
  const dates = useDates();
  const period = (from: string | null, to: string | null) => (from && to ? dates.range(from, to) : from ? dates.date(from) : "—");
  return (
    <MemberFrame title={`Hi ${d.name.split(" ")[0]}`} gym={d.gym?.name}>
      <p className="text-sm text-slate-600">
        Your membership with {d.organisation}
        {d.gym ? `, at ${d.gym.name}` : ""}.{" "}
        <Link to="/membership/details" className="font-medium text-brand-700 underline">
          Your details
        </Link>{" "}
        ·{" "}
        <Link to="/membership/messages" className="font-medium text-brand-700 underline">
          Messages
        </Link>
        ·{" "}
        <Link to="/membership/classes" className="font-medium text-brand-700 underline">
          Classes
        </Link>
      </p>
      <StatusCard subscription={d.membership} />

      {d.owing.total > 0 ? (
        <section aria-labelledby="owing-heading" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <h2 id="owing-heading" className="font-semibold">
            {formatCents(d.owing.total)} is owing
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {d.owing.periods.map((p) => (
              <li key={p.payment_id}>
                {formatCents(p.amount)} for {period(p.period_start_at, p.period_end_at)}: {p.why}
              </li>
            ))}
          </ul>
          <p className="mt-3">
            <Link to="/membership/payment" className="font-semibold text-red-900 underline">
              Pay what is owing now
            </Link>
          </p>
        </section>
      ) : null}

      <section aria-labelledby="door-heading" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="door-heading" className="font-semibold text-slate-900">
          Getting in
        </h2>
        <p className="mt-1 text-slate-700" data-testid="getting-in">
          {gettingInWords(d.door)}
        </p>
        <div className="mt-3 flex items-center gap-4">
          {/* Drawn on the server (app/lib/qr.server.ts): markup of our own making, no member text in it but the code. */}
          <div className="h-28 w-28 shrink-0" dangerouslySetInnerHTML={{ __html: d.qr }} />
          <p className="text-slate-700">
            Your member code: <strong className="font-mono text-lg tracking-wider text-slate-900">{d.member_code}</strong>
            <br />
            Show it at the front desk, or type it at the check-in kiosk.
          </p>
        </div>
        <h2 className="mt-4 font-semibold text-slate-900">How you pay</h2>
        <p className="mt-1 text-slate-700">
          {d.payment_method ? d.payment_method.text : "No way to pay is connected."}{" "}
          <Link to="/membership/payment" className="font-medium text-brand-700 underline">
            Change how you pay
          </Link>
        </p>
      </section>

      <section aria-labelledby="manage-heading" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="manage-heading" className="font-semibold text-slate-900">
          Pause or cancel
        </h2>
        {d.actions.pause.allowed || d.actions.cancel.allowed || d.actions.undo.allowed ? (
          <ul className="mt-2 space-y-2">
            {d.actions.pause.allowed ? (
              <li>
                <Link to="/membership/pause" className="font-medium text-brand-700 underline">
                  Pause my membership
                </Link>{" "}
                <span className="text-slate-600">({d.actions.pause.days_left} pause days left this year)</span>
              </li>
            ) : null}
            {d.actions.undo.allowed ? (
              <li>
                <Link to="/membership/cancel" className="font-medium text-brand-700 underline">
                  Undo my cancellation
                </Link>
              </li>
            ) : d.actions.cancel.allowed ? (
              <li>
                <Link to="/membership/cancel" className="font-medium text-brand-700 underline">
                  Cancel my membership
                </Link>
                {d.actions.cancel.notice_days ? <span className="text-slate-600"> ({d.actions.cancel.notice_days} days&apos; notice)</span> : null}
              </li>
            ) : null}
          </ul>
        ) : (
          <p className="mt-1 text-slate-700">To pause or cancel your membership, ask the gym at the desk or send them a message.</p>
        )}
      </section>

      <section aria-labelledby="payments-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="payments-heading" className="font-semibold text-slate-900">
          Payments
        </h2>
        {d.payments.data.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No payments yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100">
            {d.payments.data.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <div>
                  <p className="font-medium text-slate-900">
                    {formatCents(p.amount + p.surcharge)} · {p.period_start_at ? period(p.period_start_at, p.period_end_at) : paymentPurpose(p.type, "—")}
                  </p>
                  <p className="text-slate-600">
                    {p.created_at ? dates.date(p.created_at) : ""}
                    {p.outcome === "failed" && p.error_description ? ` · ${p.error_description}` : ""}
                    {p.adjustments.map((a) => ` · ${a.in_words}`).join("")}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${OUTCOME_CLASS[p.outcome]}`}>{OUTCOME[p.outcome]}</span>
                  {p.outcome === "successful" ? (
                    <Link to={`/membership/receipts/${p.id}`} className="font-medium text-brand-700 underline">
                      Receipt<span className="sr-only"> for the payment of {formatCents(p.amount + p.surcharge)}</span>
                    </Link>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
        {d.payments.meta.pages > 1 ? (
          <nav aria-label="Payment pages" className="mt-3 flex justify-between text-sm">
            {d.payments.meta.page > 1 ? <Link to={`?page=${d.payments.meta.page - 1}`}>Newer</Link> : <span />}
            {d.payments.meta.page < d.payments.meta.pages ? <Link to={`?page=${d.payments.meta.page + 1}`}>Older</Link> : null}
          </nav>
        ) : null}
      </section>
    </MemberFrame>
  );
}
