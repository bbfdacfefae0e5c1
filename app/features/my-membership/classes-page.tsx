import { Form, Link, useNavigation } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { CopyButton } from "../../components/copy-button";
import { ClassColour } from "../classes/class-colour";
import { MemberFrame } from "./member-frame";
import { formatCents } from "../../../domain/money";

type Listed = {
  id: number;
  day: string;
  day_label: string;
  starts_at: string;
  ends_at: string;
  room: string | null;
  class_type: { name: string; colour: string; description: string | null };
  trainer: { name: string };
  gym: string;
  places_left: number;
  waitlist_left: number;
  my_booking: { id: number; status: string; drop_in_amount: number | null; payment_status: string | null } | null;
  action: "book" | "waitlist" | "cancel" | null;
  late: boolean;
  reason: string | null;
  /** A drop-in's price (cents) when the membership does not cover the class. */
  drop_in: number | null;
};

export interface MyClassesData {
  week: 0 | 1;
  feed: string | null;
  done: string | null;
  gym_id: number | null;
  card_last_four: string | null;
  rules: { booking_window_days: number; cancel_cutoff_minutes: number; max_bookings: number; upcoming: number };
  classes: Listed[];
}

const DONE: Record<string, string> = {
  booked: "You are booked in.",
  waitlisted: "You are on the waitlist. If a place comes free it is yours, and we will e-mail you.",
  cancelled: "Your booking is cancelled.",
  late: "Your booking is cancelled. It was inside the cancellation cut-off, so it counts as a late cancellation.",
  "drop-in-paid": "You are booked in, and your drop-in is paid. The receipt is on its way by e-mail.",
  "drop-in-pending": "You are booked in. Your card payment for the drop-in is still being taken: we will e-mail you if it does not go through.",
  "drop-in-declined": "Your card was declined, so the place was not kept. Update your card in your payment details and book again.",
  "feed-new": "Your calendar link is ready. Any link you made before no longer works.",
  "feed-off": "Your calendar link is turned off.",
};

const STATUS: Record<string, string> = { booked: "Booked", waitlisted: "On the waitlist", attended: "Attended", no_show: "Not attended" };

