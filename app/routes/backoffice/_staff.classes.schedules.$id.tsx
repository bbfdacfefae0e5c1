import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatCalendarDayAs } from "../../../domain/calendar-day";
import { addCalendarDays, formatLocal, formatTime, localDay, startOfLocalDay } from "../../../domain/dates";
import { trainersFor } from "../../features/calendar/trainers.server";
import { ClassesNav } from "../../features/classes/classes-nav";
import { FormMessage, Input, TypeDot } from "../../features/classes/inputs";
import { RepeatFields, SlotFields, type ScheduleValues } from "../../features/classes/schedule-fields";
import { formValues, refusedOr, type Refused } from "../../features/classes/submit.server";
import { orRefusal } from "../../features/members/member-route.server";
import { gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Class schedule · Gym Membership" }];

const idOf = (params: Record<string, string | undefined>) => {
  if (!/^\d{1,9}$/.test(params.id ?? "")) throw new Response("No such class schedule.", { status: 404 });
  return Number(params.id);
};

/**
 * /classes/schedules/{id} (issue 34): a class on the timetable, its next classes, and for admins: a weekly class
 * changed from a date on (the classes before stay; bookings carry over) or ended from a date (those booked e-mailed).
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const id = idOf(args.params);
  const [s, me] = await orRefusal(args.request, Promise.all([api.get("/class-schedules/:id", { params: { id } }), api.get("/me")]));
  const now = new Date();
  const [upcoming, trainers] = await orRefusal(
    args.request,
    Promise.all([
      api.get("/classes", {
        query: { from: now.toISOString(), to: startOfLocalDay(addCalendarDays(localDay(now), 28)).toISOString(), gym_id: String(s.gym_id), cancelled: "1" },
      }),
      trainersFor(api, me),
    ]),
  );
  const next = upcoming.data
    .filter((c) => c.schedule_id === s.id)
    .slice(0, 8)
    .map((c) => ({
      id: c.id,
      when: `${formatLocal(c.starts_at, "EEE d MMM")}, ${formatTime(c.starts_at)}`,
      booked: c.booked,
      capacity: c.capacity,
      cancelled: Boolean(c.cancelled_at),
    }));
  const withTrainer = trainers.some((t) => t.id === s.trainer.id) ? trainers : [{ id: s.trainer.id, name: s.trainer.name }, ...trainers];
  const span =
    s.repeat === "once"
      ? ""
      : `From ${formatCalendarDayAs(s.starts_on, "d MMM yyyy")}${s.ends_on ? ` to ${formatCalendarDayAs(s.ends_on, "d MMM yyyy")}` : ""}`;
  return { s: { ...s, span }, next, trainers: withTrainer, mayChange: me.permissions.includes("classes.write") && !s.ended, today: localDay(now) };
}

const CHANGE_FIELDS = ["from", "days", "until", "trainer_id", "start_time", "duration_minutes", "room", "capacity", "waitlist_size"];

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const id = idOf(args.params);
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");
  const values = formValues(form, ["days"]);
  if (intent === "end") {
    return refusedOr(
      args.request,
      values,
      async () => {
        const done = await api.delete("/class-schedules/:id", {
          params: { id },
          query: { from: String(form.get("end_from") ?? ""), ...(form.get("reason") ? { reason: String(form.get("reason")) } : {}) },
        });
        const told = done.classes_cancelled ? ` ${done.classes_cancelled} classes cancelled; those booked have been e-mailed.` : "";
        return redirectWithToast(
          `/classes/schedules/${id}`,
          { summary: "Class schedule ended", detail: `No classes from ${formatCalendarDayAs(done.from, "d MMM yyyy")}.${told}` },
          api.headers,
        );
      },
      "end",
    );
  }
  return refusedOr(
    args.request,
    values,
    async () => {
      const done = await api.put("/class-schedules/:id", { params: { id }, body: { ...values, days: form.getAll("days").map(String) } });
      const told = done.classes_cancelled
        ? ` ${done.classes_cancelled} classes no longer on the new days were cancelled; those booked have been e-mailed.`
        : "";
      return redirectWithToast(`/classes/schedules/${done.id}`, { summary: "Class schedule changed", detail: `${done.summary}.${told}` }, api.headers);
    },
    "change",
  );
}

export default function ClassSchedulePage() {
  const { s, next, trainers, mayChange, today } = useLoaderData<typeof loader>();
  const result = useActionData<Refused<ScheduleValues>>();
  const change = result?.intent === "change" ? result : undefined;
  const end = result?.intent === "end" ? result : undefined;
  const values: ScheduleValues = change?.values ?? {
    from: today,
    days: s.days.map(String),
    until: s.until ?? "",
    trainer_id: String(s.trainer.id),
    start_time: s.start_time,
    duration_minutes: String(s.duration_minutes),
    room: s.room ?? "",
    capacity: String(s.capacity),
    waitlist_size: String(s.waitlist_size),
  };
  return (
    <div className="space-y-4">
      <ClassesNav current="schedules" />
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-semibold">
          <TypeDot colour={s.class_type.colour} /> {s.class_type.name} <span className="font-normal text-slate-600">at {s.gym}</span>
        </h1>
        <p className="text-sm text-slate-700">
          {s.summary}. {s.span}
          {s.ended ? " Ended." : ""}
        </p>
        <p className="text-sm text-slate-700">
          {s.trainer.name}
          {s.room ? `, ${s.room}` : ""}. {s.capacity} places{s.waitlist_size ? `, ${s.waitlist_size} on the waitlist` : ""}.
        </p>
      </div>
      <section aria-labelledby="next-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="next-heading" className="font-semibold">
          Next classes
        </h2>
        {next.length ? (
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {next.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5">
                <Link to={`/classes/${c.id}`} className={`text-brand-700 underline ${c.cancelled ? "line-through" : ""}`}>
                  {c.when}
                </Link>
                <span className="text-slate-700">{c.cancelled ? "Cancelled" : `${c.booked}/${c.capacity} booked`}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-slate-600">None in the next four weeks.</p>
        )}
      </section>
      {mayChange && s.repeat === "weekly" ? (
        <section aria-labelledby="change-heading" className="max-w-3xl space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="change-heading" className="font-semibold">
            Change from a date
          </h2>
          <p className="text-sm text-slate-600">
            Classes before that day stay as they were. Bookings carry over to the new times; classes on days no longer chosen are cancelled and those booked are
            e-mailed.
          </p>
          <Form method="post" className="space-y-4" noValidate>
            <input type="hidden" name="intent" value="change" />
            <FormMessage result={change} fields={CHANGE_FIELDS} />
            <RepeatFields values={values} errors={change?.errors} prefix="change" firstName="from" firstLabel="From" />
            <SlotFields values={values} errors={change?.errors} trainers={trainers} prefix="change" />
            <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
              Change the schedule
            </button>
          </Form>
        </section>
      ) : null}
      {mayChange ? (
        <section aria-labelledby="end-heading" className="max-w-3xl space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="end-heading" className="font-semibold">
            End this schedule
          </h2>
          <Form method="post" className="space-y-4" noValidate>
            <input type="hidden" name="intent" value="end" />
            <FormMessage result={end} fields={["from", "reason"]} />
            <div className="grid gap-4 sm:grid-cols-2">
              <Input
                id="end_from"
                name="end_from"
                label="No classes from"
                type="date"
                value={String(end?.values.end_from ?? today)}
                errors={end?.errors.from ? { end_from: end.errors.from } : undefined}
              />
              <Input id="reason" name="reason" label="Reason, for those booked (optional)" value={String(end?.values.reason ?? "")} errors={end?.errors} />
            </div>
            <button type="submit" className="rounded-md bg-white px-4 py-2 text-sm font-semibold text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50">
              End the schedule
            </button>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
