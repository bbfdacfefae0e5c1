import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { addCalendarDays, formatLocal, formatTime, localDay, localInstant, localWeekStart, startOfLocalDay } from "../../domain/dates";
import { controlClass } from "../components/control-class";
import { ColourDot } from "../features/staff/staff-fields";
import { MemberFinder } from "../features/members/member-finder";
import { memberOrNull } from "../features/members/member-or-null.server";
import { orRefusal } from "../features/members/member-route.server";
import { ApiRequestError, gymApi } from "../lib/api.server";
import { readForm } from "../lib/forms.server";
import { requireApp } from "../lib/host.server";
import { redirectForApiError } from "../lib/session.server";
import { redirectWithToast } from "../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Calendar · Gym Membership" }];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const num = (v: string | null) => (v && /^\d{1,9}$/.test(v) ? Number(v) : null);

/**
 * /calendar (issue 16, first slice): the week's personal-training appointments, Monday to Sunday in Auckland time,
 * each in its trainer's colour; previous and next week are links. Booking, moving and cancelling are forms (they work
 * without JavaScript); the member is found with the member search. Trainers see and book their own; admins everyone's.
 */
export async function loader(args: LoaderFunctionArgs) {
  requireApp(args.request, "backoffice");
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const asked = url.searchParams.get("week") ?? "";
  const week = DAY.test(asked) ? localWeekStart(startOfLocalDay(asked)) : localWeekStart(new Date());
  const find = (url.searchParams.get("find") ?? "").slice(0, 100);
  const memberId = num(url.searchParams.get("member"));
  const editId = num(url.searchParams.get("edit"));
  const me = await orRefusal(args.request, api.get("/me"));
  const listed = api.get("/appointments", { query: { from: startOfLocalDay(week).toISOString(), to: startOfLocalDay(addCalendarDays(week, 7)).toISOString() } }).catch((err) => {
    // Without calendar and messaging there is no calendar: the layout's guard sends staff to the dashboard.
    if (err instanceof ApiRequestError && err.status === 404) throw redirect("/dashboard");
    throw err;
  });
  const admins = me.permissions.includes("staff.read");
  const [list, staff, hits, member] = await orRefusal(
    args.request,
    Promise.all([
      listed,
      admins ? api.get("/organisations/:id/staff", { params: { id: me.current_organisation!.id }, query: { status: "active" } }) : null,
      find ? api.post("/search", { body: { query: find } }) : null,
      memberOrNull(api, memberId),
    ]),
  );
  const trainers = admins ? staff!.data.filter((s) => s.is_organisation_admin || s.gyms.some((g) => g.id === me.current_gym?.id)).map((s) => ({ id: s.id, name: s.name })) : [{ id: me.id, name: me.name }];
  return {
    week,
    days: Array.from({ length: 7 }, (_, i) => addCalendarDays(week, i)),
    appointments: list.data,
    trainers,
    find,
    hits: hits?.data ?? null,
    member: member ? { id: member.id, name: member.name } : null,
    editing: editId ? (list.data.find((a) => a.id === editId) ?? null) : null,
    today: localDay(new Date()),
  };
}

type Result = { message: string; errors: Record<string, string[]>; values: Record<string, string> };

export async function action(args: ActionFunctionArgs) {
  requireApp(args.request, "backoffice");
  const api = gymApi(args);
  const form = await readForm(args.request);
  const v = (k: string) => String(form.get(k) ?? "");
  const intent = v("intent");
  const week = DAY.test(v("week")) ? v("week") : "";
  const back = `/calendar${week ? `?week=${week}` : ""}`;
  const instant = (day: string, time: string) => (DAY.test(day) && /^\d{2}:\d{2}$/.test(time) ? localInstant(day, time).toISOString() : day || time ? "invalid" : "");
  try {
    if (intent === "cancel") {
      await api.delete("/appointments/:id", { params: { id: Number(v("id")) } });
      return redirectWithToast(back, { summary: "Appointment cancelled", detail: "The member has been told." }, api.headers);
    }
    const times = { starts_at: instant(v("day"), v("start")), ends_at: instant(v("day"), v("end")), notes: v("notes") || undefined };
    if (intent === "move") {
      await api.put("/appointments/:id", { params: { id: Number(v("id")) }, body: times });
      return redirectWithToast(back, { summary: "Appointment saved" }, api.headers);
    }
    await api.post("/appointments", { body: { ...times, trainer_id: Number(v("trainer_id")) || undefined, member_id: Number(v("member_id")) || undefined } as never });
    return redirectWithToast(`/calendar?week=${localWeekStart(startOfLocalDay(DAY.test(v("day")) ? v("day") : localDay(new Date())))}`, { summary: "Appointment booked", detail: "The member has been e-mailed." }, api.headers);
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    const values = Object.fromEntries(["day", "start", "end", "notes", "trainer_id", "member_id", "id"].map((k) => [k, v(k)]));
    return data<Result>({ message: err.message, errors: err.errors ?? {}, values }, { status: err.status >= 500 ? 503 : err.status });
  }
}

