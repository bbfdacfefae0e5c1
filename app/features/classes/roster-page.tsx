import { Form, Link, useLocation } from "@remix-run/react";
import { controlClass } from "../../components/control-class";
import { useDates } from "../../lib/date-texts";
import { describedBy, FieldError } from "../calendar/field-error";
import { ClassColour } from "./class-colour";
import type { RosterResult } from "./roster.server";
import { formatCents } from "../../../domain/money";

type Booking = {
  id: number;
  status: string;
  source: string;
  booked_at: string | null;
  waitlisted_at: string | null;
  cancelled_at: string | null;
  attended_at: string | null;
  drop_in_amount: number | null;
  payment: { id: number; status: string; pif_payment: string | null; error: string | null } | null;
  member: { id: number; name: string; email: string };
};

export interface RosterData {
  class: {
    id: number;
    gym: string;
    starts_at: string;
    ends_at: string;
    room: string | null;
    capacity: number;
    waitlist_size: number;
    cancelled_at: string | null;
    cancel_reason: string | null;
    booked: number;
    waitlisted: number;
    class_type: { name: string; colour: string; drop_in_amount: number | null };
    trainer: { name: string; calendar_colour: string | null };
  };
  attendance_open: boolean;
  bookings: Booking[];
  q: string;
  found: { id: number; name: string; email: string }[];
}

const LABEL: Record<string, string> = {
  booked: "Booked",
  attended: "Attended",
  no_show: "No-show",
  waitlisted: "Waitlisted",
  late_cancelled: "Late cancellation",
  cancelled: "Cancelled",
};
const BADGE: Record<string, string> = {
  booked: "bg-brand-50 text-brand-700",
  attended: "bg-green-100 text-green-900",
  no_show: "bg-amber-100 text-amber-900",
  waitlisted: "bg-slate-100 text-slate-800",
  late_cancelled: "bg-red-50 text-red-800",
  cancelled: "bg-slate-100 text-slate-700",
};

/** A drop-in's price and where its payment stands: paid (how), being charged, declined, or owed once a place comes. */
function dropInText(b: Booking) {
  const price = `Drop-in ${formatCents(b.drop_in_amount!)}`;
  if (!b.payment) return b.status === "waitlisted" ? `${price}, charged if a place comes` : price;
  if (b.payment.status === "sent") return `${price} · paid${b.payment.pif_payment ? ` (${b.payment.pif_payment === "cash" ? "cash" : "EFTPOS"})` : " by card"}`;
  if (b.payment.status === "failed") return `${price} · card declined`;
  return `${price} · charging the card`;
}

const small = "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50";

