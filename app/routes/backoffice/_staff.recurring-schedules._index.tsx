import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { localDay } from "../../../domain/dates";
import { EndedLink, ScheduleListPage, WhenCell } from "../../components/schedule-list-page";
import { useDates } from "../../lib/date-texts";
import { TrainerSelect } from "../../features/calendar/trainer-select";
import { seriesSpan } from "../../features/calendar/recurring-sessions";
import { SeriesFields, seriesBody, seriesValues, type SeriesValues } from "../../features/calendar/series-fields";
import { trainersFor } from "../../features/calendar/trainers.server";
import { MemberFinder } from "../../features/members/member-finder";
import { memberOrNull } from "../../features/members/member-or-null.server";
import { orRefusal } from "../../features/members/member-route.server";
import { ColourDot } from "../../features/staff/staff-fields";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Recurring schedules · Gym Membership" }];

const num = (v: string | null) => (v && /^\d{1,9}$/.test(v) ? Number(v) : null);

/**
 * /recurring-schedules (issue 16): trainers' weekly sessions with members, the live ones (ended ones behind a filter),
 * each with its next sessions; a new one is a form (the member found with the member search), so it works without
 * JavaScript. Each links to its page, where single sessions are cancelled and the series changed from a date.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const ended = url.searchParams.get("ended") === "1";
  const find = (url.searchParams.get("find") ?? "").slice(0, 100);
  const memberId = num(url.searchParams.get("member"));
  const me = await orRefusal(args.request, api.get("/me"));
  const listed = api.get("/recurring-schedules", { query: ended ? { ended: "1" } : {} }).catch((err) => {
    if (err instanceof ApiRequestError && err.status === 404) throw redirect("/dashboard");
    throw err;
  });
  const [list, trainers, hits, member] = await orRefusal(args.request, Promise.all([listed, trainersFor(api, me), find ? api.post("/search", { body: { query: find } }) : null, memberOrNull(api, memberId)]));
  return withDateTexts({ list: list.data, trainers, ended, find, hits: hits?.data ?? null, member: member ? { id: member.id, name: member.name } : null, today: localDay(new Date()) });
}

type Result = { message: string; errors: Record<string, string[]>; values: SeriesValues & { trainer_id: string } };

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const body = seriesBody(form);
  const values = { ...seriesValues(form, "starts_on"), trainer_id: String(form.get("trainer_id") ?? "") };
  const missing: Record<string, string[]> | null = body.until === "" ? { until: ["Value is required"] } : body.count === "" ? { count: ["Value is required"] } : null;
  if (missing) return data<Result>({ message: "Please check the highlighted fields", errors: missing, values }, { status: 422 });
  try {
    const made = await api.post("/recurring-schedules", {
      body: { ...body, starts_on: String(form.get("starts_on") ?? ""), trainer_id: Number(form.get("trainer_id")) || undefined, member_id: Number(form.get("member_id")) || undefined } as never,
    });
    return redirectWithToast(`/recurring-schedules/${made.id}`, { summary: "Recurring sessions booked", detail: "The member has been e-mailed." }, api.headers);
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    return data<Result>({ message: err.message, errors: err.errors ?? {}, values }, { status: err.status >= 500 ? 503 : err.status });
  }
}

export default function RecurringSchedules() {
  const dates = useDates();
  const { list, trainers, ended, find, hits, member, today } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const values: SeriesValues = result?.values ?? { days: [], start_time: "09:00", end_time: "10:00", first: today, ends: "never", until: "", count: "", notes: "" };
  const link = "rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50";
  return (
    <ScheduleListPage
      title="Recurring schedules"
      links={
        <nav aria-label="Calendar views" className="flex gap-2 text-sm">
          <Link to="/calendar" className={link}>
            Calendar
          </Link>
          <EndedLink path="/recurring-schedules" ended={ended} className={link} />
        </nav>
      }
      columns={["Member", "When", "Trainer", "Next session"]}
      items={list}
      cells={(s) => [
        <Link key="member" to={`/recurring-schedules/${s.id}`} className="font-medium text-brand-700 underline">
          {s.member.name}
        </Link>,
        <WhenCell key="when" summary={s.summary} ended={s.ended} span={seriesSpan(s)} />,
        <span key="trainer" className="inline-flex items-center gap-1">
          <ColourDot colour={s.trainer.calendar_colour} /> {s.trainer.name}
        </span>,
        s.next_sessions[0] ? dates.session(s.next_sessions[0].starts_at) : "None",
      ]}
      ended={ended}
      none="No recurring schedules"
      form={{
        heading: "New recurring schedule",
        width: "max-w-2xl",
        children: (
          <>
            <MemberFinder label="Member" find={find} hits={hits} hrefFor={(id) => `/recurring-schedules?member=${id}#new-heading`} />
            {member ? (
              <Form method="post" className="space-y-3" noValidate>
                <input type="hidden" name="member_id" value={member.id} />
                <p className="text-sm">
                  For <strong>{member.name}</strong>
                </p>
                {result?.message && !Object.keys(result.errors).length ? (
                  <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
                    {result.message}
                  </p>
                ) : null}
                <TrainerSelect trainers={trainers} chosen={result?.values.trainer_id} errors={result?.errors} />
                <SeriesFields id="new" firstName="starts_on" firstLabel="First day" values={values} errors={result?.errors} />
                <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                  Book the sessions
                </button>
              </Form>
            ) : (
              <p className="text-sm text-slate-600">Find the member first.</p>
            )}
          </>
        ),
      }}
    />
  );
}
