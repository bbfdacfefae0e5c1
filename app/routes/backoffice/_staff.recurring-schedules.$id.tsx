import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isCalendarDay } from "../../../domain/schemas/dates";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { localDay, localWeekStart } from "../../../domain/dates";
import { useDates } from "../../lib/date-texts";
import { withDateTexts } from "../../lib/date-texts.server";
import { controlClass } from "../../components/control-class";
import { describedBy, FieldError } from "../../features/calendar/field-error";
import { seriesSpan } from "../../features/calendar/recurring-sessions";
import { SeriesFields, seriesBody, seriesValues, type SeriesValues } from "../../features/calendar/series-fields";
import { orRefusal } from "../../features/members/member-route.server";
import { ColourDot } from "../../features/staff/staff-fields";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.series.member.name ?? "Recurring sessions"} · Recurring schedules · Gym Membership` }];


/**
 * /recurring-schedules/{id} (issue 16): one member's weekly sessions with a trainer. The next sessions, each
 * cancellable (or movable on the calendar) without touching the rest; the pattern changed from a date on (the past
 * stays); the series ended from a date. Every action is a plain form.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  // The new-schedule form lives on the list page.
  if (args.params.id === "new") throw redirect("/recurring-schedules#new-heading");
  const id = Number(args.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Response("Not found", { status: 404 });
  const series = await orRefusal(args.request, api.get("/recurring-schedules/:id", { params: { id } }));
  // Each session's calendar week, worked out here: the browser holds no time zone (decision 0053).
  const next_sessions = series.next_sessions.map((n) => ({ ...n, week: localWeekStart(new Date(n.starts_at)) }));
  return withDateTexts({ series: { ...series, next_sessions }, today: localDay(new Date()) });
}

type Result = { intent: string; message: string; errors: Record<string, string[]>; values?: SeriesValues; from?: string };

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const id = Number(args.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Response("Not found", { status: 404 });
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");
  const from = String(form.get("from") ?? "");
  const here = `/recurring-schedules/${id}`;
  try {
    if (intent === "cancel-session") {
      const day = String(form.get("day") ?? "");
      await api.delete("/recurring-schedules/:id/occurrences/:day", { params: { id, day: isCalendarDay(day) ? day : "none" } });
      return redirectWithToast(here, { summary: "Session cancelled", detail: "The member has been told. The other sessions stay as they are." }, api.headers);
    }
    if (intent === "end") {
      await api.delete("/recurring-schedules/:id", { params: { id }, query: from ? { from } : {} });
      return redirectWithToast(here, { summary: "Recurring sessions ended", detail: "The member has been told." }, api.headers);
    }
    const body = seriesBody(form);
    const missing: Record<string, string[]> | null = body.until === "" ? { until: ["Value is required"] } : body.count === "" ? { count: ["Value is required"] } : null;
    if (missing) return data<Result>({ intent: "change", message: "Please check the highlighted fields", errors: missing, values: seriesValues(form, "from") }, { status: 422 });
    const changed = await api.put("/recurring-schedules/:id", { params: { id }, body: { ...body, from } as never });
    return redirectWithToast(`/recurring-schedules/${changed.id}`, { summary: "Recurring sessions changed", detail: "From the day you chose on. The member has been e-mailed." }, api.headers);
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    if (err.status === 404 && intent !== "cancel-session") throw redirect("/recurring-schedules");
    return data<Result>({ intent, message: err.message, errors: err.errors ?? {}, values: intent === "change" ? seriesValues(form, "from") : undefined, from }, { status: err.status >= 500 ? 503 : err.status });
  }
}

export default function RecurringSchedule() {
  const dates = useDates();
  const { series: s, today } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const changeFrom = s.starts_on > today ? s.starts_on : today;
  const values: SeriesValues = (result?.intent === "change" && result.values) || {
    days: s.days.map(String),
    start_time: s.start_time,
    end_time: s.end_time,
    first: changeFrom,
    ends: s.until ? "on" : s.sessions_left ? "after" : "never",
    until: s.until ?? "",
    count: s.sessions_left ? String(s.sessions_left) : "",
    notes: s.notes ?? "",
  };
  const alert = result?.message && !Object.keys(result.errors).length ? result.message : null;
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/recurring-schedules" className="text-brand-700 underline">
          Recurring schedules
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">{s.member.name}</span>
      </nav>
      <div>
        <h1 className="text-2xl font-semibold">{s.summary}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-1 text-sm text-slate-700">
          <Link to={`/members/${s.member.id}`} className="text-brand-700 underline">
            {s.member.name}
          </Link>{" "}
          with <ColourDot colour={s.trainer.calendar_colour} /> {s.trainer.name} at {s.gym}, {seriesSpan(s)}
          {s.ended ? <strong className="ml-2 rounded bg-slate-100 px-2 py-0.5 text-xs">Ended</strong> : null}
        </p>
        {s.notes ? <p className="mt-1 text-sm text-slate-600">Notes: {s.notes}</p> : null}
      </div>
      {alert ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {alert}
        </p>
      ) : null}

      <section aria-labelledby="next-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="next-heading" className="font-semibold">
          Next sessions
        </h2>
        {s.next_sessions.length ? (
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {s.next_sessions.map((n) => {
              const when = dates.session(n.starts_at);
              const week = n.week;
              const change = n.id ? `/calendar?week=${week}&edit=${n.id}#change-heading` : `/calendar?week=${week}&occurrence=${s.id}:${n.occurrence_day}#change-heading`;
              return (
                <li key={n.id ?? n.occurrence_day} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span>
                    {when}
                    {n.id ? <span className="ml-2 text-xs text-slate-600">(moved from its usual time)</span> : null}
                  </span>
                  <span className="flex items-center gap-2">
                    <Link to={change} className="text-brand-700 underline">
                      Move<span className="sr-only"> the session on {when}</span>
                    </Link>
                    {n.occurrence_day ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="cancel-session" />
                        <input type="hidden" name="day" value={n.occurrence_day} />
                        <button type="submit" className="rounded-md px-2 py-1 text-red-700 hover:bg-red-50">
                          Cancel<span className="sr-only"> the session on {when}</span>
                        </button>
                      </Form>
                    ) : null}
                  </span>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-slate-600">No sessions in the next eight weeks.</p>
        )}
      </section>

      {s.ended ? null : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <section aria-labelledby="change-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="change-heading" className="font-semibold">
              Change the sessions
            </h2>
            <p className="text-sm text-slate-600">Sessions before the day you choose stay as they were.</p>
            <Form method="post" className="space-y-3" noValidate>
              <input type="hidden" name="intent" value="change" />
              <SeriesFields id="change" firstName="from" firstLabel="From" values={values} errors={result?.intent === "change" ? result.errors : undefined} />
              <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                Save the change
              </button>
            </Form>
          </section>
          <section aria-labelledby="end-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="end-heading" className="font-semibold">
              End the sessions
            </h2>
            <Form method="post" className="space-y-3" noValidate>
              <input type="hidden" name="intent" value="end" />
              <div className="space-y-1">
                <label htmlFor="end-from" className="block text-sm font-medium text-slate-800">
                  No sessions from
                </label>
                <input id="end-from" name="from" type="date" defaultValue={result?.intent === "end" ? result.from : today} className={`${controlClass(Boolean(result?.intent === "end" && result.errors.from))} max-w-44`} {...describedBy(result?.intent === "end" ? result.errors : undefined, "from")} />
                <FieldError errors={result?.intent === "end" ? result.errors : undefined} name="from" />
              </div>
              <button type="submit" className="rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-800 hover:bg-red-50">
                End the sessions
              </button>
            </Form>
          </section>
        </div>
      )}
    </div>
  );
}
