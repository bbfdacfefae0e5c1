import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import { priceText } from "./members-table";
import { COLOUR_CLASSES } from "./status-badge";
import type { StatusCardData } from "./detail-types";

const BORDER = { green: "border-green-500", amber: "border-amber-500", red: "border-red-500" } as const;

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** The membership at a glance: state and colour as SPEC §4 derives them, dates, price and term. */
export function StatusCard({ subscription: s }: { subscription: StatusCardData }) {
  const dates = useDates();
  const day = (d: string | null) => (d ? dates.date(d) : "—");
  if (!s) {
    return (
      <section aria-labelledby="status-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="status-heading" className="font-semibold">
          Membership
        </h2>
        <p className="mt-2 text-sm text-slate-700">No membership yet.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="status-heading" className={`rounded-lg border border-l-4 border-slate-200 bg-white p-4 ${BORDER[s.colour]}`} data-status-colour={s.colour}>
      <div className="flex items-center justify-between gap-2">
        <h2 id="status-heading" className="font-semibold">
          Membership
        </h2>
        <span className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ring-1 ring-inset ${COLOUR_CLASSES[s.colour]}`}>
          {s.label}
          <span className="sr-only"> ({s.colour})</span>
        </span>
      </div>
      {s.price ? (
        <p className="mt-2 text-sm text-slate-800">
          <span className="font-medium">{s.price.offering.name}</span> · {priceText({ ...s.price, amount: s.amount ?? s.price.amount, subscription_id: s.id, offering: s.price.offering.name, price_id: s.price.id })}
          {s.force_price_amount != null ? <span className="text-slate-600"> (special price; list price {formatCents(s.price.amount)})</span> : null}
        </p>
      ) : null}
      <dl className="mt-3 divide-y divide-slate-100">
        {s.state === "paused" ? <Row label="Paused">{`${day(s.pause_start_at)} to ${s.pause_end_at ? day(s.pause_end_at) : "further notice"}`}</Row> : null}
        {s.state === "cancelled" ? <Row label="Cancelled">{day(s.cancelled_at)}</Row> : null}
        {s.scheduled_cancellation ? (
          <Row label="Cancelling">{`Access until ${day(s.scheduled_cancellation.access_until)}${s.scheduled_cancellation.requested_at ? `, asked on ${day(s.scheduled_cancellation.requested_at)}` : ""}`}</Row>
        ) : null}
        {s.undo_cancellation_until ? <Row label="Can be undone until">{day(s.undo_cancellation_until)}</Row> : null}
        {s.state === "grace_period" ? <Row label="Grace period ends">{day(s.grace_period_ends_at)}</Row> : null}
        {s.state === "upcoming" ? <Row label="Upcoming">{s.upcoming_state === "failed" ? "First payment failed" : "Not started yet"}</Row> : null}
        <Row label="Current period">{s.current_period_start || s.current_period_end ? `${day(s.current_period_start)} – ${day(s.current_period_end)}` : "—"}</Row>
        <Row label="Next billing date">{day(s.next_billing_date)}</Row>
        {s.is_term_membership ? (
          <>
            <Row label="Cooling-off until">{day(s.cooling_period_ends_at)}</Row>
            <Row label="Commitment until">{day(s.term_ends_at)}</Row>
          </>
        ) : null}
        {s.pif_ends_at ? <Row label="Paid in full until">{day(s.pif_ends_at)}</Row> : null}
        {s.scheduled_price_change ? (
          <Row label="Price change">
            {s.scheduled_price_change.to_price
              ? `${priceText({ ...s.scheduled_price_change.to_price, subscription_id: s.id, offering: s.scheduled_price_change.to_price.offering.name, price_id: s.scheduled_price_change.to_price.id })}`
              : "Scheduled"}
            {` from ${day(s.scheduled_price_change.takes_effect_at)}`}
          </Row>
        ) : null}
        <Row label="Member since">{day(s.created_at)}</Row>
      </dl>
    </section>
  );
}
