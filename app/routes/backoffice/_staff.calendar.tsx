import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isCalendarDay } from "../../../domain/schemas/dates";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { clockOf, formatCalendarDayAs, shiftCalendarDay } from "../../../domain/calendar-day";
import { addCalendarDays, formatLocal, localDay, localInstant, localWeekStart, startOfLocalDay } from "../../../domain/dates";
import { controlClass } from "../../components/control-class";
import { CopyButton } from "../../components/copy-button";
import { FieldError } from "../../features/calendar/field-error";
import { TrainerSelect } from "../../features/calendar/trainer-select";
import { trainersFor } from "../../features/calendar/trainers.server";
import { WeekGrid } from "../../features/calendar/week-grid";
import { MemberFinder } from "../../features/members/member-finder";
import { memberOrNull } from "../../features/members/member-or-null.server";
import { orRefusal } from "../../features/members/member-route.server";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Calendar · Gym Membership" }];

const num = (v: string | null) => (v && /^\d{1,9}$/.test(v) ? Number(v) : null);

/**
 * /calendar (issue 16): the week's personal-training appointments and recurring sessions on a time grid, Monday to
 * Sunday in Auckland time, each in its trainer's colour (one day at a time on phones); previous and next week are
 * links. Booking, moving and cancelling (one recurring session alone, too) are forms that work without JavaScript;
 * with it, sessions are dragged to move or resize and an empty slot is clicked to book (app/features/calendar/week-grid.tsx).
 * The member is found with the member search. Trainers see and book their own; admins everyone's. Each person's private
 * calendar feed link is made and replaced here.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const asked = url.searchParams.get("week") ?? "";
  const week = isCalendarDay(asked) ? localWeekStart(startOfLocalDay(asked)) : localWeekStart(new Date());
  const find = (url.searchParams.get("find") ?? "").slice(0, 100);
  const memberId = num(url.searchParams.get("member"));
  const editId = num(url.searchParams.get("edit"));
  const [, seriesId, occurrenceDay] = /^(\d{1,9}):(\d{4}-\d{2}-\d{2})$/.exec(url.searchParams.get("occurrence") ?? "") ?? [];
  const [, slotDay, slotTime] = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(url.searchParams.get("slot") ?? "") ?? [];
  const me = await orRefusal(args.request, api.get("/me"));
  const listed = api.get("/appointments", { query: { from: startOfLocalDay(week).toISOString(), to: startOfLocalDay(addCalendarDays(week, 7)).toISOString() } }).catch((err) => {
    // Without calendar and messaging there is no calendar: the layout's guard sends staff to the dashboard.
    if (err instanceof ApiRequestError && err.status === 404) throw redirect("/dashboard");
    throw err;
  });
  // Group classes (issue 34) beside the sessions: every class the person may see that week, at any of their gyms.
  const classList = api.get("/classes", { query: { from: startOfLocalDay(week).toISOString(), to: startOfLocalDay(addCalendarDays(week, 7)).toISOString() } });
  const [list, trainers, hits, member, feed, classes] = await orRefusal(
    args.request,
    Promise.all([listed, trainersFor(api, me), find ? api.post("/search", { body: { query: find } }) : null, memberOrNull(api, memberId), api.get("/calendar-feed"), classList]),
  );
  const days = Array.from({ length: 7 }, (_, i) => addCalendarDays(week, i));
  const today = localDay(new Date());
  const askedDay = url.searchParams.get("day") ?? slotDay ?? "";
  // Where each entry sits on Auckland's clock, worked out here: the browser holds no time zone (decision 0053).
  const appointments = list.data.map((a) => ({ ...a, wall: { start_day: localDay(a.starts_at), start: formatLocal(a.starts_at, "HH:mm"), end_day: localDay(a.ends_at), end: formatLocal(a.ends_at, "HH:mm") } }));
  const classEntries = classes.data.map((c) => ({
    id: null,
    series_id: null,
    occurrence_day: c.occurrence_day,
    starts_at: c.starts_at,
    ends_at: c.ends_at,
    wall: { start_day: localDay(c.starts_at), start: formatLocal(c.starts_at, "HH:mm"), end_day: localDay(c.ends_at), end: formatLocal(c.ends_at, "HH:mm") },
    trainer: c.trainer,
    member: { id: 0, name: c.class_type.name },
    class: { id: c.id, name: c.class_type.name, gym: c.gym, booked: c.booked, capacity: c.capacity },
  }));
  const editing = editId ? appointments.find((a) => a.id === editId) : seriesId ? appointments.find((a) => a.id === null && a.series_id === Number(seriesId) && a.occurrence_day === occurrenceDay) : undefined;
  return {
    week,
    days,
    appointments,
    classEntries,
    trainers,
    find,
    hits: hits?.data ?? null,
    member: member ? { id: member.id, name: member.name } : null,
    editing: editing ?? null,
    today,
    selectedDay: days.includes(askedDay) ? askedDay : days.includes(today) ? today : week,
    slot: slotDay && days.includes(slotDay) ? { day: slotDay, time: slotTime, label: formatLocal(localInstant(slotDay, slotTime), "EEE d MMM 'at' h:mm a") } : null,
    feed: feed.url,
  };
}

type Result = { message: string; errors: Record<string, string[]>; values: Record<string, string> };

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const v = (k: string) => String(form.get(k) ?? "");
  const intent = v("intent");
  const week = isCalendarDay(v("week")) ? v("week") : "";
  const back = `/calendar${week ? `?week=${week}` : ""}`;
  const instant = (day: string, time: string) => (isCalendarDay(day) && /^\d{2}:\d{2}$/.test(time) ? localInstant(day, time).toISOString() : day || time ? "invalid" : "");
  const occurrence = { id: Number(v("series_id")) || 0, day: isCalendarDay(v("occurrence_day")) ? v("occurrence_day") : "none" };
  try {
    if (intent === "feed-new" || intent === "feed-off") {
      if (intent === "feed-new") await api.post("/calendar-feed");
      else await api.delete("/calendar-feed");
      return redirectWithToast(`${back}#feed-heading`, { summary: intent === "feed-new" ? "New calendar link made" : "Calendar link turned off", detail: "Any earlier link no longer works." }, api.headers);
    }
    if (intent === "cancel") {
      await api.delete("/appointments/:id", { params: { id: Number(v("id")) } });
      return redirectWithToast(back, { summary: "Appointment cancelled", detail: "The member has been told." }, api.headers);
    }
    if (intent === "cancel-occurrence") {
      await api.delete("/recurring-schedules/:id/occurrences/:day", { params: occurrence });
      return redirectWithToast(back, { summary: "Session cancelled", detail: "The member has been told. The other sessions stay as they are." }, api.headers);
    }
    const times = { starts_at: instant(v("day"), v("start")), ends_at: instant(v("day"), v("end")), notes: v("notes") || undefined };
    if (intent === "move") {
      await api.put("/appointments/:id", { params: { id: Number(v("id")) }, body: times });
      return redirectWithToast(back, { summary: "Appointment saved" }, api.headers);
    }
    if (intent === "move-occurrence") {
      await api.put("/recurring-schedules/:id/occurrences/:day", { params: occurrence, body: times });
      return redirectWithToast(back, { summary: "Session saved", detail: "The other sessions stay as they are." }, api.headers);
    }
    await api.post("/appointments", { body: { ...times, trainer_id: Number(v("trainer_id")) || undefined, member_id: Number(v("member_id")) || undefined } as never });
    return redirectWithToast(`/calendar?week=${localWeekStart(startOfLocalDay(isCalendarDay(v("day")) ? v("day") : localDay(new Date())))}`, { summary: "Appointment booked", detail: "The member has been e-mailed." }, api.headers);
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    const values = Object.fromEntries(["day", "start", "end", "notes", "trainer_id", "member_id", "id", "series_id"].map((k) => [k, v(k)]));
    return data<Result>({ message: err.message, errors: err.errors ?? {}, values }, { status: err.status >= 500 ? 503 : err.status });
  }
}

/** Day, start and end, and notes: the fields a booking and a move share. */
function TimeFields({ id, result, day, start, end, notes }: { id: string; result?: Result; day: string; start: string; end: string; notes: string }) {
  const e = result?.errors;
  const val = (k: string, d: string) => result?.values[k] ?? d;
  return (
    <>
      <div className="grid grid-cols-3 gap-2">
        <div className="space-y-1">
          <label htmlFor={`${id}-day`} className="block text-sm font-medium text-slate-800">
            Day
          </label>
          <input id={`${id}-day`} name="day" type="date" required defaultValue={val("day", day)} className={controlClass(Boolean(e?.starts_at))} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-start`} className="block text-sm font-medium text-slate-800">
            Starts
          </label>
          <input id={`${id}-start`} name="start" type="time" required step={300} defaultValue={val("start", start)} aria-invalid={e?.starts_at ? true : undefined} aria-describedby={e?.starts_at ? "starts_at-error" : undefined} className={controlClass(Boolean(e?.starts_at))} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-end`} className="block text-sm font-medium text-slate-800">
            Ends
          </label>
          <input id={`${id}-end`} name="end" type="time" required step={300} defaultValue={val("end", end)} aria-invalid={e?.ends_at ? true : undefined} aria-describedby={e?.ends_at ? "ends_at-error" : undefined} className={controlClass(Boolean(e?.ends_at))} />
        </div>
      </div>
      <FieldError errors={e} name="starts_at" />
      <FieldError errors={e} name="ends_at" />
      <div className="space-y-1">
        <label htmlFor={`${id}-notes`} className="block text-sm font-medium text-slate-800">
          Notes
        </label>
        <input id={`${id}-notes`} name="notes" defaultValue={val("notes", notes)} className={controlClass(Boolean(e?.notes))} />
      </div>
    </>
  );
}