function FieldError({ errors, name }: { errors?: Record<string, string[]>; name: string }) {
  const e = errors?.[name];
  return e ? (
    <p id={`${name}-error`} className="text-sm text-red-700">
      {e[0]}
    </p>
  ) : null;
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
  const { week, days, appointments, trainers, find, hits, member, editing, today } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const hhmm = (d: string) => formatLocal(d, "HH:mm");
  return (
    <div className="h-full space-y-4 overflow-y-auto px-4 py-6 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Calendar</h1>
        <nav aria-label="Weeks" className="flex items-center gap-2 text-sm">
          <Link to={`/calendar?week=${addCalendarDays(week, -7)}`} className="rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
            Previous week
          </Link>
          <span className="font-medium">Week of {formatLocal(startOfLocalDay(week), "d MMMM yyyy")}</span>
          <Link to={`/calendar?week=${addCalendarDays(week, 7)}`} className="rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
            Next week
          </Link>
        </nav>
      </div>
      {result?.message && !Object.keys(result.errors).length ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {result.message}
        </p>
      ) : null}
      <ol aria-label="Days of the week" className="grid grid-cols-1 gap-2 md:grid-cols-7">
        {days.map((day) => {
          const mine = appointments.filter((a) => localDay(a.starts_at) === day);
          return (
            <li key={day} className={`min-h-24 rounded-lg border bg-white p-2 ${day === today ? "border-brand-500" : "border-slate-200"}`}>
              <h2 id={`day-${day}`} className="text-sm font-semibold">
                {formatLocal(startOfLocalDay(day), "EEE d MMM")}
              </h2>
              <ul className="mt-2 space-y-2">
                {mine.map((a) => (
                  <li key={a.id} className="rounded-md border border-slate-200 p-2 text-xs">
                    <p className="flex items-center gap-1 font-semibold">
                      <ColourDot colour={a.trainer.calendar_colour} /> {formatTime(a.starts_at)}–{formatTime(a.ends_at)}
                    </p>
                    <p>{a.member.name}</p>
                    <p className="text-slate-600">with {a.trainer.name}</p>
                    <Link to={`/calendar?week=${week}&edit=${a.id}#change-heading`} className="mt-1 inline-flex min-h-6 items-center text-sm text-brand-700 underline">
                      Change<span className="sr-only"> {a.member.name}&apos;s session at {formatTime(a.starts_at)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {editing ? (
          <section aria-labelledby="change-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="change-heading" className="font-semibold">
              {editing.member.name} with {editing.trainer.name}
            </h2>
            <Form method="post" className="space-y-3" noValidate>
              <input type="hidden" name="intent" value="move" />
              <input type="hidden" name="id" value={editing.id} />
              <input type="hidden" name="week" value={week} />
              <TimeFields id="change" result={result?.values.id ? result : undefined} day={localDay(editing.starts_at)} start={hhmm(editing.starts_at)} end={hhmm(editing.ends_at)} notes={editing.notes ?? ""} />
              <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                Save
              </button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="cancel" />
              <input type="hidden" name="id" value={editing.id} />
              <input type="hidden" name="week" value={week} />
              <button type="submit" className="rounded-md px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50">
                Cancel this appointment
              </button>
            </Form>
          </section>
        ) : null}

        <section aria-labelledby="book-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="book-heading" className="font-semibold">
            Book an appointment
          </h2>
          <MemberFinder label="Member" find={find} hits={hits} hrefFor={(id) => `/calendar?week=${week}&member=${id}#book-heading`}>
            <input type="hidden" name="week" value={week} />
          </MemberFinder>
          {member ? (
            <Form method="post" className="space-y-3" noValidate>
              <input type="hidden" name="intent" value="book" />
              <input type="hidden" name="member_id" value={member.id} />
              <input type="hidden" name="week" value={week} />
              <p className="text-sm">
                For <strong>{member.name}</strong>
              </p>
              <div className="space-y-1">
                <label htmlFor="trainer_id" className="block text-sm font-medium text-slate-800">
                  Trainer
                </label>
                <select id="trainer_id" name="trainer_id" defaultValue={result?.values.trainer_id ?? String(trainers[0]?.id ?? "")} className={controlClass(Boolean(result?.errors.trainer_id))}>
                  {trainers.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
                <FieldError errors={result?.errors} name="trainer_id" />
              </div>
              <TimeFields id="book" result={result?.values.id ? undefined : result} day={today >= week && today < addCalendarDays(week, 7) ? today : week} start="09:00" end="10:00" notes="" />
              <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                Book
              </button>
            </Form>
          ) : (
            <p className="text-sm text-slate-600">Find the member first.</p>
          )}
        </section>
      </div>
    </div>
  );
}
