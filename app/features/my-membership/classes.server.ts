import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { ApiRequestError } from "../../lib/api.server";
import { withDateTexts } from "../../lib/date-texts.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { requireJoinedMember } from "./my-membership.server";

/**
 * A member's classes on the sign-up host (issue 34): this week's or next week's timetable at their gym from
 * GET /api/me/classes, and Book / Join waitlist / Cancel booking as plain forms. Done: the page again (a reload does not
 * book twice) saying what happened; refused: the API's reason beside the class.
 */
const weekOf = (url: URL) => (url.searchParams.get("week") === "1" ? "1" : "0");

export async function loadMyClasses(args: LoaderFunctionArgs) {
  const { api } = await requireJoinedMember(args);
  const url = new URL(args.request.url);
  const week = weekOf(url);
  try {
    const [timetable, feed] = await Promise.all([api.get("/me/classes", { query: { week } }), api.get("/me/calendar-feed")]);
    return withDateTexts({ week: Number(week) as 0 | 1, done: doneText(url, timetable.classes), feed: feed.url, ...timetable });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

/**
 * What the page says was done. A drop-in's outcome is read from the class as it is now: paid, still being taken, or
 * declined (the place released, so the member no longer holds it).
 */
function doneText(url: URL, classes: { id: number; my_booking: { status: string; payment_status: string | null } | null }[]) {
  const done = url.searchParams.get("done");
  if (done !== "drop-in") return done;
  const own = classes.find((c) => String(c.id) === url.searchParams.get("class"))?.my_booking;
  if (!own || own.payment_status === "failed") return "drop-in-declined";
  return own.payment_status === "sent" ? "drop-in-paid" : "drop-in-pending";
}

export async function classAction(args: ActionFunctionArgs) {
  const { api } = await requireJoinedMember(args);
  const url = new URL(args.request.url);
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");
  const classId = String(form.get("class_id") ?? "");
  let done: string;
  try {
    if (intent === "feed-new" || intent === "feed-off") {
      if (intent === "feed-new") await api.post("/me/calendar-feed");
      else await api.delete("/me/calendar-feed");
      throw redirect(`/membership/classes?week=${weekOf(url)}&done=${intent}#feed-heading`, { headers: api.headers });
    }
    if (intent === "cancel") {
      const answer = await api.delete("/me/class-bookings/:id", { params: { id: String(form.get("booking_id") ?? "") } });
      done = answer.late ? "late" : "cancelled";
    } else {
      const booking = await api.post("/me/class-bookings", { body: { class_id: classId, waitlist: intent === "waitlist" } });
      // A drop-in's card is charged before the answer comes: the page says how it went (doneText).
      done = booking.status === "waitlisted" ? "waitlisted" : booking.payment_id ? "drop-in" : "booked";
    }
  } catch (err) {
    if (err instanceof Response) throw err;
    if (err instanceof ApiRequestError && (err.status === 422 || err.status === 404))
      return data({ class_id: Number(classId), error: err.status === 404 ? "That class or booking is no longer there." : err.message }, { status: err.status });
    redirectForApiError(args.request, err);
  }
  throw redirect(`/membership/classes?week=${weekOf(url)}&done=${done}&class=${classId}#class-${classId}`, { headers: api.headers });
}