export default function Calendar() {
  const { week, days, appointments, classEntries, trainers, find, hits, member, editing, today, selectedDay, slot, feed } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const changing = Boolean(result?.values.id || result?.values.series_id);
  const bookDay = slot?.day ?? (today >= week && today < shiftCalendarDay(week, 7) ? today : week);
  const bookStart = slot?.time ?? "09:00";
  const bookEnd = slot ? `${String(Math.min(23, Number(slot.time.slice(0, 2)) + 1)).padStart(2, "0")}:${slot.time.slice(3)}` : "10:00";
  const keep = `week=${week}${slot ? `&slot=${slot.day}T${slot.time}` : ""}`;
  const link = "rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50";
  return (
    <div className="space-y-4 px-4 py-6 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Calendar</h1>
        <nav aria-label="Weeks" className="flex flex-wrap items-center gap-2 text-sm">
          <Link to={`/calendar?week=${shiftCalendarDay(week, -7)}`} className={link}>
            Previous week
          </Link>
          <span className="font-medium">Week of {formatCalendarDayAs(week, "d MMMM yyyy")}</span>
          <Link to={`/calendar?week=${shiftCalendarDay(week, 7)}`} className={link}>
            Next week
          </Link>
          <Link to="/recurring-schedules" className={link}>
            Recurring schedules
          </Link>
        </nav>
      </div>
      {result?.message && !Object.keys(result.errors).length ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {result.message}
        </p>
      ) : null}
      <WeekGrid days={days} entries={[...appointments, ...classEntries]} today={today} week={week} selectedDay={selectedDay} slotHref={(day, time) => `/calendar?week=${week}&day=${day}&slot=${day}T${time}${member ? `&member=${member.id}` : ""}#book-heading`} />
      {appointments.length + classEntries.length === 0 ? <p className="text-sm text-slate-600">Nothing booked this week.</p> : null}

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {editing ? (
          <section aria-labelledby="change-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="change-heading" className="font-semibold">
              {editing.member.name} with {editing.trainer.name}
            </h2>
            <p className="text-sm text-slate-600">
              {formatCalendarDayAs(editing.wall.start_day, "EEEE d MMMM")}, {clockOf(editing.wall.start)} to {clockOf(editing.wall.end)} at {editing.gym}
              {editing.series_id ? (
                <>
                  {" "}
                  · one of a series:{" "}
                  <Link to={`/recurring-schedules/${editing.series_id}`} className="text-brand-700 underline">
                    change all the sessions
                  </Link>
                </>
              ) : null}
            </p>
            <Form method="post" className="space-y-3" noValidate>
              <EntryFields entry={editing} />
              <input type="hidden" name="intent" value={editing.id ? "move" : "move-occurrence"} />
              <input type="hidden" name="week" value={week} />
              <TimeFields id="change" result={changing ? result : undefined} day={editing.wall.start_day} start={editing.wall.start} end={editing.wall.end} notes={editing.notes ?? ""} />
              <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600">
                {editing.series_id ? "Save this session" : "Save"}
              </button>
            </Form>
            <Form method="post">
              <EntryFields entry={editing} />
              <input type="hidden" name="intent" value={editing.id ? "cancel" : "cancel-occurrence"} />
              <input type="hidden" name="week" value={week} />
              <button type="submit" className="rounded-md px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50">
                {editing.series_id ? "Cancel this session only" : "Cancel this appointment"}
              </button>
            </Form>
          </section>
        ) : null}

        <section aria-labelledby="book-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="book-heading" className="font-semibold">
            Book an appointment
          </h2>
          <MemberFinder label="Member" find={find} hits={hits} hrefFor={(id) => `/calendar?${keep}&member=${id}#book-heading`}>
            <input type="hidden" name="week" value={week} />
            {slot ? <input type="hidden" name="slot" value={`${slot.day}T${slot.time}`} /> : null}
          </MemberFinder>
          {member ? (
            <Form method="post" className="space-y-3" noValidate>
              <input type="hidden" name="intent" value="book" />
              <input type="hidden" name="member_id" value={member.id} />
              <input type="hidden" name="week" value={week} />
              <p className="text-sm">
                For <strong>{member.name}</strong>
              </p>
              <TrainerSelect trainers={trainers} chosen={result?.values.trainer_id} errors={result?.errors} />
              <TimeFields key={`${bookDay}${bookStart}`} id="book" result={changing ? undefined : result} day={bookDay} start={bookStart} end={bookEnd} notes="" />
              <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600">
                Book
              </button>
            </Form>
          ) : (
            <p className="text-sm text-slate-600">
              Find the member first.{slot ? ` The time you chose (${slot.label}) is kept.` : " Or click an empty time on the calendar."}
            </p>
          )}
        </section>

        <section aria-labelledby="feed-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="feed-heading" className="font-semibold">
            Your sessions on your phone
          </h2>
          <p className="text-sm text-slate-600">Subscribe to this private link in your phone&apos;s calendar app (Add calendar → From URL). Anyone with the link can see your sessions: make a new one if it gets out.</p>
          {feed ? (
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor="feed-url" className="sr-only">
                Your calendar link
              </label>
              <input id="feed-url" readOnly value={feed} className="block w-full min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-1.5 font-mono text-xs" />
              <CopyButton text={feed} label="Copy your calendar link" />
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="intent" value="feed-new" />
              <input type="hidden" name="week" value={week} />
              <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50">
                {feed ? "Make a new link" : "Get my calendar link"}
              </button>
            </Form>
            {feed ? (
              <Form method="post">
                <input type="hidden" name="intent" value="feed-off" />
                <input type="hidden" name="week" value={week} />
                <button type="submit" className="rounded-md px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50">
                  Turn the link off
                </button>
              </Form>
            ) : null}
          </div>
        </section>
      </div>
    </div>
  );
}

/** Which entry a change form is about: an appointment by id, or a recurring session by its series and day. */
function EntryFields({ entry }: { entry: { id: number | null; series_id: number | null; occurrence_day: string | null } }) {
  return entry.id ? (
    <input type="hidden" name="id" value={entry.id} />
  ) : (
    <>
      <input type="hidden" name="series_id" value={entry.series_id ?? ""} />
      <input type="hidden" name="occurrence_day" value={entry.occurrence_day ?? ""} />
    </>
  );
}
