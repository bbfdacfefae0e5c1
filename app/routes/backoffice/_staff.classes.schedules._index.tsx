import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { localDay } from "../../../domain/dates";
import { formatCalendarDayAs } from "../../../domain/calendar-day";
import { trainersFor } from "../../features/calendar/trainers.server";
import { EndedLink, ScheduleListPage, WhenCell } from "../../components/schedule-list-page";
import { ClassesNav } from "../../features/classes/classes-nav";
import { FormMessage, Select, TypeDot } from "../../features/classes/inputs";
import { RepeatFields, SlotFields, type ScheduleValues } from "../../features/classes/schedule-fields";
import { formValues, refusedOr, type Refused } from "../../features/classes/submit.server";
import { orRefusal } from "../../features/members/member-route.server";
import { gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Class schedules · Gym Membership" }];

/**
 * /classes/schedules (issue 34): the classes on the current gym's timetable, once or weekly (ended ones behind a
 * filter), and a form to schedule one. Each opens its page, where a weekly class is changed from a date or ended.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const ended = new URL(args.request.url).searchParams.get("ended") === "1";
  const me = await orRefusal(args.request, api.get("/me"));
  const gym = me.current_gym;
  const [list, types, trainers] = await orRefusal(
    args.request,
    Promise.all([
      api.get("/class-schedules", { query: { ...(gym ? { gym_id: String(gym.id) } : {}), ...(ended ? { ended: "1" } : {}) } }),
      api.get("/class-types"),
      trainersFor(api, me),
    ]),
  );
  return {
    gym,
    ended,
    list: list.data.map((s) => ({
      ...s,
      span:
        s.repeat === "once"
          ? ""
          : `From ${formatCalendarDayAs(s.starts_on, "d MMM yyyy")}${s.ends_on ? ` to ${formatCalendarDayAs(s.ends_on, "d MMM yyyy")}` : ""}`,
    })),
    types: types.data.map((t) => ({ id: t.id, name: t.name })),
    trainers,
    mayChange: me.permissions.includes("classes.write"),
    today: localDay(new Date()),
  };
}

const FIELDS = ["class_type_id", "trainer_id", "start_time", "duration_minutes", "room", "capacity", "waitlist_size", "repeat", "days", "starts_on", "until"];

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const values = formValues(form, ["days"]);
  return refusedOr(args.request, values, async () => {
    const made = await api.post("/class-schedules", { body: { ...values, days: form.getAll("days").map(String) } });
    return redirectWithToast(`/classes/schedules/${made.id}`, { summary: `${made.class_type.name} scheduled`, detail: made.summary }, api.headers);
  });
}

export default function ClassSchedules() {
  const { gym, ended, list, types, trainers, mayChange, today } = useLoaderData<typeof loader>();
  const result = useActionData<Refused<ScheduleValues>>();
  const values: ScheduleValues = result?.values ?? {
    class_type_id: String(types[0]?.id ?? ""),
    trainer_id: String(trainers[0]?.id ?? ""),
    start_time: "18:00",
    repeat: "weekly",
    days: [],
    starts_on: today,
  };
  return (
    <ScheduleListPage
      above={<ClassesNav current="schedules" />}
      title={<>Class schedules{gym ? <span className="font-normal text-slate-600"> at {gym.name}</span> : null}</>}
      links={
        <EndedLink
          path="/classes/schedules"
          ended={ended}
          className="rounded-md bg-white px-3 py-1.5 text-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        />
      }
      columns={["Class", "When", "Trainer", "Room", "Places"]}
      items={list}
      cells={(s) => [
        <span key="class" className="inline-flex items-center gap-2">
          <TypeDot colour={s.class_type.colour} />
          <Link to={`/classes/schedules/${s.id}`} className="font-medium text-brand-700 underline">
            {s.class_type.name}
          </Link>
        </span>,
        <WhenCell key="when" summary={s.summary} ended={s.ended} span={s.span} />,
        s.trainer.name,
        s.room ?? "",
        <>
          {s.capacity}
          {s.waitlist_size ? ` + ${s.waitlist_size} waiting` : ""}
        </>,
      ]}
      ended={ended}
      none="No classes scheduled"
      form={
        mayChange && gym
          ? {
              heading: <>Schedule a class at {gym.name}</>,
              width: "max-w-3xl",
              children: types.length ? (
                <Form method="post" className="space-y-4" noValidate>
                  <input type="hidden" name="gym_id" value={gym.id} />
                  <FormMessage result={result} fields={FIELDS} />
                  <Select
                    id="new-class_type_id"
                    name="class_type_id"
                    label="Class type"
                    value={String(values.class_type_id ?? "")}
                    errors={result?.errors}
                    options={types.map((t) => ({ value: t.id, label: t.name }))}
                  />
                  <RepeatFields values={values} errors={result?.errors} prefix="new" firstName="starts_on" firstLabel="First day" />
                  <SlotFields values={values} errors={result?.errors} trainers={trainers} prefix="new" />
                  <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                    Schedule the class
                  </button>
                </Form>
              ) : (
                <p className="text-sm text-slate-600">
                  Add a{" "}
                  <Link to="/classes/types" className="text-brand-700 underline">
                    class type
                  </Link>{" "}
                  first.
                </p>
              ),
            }
          : null
      }
    />
  );
}
