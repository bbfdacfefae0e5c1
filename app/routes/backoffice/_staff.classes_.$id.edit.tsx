import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { isCalendarDay } from "../../../domain/schemas/dates";
import { formatLocal, formatTime, localDay, localInstant } from "../../../domain/dates";
import { trainersFor } from "../../features/calendar/trainers.server";
import { FormMessage, Input, Select, TypeDot } from "../../features/classes/inputs";
import { formValues, refusedOr, type Refused } from "../../features/classes/submit.server";
import { orRefusal } from "../../features/members/member-route.server";
import { gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Change a class · Gym Membership" }];

const idOf = (params: Record<string, string | undefined>) => {
  if (!/^\d{1,9}$/.test(params.id ?? "")) throw new Response("No such class.", { status: 404 });
  return Number(params.id);
};
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const hhmm = (d: string | Date) => formatLocal(d, "HH:mm");

/**
 * /classes/{id}/edit (issue 34): one class moved, given another trainer or room, or its places changed (those booked
 * are e-mailed if it moves); or cancelled, which e-mails everyone booked or waiting and cancels their bookings.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const id = idOf(args.params);
  const [cls, me] = await orRefusal(args.request, Promise.all([api.get("/classes/:id", { params: { id } }), api.get("/me")]));
  const trainers = await orRefusal(args.request, trainersFor(api, me));
  return {
    cls: { ...cls, when: `${formatLocal(cls.starts_at, "EEEE d MMMM yyyy")}, ${formatTime(cls.starts_at)} to ${formatTime(cls.ends_at)}` },
    trainers: trainers.some((t) => t.id === cls.trainer.id) ? trainers : [{ id: cls.trainer.id, name: cls.trainer.name }, ...trainers],
    values: {
      day: localDay(cls.starts_at),
      start_time: hhmm(cls.starts_at),
      end_time: hhmm(cls.ends_at),
      trainer_id: String(cls.trainer.id),
      room: cls.room ?? "",
      capacity: String(cls.capacity),
      waitlist_size: String(cls.waitlist_size),
    },
    over: new Date(cls.starts_at) <= new Date(),
    mayChange: me.permissions.includes("classes.write"),
  };
}

type Values = Record<string, string | string[]>;

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const id = idOf(args.params);
  const form = await readForm(args.request);
  const values = formValues(form);
  const intent = String(form.get("intent") ?? "");
  if (intent === "cancel") {
    return refusedOr(
      args.request,
      values,
      async () => {
        const done = await api.delete("/classes/:id", { params: { id }, query: form.get("reason") ? { reason: String(form.get("reason")) } : {} });
        const detail = done.told
          ? `${done.told} ${done.told === 1 ? "person was" : "people were"} booked or waiting and ${done.told === 1 ? "has" : "have"} been e-mailed.`
          : "Nobody was booked.";
        return redirectWithToast(`/classes?week=${localDay(done.starts_at)}`, { summary: `${done.class_type.name} cancelled`, detail }, api.headers);
      },
      "cancel",
    );
  }
  const day = String(values.day ?? "");
  const errors: Record<string, string[]> = {};
  if (!isCalendarDay(day)) errors.day = ["Enter a date"];
  if (!CLOCK.test(String(values.start_time ?? ""))) errors.start_time = ["Enter a time"];
  if (!CLOCK.test(String(values.end_time ?? ""))) errors.end_time = ["Enter a time"];
  if (Object.keys(errors).length)
    return data<Refused<Values>>({ message: "Please check the highlighted fields", errors, values, intent: "change" }, { status: 422 });
  const body = {
    starts_at: localInstant(day, String(values.start_time)).toISOString(),
    ends_at: localInstant(day, String(values.end_time)).toISOString(),
    trainer_id: values.trainer_id,
    room: values.room,
    capacity: values.capacity,
    waitlist_size: values.waitlist_size,
  };
  const answer = await refusedOr(
    args.request,
    values,
    async () => {
      const done = await api.put("/classes/:id", { params: { id }, body });
      return redirectWithToast(
        `/classes?week=${localDay(done.starts_at)}`,
        {
          summary: `${done.class_type.name} changed`,
          detail: `${formatLocal(done.starts_at, "EEE d MMM")}, ${formatTime(done.starts_at)} to ${formatTime(done.ends_at)}`,
        },
        api.headers,
      );
    },
    "change",
  );
  // The API names the instants; the form shows them as its time fields.
  if ("data" in answer && answer.data && typeof answer.data === "object" && "errors" in answer.data) {
    const e = (answer.data as Refused<Values>).errors;
    if (e.starts_at) e.start_time = e.starts_at;
    if (e.ends_at) e.end_time = e.ends_at;
    delete e.starts_at;
    delete e.ends_at;
  }
  return answer;
}

export default function ChangeClass() {
  const { cls, trainers, values: current, over, mayChange } = useLoaderData<typeof loader>();
  const result = useActionData<Refused<Values>>();
  const change = result?.intent === "change" ? result : undefined;
  const cancel = result?.intent === "cancel" ? result : undefined;
  const v = (change?.values ?? current) as Record<string, string>;
  const canChange = mayChange && !cls.cancelled_at && !over;
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <p className="text-sm">
        <Link to={`/classes?week=${current.day}`} className="text-brand-700 hover:underline">
          Timetable
        </Link>
      </p>
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-semibold">
          <TypeDot colour={cls.class_type.colour} /> {cls.class_type.name} <span className="font-normal text-slate-600">at {cls.gym}</span>
        </h1>
        <p className={`text-sm text-slate-700 ${cls.cancelled_at ? "line-through" : ""}`}>{cls.when}</p>
        <p className="text-sm text-slate-700">
          {cls.booked}/{cls.capacity} booked{cls.waitlisted ? `, ${cls.waitlisted} waiting` : ""}.{" "}
          <Link to={`/classes/${cls.id}`} className="text-brand-700 underline">
            Roster
          </Link>
        </p>
      </div>
      {cls.cancelled_at ? (
        <p role="status" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          This class is cancelled{cls.cancel_reason ? `: ${cls.cancel_reason}` : "."}
        </p>
      ) : over ? (
        <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">This class has started: it can no longer be changed.</p>
      ) : !mayChange ? (
        <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">Only admins can change the timetable.</p>
      ) : null}
      {canChange ? (
        <section aria-labelledby="change-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="change-heading" className="font-semibold">
            Change this class
          </h2>
          <p className="text-sm text-slate-600">Only this class changes; the rest of its schedule stays. If it moves, those booked are e-mailed.</p>
          <Form method="post" className="space-y-4" noValidate>
            <input type="hidden" name="intent" value="change" />
            <FormMessage result={change} fields={["day", "start_time", "end_time", "trainer_id", "room", "capacity", "waitlist_size"]} />
            <div className="grid gap-4 sm:grid-cols-3">
              <Input name="day" label="Day" type="date" value={v.day} errors={change?.errors} />
              <Input name="start_time" label="Start" type="time" value={v.start_time} errors={change?.errors} />
              <Input name="end_time" label="End" type="time" value={v.end_time} errors={change?.errors} />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <Select
                name="trainer_id"
                label="Trainer"
                value={v.trainer_id}
                errors={change?.errors}
                options={trainers.map((t) => ({ value: t.id, label: t.name }))}
              />
              <Input name="room" label="Room or area" value={v.room} errors={change?.errors} />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <Input name="capacity" label="Places" type="number" min={1} value={v.capacity} errors={change?.errors} />
              <Input name="waitlist_size" label="Waitlist places" type="number" min={0} value={v.waitlist_size} errors={change?.errors} />
            </div>
            <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
              Save this class
            </button>
          </Form>
        </section>
      ) : null}
      {canChange ? (
        <section aria-labelledby="cancel-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="cancel-heading" className="font-semibold">
            Cancel this class
          </h2>
          <p className="text-sm text-slate-600">Everyone booked or waiting is e-mailed and their bookings are cancelled. The rest of its schedule stays.</p>
          <Form method="post" className="space-y-4" noValidate>
            <input type="hidden" name="intent" value="cancel" />
            <FormMessage result={cancel} fields={["reason"]} />
            <Input name="reason" label="Reason, for those booked (optional)" value={String(cancel?.values.reason ?? "")} errors={cancel?.errors} />
            <button type="submit" className="rounded-md bg-white px-4 py-2 text-sm font-semibold text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50">
              Cancel the class
            </button>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