function BookingRow({ b, open, started }: { b: Booking; open: boolean; started: boolean }) {
  const dates = useDates();
  const since = b.status === "waitlisted" ? b.waitlisted_at : b.status.includes("cancelled") ? b.cancelled_at : b.booked_at;
  const holds = ["booked", "attended", "no_show"].includes(b.status);
  return (
    <tr className="border-t border-slate-100">
      <td className="py-2 pr-3">
        <Link to={`/members/${b.member.id}`} className="font-medium text-brand-700 underline">
          {b.member.name}
        </Link>
        <div className="text-xs text-slate-600">{b.member.email}</div>
      </td>
      <td className="py-2 pr-3">
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ${BADGE[b.status] ?? ""}`}>{LABEL[b.status] ?? b.status}</span>
        {b.drop_in_amount ? <div className="mt-1 text-xs text-slate-700">{dropInText(b)}</div> : null}
      </td>
      <td className="py-2 pr-3 text-sm text-slate-700">{since ? dates.dateTime(since) : "—"}</td>
      <td className="py-2 text-right">
        <div className="flex flex-wrap justify-end gap-2">
          {holds && open ? (
            <>
              <Form method="post">
                <input type="hidden" name="intent" value="attended" />
                <input type="hidden" name="booking_id" value={b.id} />
                <button type="submit" className={small} disabled={b.status === "attended"}>
                  Attended<span className="sr-only"> {b.member.name}</span>
                </button>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="no_show" />
                <input type="hidden" name="booking_id" value={b.id} />
                <button type="submit" className={small} disabled={b.status === "no_show"}>
                  No-show<span className="sr-only"> {b.member.name}</span>
                </button>
              </Form>
            </>
          ) : null}
          {(b.status === "booked" || b.status === "waitlisted") && !started ? (
            <Form method="post">
              <input type="hidden" name="intent" value="remove" />
              <input type="hidden" name="booking_id" value={b.id} />
              <button type="submit" className="rounded-md px-2 py-1 text-sm font-medium text-red-700 hover:bg-red-50">
                Remove<span className="sr-only"> {b.member.name}</span>
              </button>
            </Form>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

function BookingTable({
  id,
  title,
  rows,
  open,
  started,
  empty,
}: {
  id: string;
  title: string;
  rows: Booking[];
  open: boolean;
  started: boolean;
  empty: string;
}) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={id} className="font-semibold">
        {title} <span className="text-sm font-normal text-slate-600">({rows.length})</span>
      </h2>
      {rows.length ? (
        <table className="mt-2 w-full text-left">
          <thead className="text-xs uppercase text-slate-600">
            <tr>
              <th className="py-1 pr-3 font-medium">Member</th>
              <th className="py-1 pr-3 font-medium">Status</th>
              <th className="py-1 pr-3 font-medium">Since</th>
              <th className="py-1 text-right font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <BookingRow key={b.id} b={b} open={open} started={started} />
            ))}
          </tbody>
        </table>
      ) : (
        <p className="mt-2 text-sm text-slate-600">{empty}</p>
      )}
    </section>
  );
}

/** /classes/{id} (issue 34): who is booked, waiting, came or did not, and cancelled; add, remove, mark, message. */
export function RosterPage({ data: d, result, now }: { data: RosterData; result?: RosterResult; now: string }) {
  const dates = useDates();
  // A new form after each save (the redirect's new location): a message sent does not stay in the box to go twice.
  const formKey = useLocation().key;
  const c = d.class;
  const started = new Date(c.starts_at).getTime() <= new Date(now).getTime() || Boolean(c.cancelled_at);
  const errors = result?.errors ?? {};
  const alert = result?.message && !Object.keys(errors).length ? result.message : null;
  const holding = d.bookings.filter((b) => ["booked", "attended", "no_show"].includes(b.status));
  const waiting = d.bookings.filter((b) => b.status === "waitlisted");
  const gone = d.bookings.filter((b) => b.status === "cancelled" || b.status === "late_cancelled");
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/classes" className="text-brand-700 underline">
          Classes
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">
          {c.class_type.name}, {dates.session(c.starts_at)}
        </span>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-semibold">
            <ClassColour colour={c.class_type.colour} /> {c.class_type.name}
            {c.cancelled_at ? <strong className="rounded bg-red-50 px-2 py-0.5 text-sm text-red-800">Cancelled</strong> : null}
          </h1>
          <p className="mt-1 text-sm text-slate-700">
            {dates.session(c.starts_at)} – {dates.time(c.ends_at)} at {c.gym}
            {c.room ? `, ${c.room}` : ""} · with {c.trainer.name}
          </p>
          <p className="mt-1 text-sm text-slate-700" data-testid="class-counts">
            {c.booked} of {c.capacity} places taken · {c.waitlisted} waiting{c.waitlist_size ? ` (waitlist of ${c.waitlist_size})` : ""}
          </p>
          {c.cancel_reason ? <p className="mt-1 text-sm text-slate-600">Cancelled: {c.cancel_reason}</p> : null}
        </div>
        {c.cancelled_at ? null : (
          <Link
            to={`/classes/${c.id}/edit`}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            Change or cancel this class
          </Link>
        )}
      </div>
      {alert ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {alert}
        </p>
      ) : null}
      {!d.attendance_open && !c.cancelled_at ? <p className="text-sm text-slate-600">Attendance can be marked from 30 minutes before the class.</p> : null}

      <div className="grid grid-cols-1 gap-4 xl:grid-cols-3">
        <div className="space-y-4 xl:col-span-2">
          <BookingTable id="booked-heading" title="Booked" rows={holding} open={d.attendance_open} started={started} empty="No one is booked yet." />
          <BookingTable id="waitlist-heading" title="Waitlist" rows={waiting} open={false} started={started} empty="No one is waiting." />
          {gone.length ? <BookingTable id="cancelled-heading" title="Cancelled" rows={gone} open={false} started={started} empty="" /> : null}
        </div>
        <div className="space-y-4">
          {started ? null : (
            <section aria-labelledby="add-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="add-heading" className="font-semibold">
                Add a member
              </h2>
              <p className="text-sm text-slate-600">The member&apos;s own booking rules apply. A full class puts them on the waitlist.</p>
              <Form method="get" className="flex gap-2" role="search" aria-label="Find a member to add">
                <label htmlFor="roster-q" className="sr-only">
                  Name, e-mail or code
                </label>
                <input id="roster-q" name="q" type="search" defaultValue={d.q} placeholder="Name, e-mail or code" className={controlClass(false)} />
                <button type="submit" className={small}>
                  Find
                </button>
              </Form>
              <FieldError errors={errors} name="member_id" />
              {d.q && !d.found.length ? <p className="text-sm text-slate-600">No member matches “{d.q}”.</p> : null}
              {d.found.length ? (
                // One form: the drop-in's way to pay is chosen once, each member's button sends their id.
                <Form method="post" className="space-y-2">
                  <input type="hidden" name="intent" value="add" />
                  {c.class_type.drop_in_amount ? (
                    <div>
                      <label htmlFor="drop-in-paid" className="block text-sm font-medium text-slate-800">
                        If their membership does not include {c.class_type.name}: a drop-in at {formatCents(c.class_type.drop_in_amount)}, paid
                      </label>
                      <select id="drop-in-paid" name="drop_in_paid" defaultValue="card" className={controlClass(false)}>
                        <option value="card">By their card on file</option>
                        <option value="eftpos">By EFTPOS, at the desk now</option>
                        <option value="cash">In cash, at the desk now</option>
                      </select>
                    </div>
                  ) : null}
                  <ul className="divide-y divide-slate-100 text-sm" aria-label="Members found">
                    {d.found.map((m) => (
                      <li key={m.id} className="flex items-center justify-between gap-2 py-2">
                        <span>
                          {m.name}
                          <span className="block text-xs text-slate-600">{m.email}</span>
                        </span>
                        <button type="submit" name="member_id" value={m.id} className={small}>
                          Add<span className="sr-only"> {m.name}</span>
                        </button>
                      </li>
                    ))}
                  </ul>
                </Form>
              ) : null}
            </section>
          )}
          {c.cancelled_at ? null : (
            <section aria-labelledby="message-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="message-heading" className="font-semibold">
                Message everyone booked
              </h2>
              <Form key={formKey} method="post" className="space-y-3" noValidate>
                <input type="hidden" name="intent" value="message" />
                <div className="space-y-1">
                  <label htmlFor="message-subject" className="block text-sm font-medium text-slate-800">
                    Subject (optional)
                  </label>
                  <input
                    id="message-subject"
                    name="subject"
                    defaultValue={result?.intent === "message" ? result.subject : ""}
                    className={controlClass(Boolean(errors.subject))}
                    {...describedBy(errors, "subject")}
                  />
                  <FieldError errors={errors} name="subject" />
                </div>
                <div className="space-y-1">
                  <label htmlFor="message-body" className="block text-sm font-medium text-slate-800">
                    Message
                  </label>
                  <textarea
                    id="message-body"
                    name="body"
                    rows={4}
                    defaultValue={result?.intent === "message" ? result.body : ""}
                    className={controlClass(Boolean(errors.body))}
                    {...describedBy(errors, "body")}
                  />
                  <FieldError errors={errors} name="body" />
                </div>
                <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600">
                  Send to {holding.length} booked
                </button>
              </Form>
            </section>
          )}
        </div>
      </div>
    </div>
  );
}