const hoursText = (minutes: number) => (minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? "" : "s"}` : `${minutes} minutes`);

/** /membership/classes (issue 34): the member's classes this week or next, with what each has left and what they may do. */
export function MyClassesPage({ data: d, refused }: { data: MyClassesData; refused?: { class_id: number; error: string } }) {
  const dates = useDates();
  const nav = useNavigation();
  const busy = (id: number) => nav.state !== "idle" && nav.formData?.get("class_id") === String(id);
  const days = [...new Set(d.classes.map((c) => c.day))];
  return (
    <MemberFrame back title="Classes">
      <nav aria-label="Week" className="flex gap-2">
        {(["This week", "Next week"] as const).map((label, i) => (
          <Link
            key={label}
            to={`?week=${i}`}
            aria-current={d.week === i ? "page" : undefined}
            className={`rounded-full px-4 py-2 text-sm font-medium ${
              d.week === i ? "bg-brand-700 text-white" : "border border-slate-300 bg-white text-slate-800"
            }`}
          >
            {label}
          </Link>
        ))}
      </nav>
      <p className="text-sm text-slate-600">
        Booking opens {d.rules.booking_window_days} days ahead. Cancel at least {hoursText(d.rules.cancel_cutoff_minutes)} before the start, or it counts as a
        late cancellation. You can hold {d.rules.max_bookings} bookings at once (you hold {d.rules.upcoming}).
      </p>
      {d.done && DONE[d.done] && !d.done.startsWith("feed-") ? (
        <p
          role="status"
          className={`rounded-lg border p-3 text-sm ${d.done === "drop-in-declined" ? "border-red-200 bg-red-50 text-red-900" : "border-green-200 bg-green-50 text-green-900"}`}
        >
          {DONE[d.done]}
        </p>
      ) : null}
      {d.gym_id === null ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">You have no gym yet, so there are no classes to show.</p>
      ) : !d.classes.length ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">No classes {d.week === 0 ? "this week" : "next week"}.</p>
      ) : (
        days.map((day) => (
          <section key={day} aria-labelledby={`day-${day}`} className="space-y-3">
            <h2 id={`day-${day}`} className="text-base font-semibold text-slate-900">
              {d.classes.find((c) => c.day === day)!.day_label}
            </h2>
            <ul className="space-y-3">
              {d.classes
                .filter((c) => c.day === day)
                .map((c) => (
                  <li key={c.id} id={`class-${c.id}`} className="rounded-lg border border-slate-200 bg-white p-4">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <h3 className="flex items-center gap-2 font-semibold text-slate-900">
                        <ClassColour colour={c.class_type.colour} /> {c.class_type.name}
                      </h3>
                      <span className="text-sm text-slate-700">
                        {dates.time(c.starts_at)} – {dates.time(c.ends_at)}
                      </span>
                    </div>
                    <p className="text-sm text-slate-600">
                      With {c.trainer.name}
                      {c.room ? `, ${c.room}` : ""}
                    </p>
                    <p className="mt-1 text-sm text-slate-700">
                      {c.places_left > 0
                        ? `${c.places_left} ${c.places_left === 1 ? "place" : "places"} left`
                        : c.waitlist_left > 0
                        ? `Full · ${c.waitlist_left} waitlist ${c.waitlist_left === 1 ? "place" : "places"} left`
                        : "Full"}
                      {c.my_booking && STATUS[c.my_booking.status] ? (
                        <strong className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-brand-700">
                          {STATUS[c.my_booking.status]}
                          {c.my_booking.drop_in_amount ? (c.my_booking.payment_status === "sent" ? " · drop-in paid" : c.my_booking.payment_status ? " · paying" : " · drop-in") : ""}
                        </strong>
                      ) : null}
                    </p>
                    {refused?.class_id === c.id ? (
                      <p role="alert" className="mt-2 text-sm font-medium text-red-700">
                        {refused.error}
                      </p>
                    ) : null}
                    {c.action ? (
                      <Form method="post" className="mt-3">
                        <input type="hidden" name="class_id" value={c.id} />
                        <input type="hidden" name="intent" value={c.action} />
                        {c.action === "cancel" ? <input type="hidden" name="booking_id" value={c.my_booking!.id} /> : null}
                        {c.action === "cancel" && c.late ? (
                          <p className="mb-2 text-sm text-amber-800">
                            It is less than {hoursText(d.rules.cancel_cutoff_minutes)} to the start: cancelling now is a late cancellation
                            {c.my_booking?.payment_status === "sent" ? ", and the drop-in is not refunded" : ""}.
                          </p>
                        ) : c.action === "cancel" && c.my_booking?.payment_status === "sent" ? (
                          <p className="mb-2 text-sm text-slate-600">Cancel now and your drop-in is refunded to your card.</p>
                        ) : null}
                        {c.action !== "cancel" && c.drop_in ? (
                          <p className="mb-2 text-sm text-slate-700">
                            Not included in your membership: a drop-in at <strong>{formatCents(c.drop_in)}</strong>
                            {c.action === "waitlist" ? ", charged only if a place comes to you," : ","} on your card
                            {d.card_last_four ? ` ending ${d.card_last_four}` : ""}.
                          </p>
                        ) : null}
                        <button
                          type="submit"
                          disabled={busy(c.id)}
                          className={`min-h-[44px] w-full rounded-md px-4 py-2 text-sm font-semibold sm:w-auto ${
                            c.action === "cancel" ? "border border-slate-300 bg-white text-slate-900" : "bg-brand-700 text-white"
                          }`}
                        >
                          {busy(c.id)
                            ? "Just a moment…"
                            : c.action === "book"
                            ? `Book ${c.class_type.name}${c.drop_in ? ` · pay ${formatCents(c.drop_in)}` : ""}`
                            : c.action === "waitlist"
                            ? "Join waitlist"
                            : c.my_booking?.status === "waitlisted"
                            ? "Leave waitlist"
                            : "Cancel booking"}
                        </button>
                      </Form>
                    ) : c.reason ? (
                      <p className="mt-2 text-sm text-slate-600">{c.reason}</p>
                    ) : null}
                  </li>
                ))}
            </ul>
          </section>
        ))
      )}
      <section aria-labelledby="feed-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="feed-heading" className="font-semibold text-slate-900">
          Your classes in your phone&apos;s calendar
        </h2>
        <p className="text-sm text-slate-600">
          Subscribe to this private link in your calendar app: the classes you book show there, and drop off when you cancel.
        </p>
        {d.done?.startsWith("feed-") && DONE[d.done] ? (
          <p role="status" className="rounded-lg border border-green-200 bg-green-50 p-3 text-sm text-green-900">
            {DONE[d.done]}
          </p>
        ) : null}
        {d.feed ? (
          <>
            <label htmlFor="feed-url" className="block text-sm font-medium text-slate-800">
              Your private calendar link
            </label>
            <input
              id="feed-url"
              readOnly
              value={d.feed}
              className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-900"
            />
            <CopyButton text={d.feed} label="Copy the link" />
          </>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Form method="post">
            <input type="hidden" name="intent" value="feed-new" />
            <button type="submit" className="min-h-[44px] rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-900">
              {d.feed ? "Make a new link" : "Get a calendar link"}
            </button>
          </Form>
          {d.feed ? (
            <Form method="post">
              <input type="hidden" name="intent" value="feed-off" />
              <button type="submit" className="min-h-[44px] rounded-md px-4 py-2 text-sm font-semibold text-red-700">
                Turn the link off
              </button>
            </Form>
          ) : null}
        </div>
      </section>
    </MemberFrame>
  );
}
