import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { isCalendarDay } from "../../../domain/schemas/dates";
import { formatCalendarDayAs } from "../../../domain/calendar-day";
import { addCalendarDays, formatTime, localDay, localWeekStart, startOfLocalDay } from "../../../domain/dates";
import { ClassesNav } from "../../features/classes/classes-nav";
import { colourClasses } from "../../features/classes/colours";
import { TypeDot } from "../../features/classes/inputs";
import { orRefusal } from "../../features/members/member-route.server";
import { gymApi } from "../../lib/api.server";

export const meta: MetaFunction = () => [{ title: "Classes · Gym Membership" }];

/**
 * /classes (issue 34): the week's timetable at the gym chosen in the gym switcher (or ?gym=), day by day, each class
 * with its time, trainer, room and places taken; cancelled ones struck through. A class opens its roster; admins change
 * or cancel it from there or from "Change". Server-rendered, the week moved by links.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const asked = url.searchParams.get("week") ?? "";
  const week = localWeekStart(isCalendarDay(asked) ? startOfLocalDay(asked) : new Date());
  const me = await orRefusal(args.request, api.get("/me"));
  const askedGym = Number(url.searchParams.get("gym")) || null;
  const gym = me.gyms.find((g) => g.id === askedGym) ?? me.current_gym;
  if (!gym) return { week, gym: null, gyms: me.gyms, days: [], mayChange: false, today: localDay(new Date()) };
  const list = await orRefusal(
    args.request,
    api.get("/classes", {
      query: { from: startOfLocalDay(week).toISOString(), to: startOfLocalDay(addCalendarDays(week, 7)).toISOString(), gym_id: String(gym.id), cancelled: "1" },
    }),
  );
  const days = Array.from({ length: 7 }, (_, i) => addCalendarDays(week, i)).map((day) => ({
    day,
    label: formatCalendarDayAs(day, "EEE d MMM"),
    classes: list.data
      .filter((c) => localDay(c.starts_at) === day)
      .map((c) => ({
        id: c.id,
        name: c.class_type.name,
        colour: c.class_type.colour,
        time: `${formatTime(c.starts_at)} to ${formatTime(c.ends_at)}`,
        trainer: c.trainer.name,
        room: c.room,
        booked: c.booked,
        capacity: c.capacity,
        waitlisted: c.waitlisted,
        cancelled: Boolean(c.cancelled_at),
        past: new Date(c.starts_at) <= new Date(),
      })),
  }));
  return { week, gym, gyms: me.gyms, days, mayChange: me.permissions.includes("classes.write"), today: localDay(new Date()) };
}

export default function Classes() {
  const { week, gym, gyms, days, mayChange, today } = useLoaderData<typeof loader>();
  const q = (w: string) => `/classes?week=${w}${gym ? `&gym=${gym.id}` : ""}`;
  return (
    <div className="space-y-4">
      <ClassesNav current="timetable" />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Classes{gym ? <span className="font-normal text-slate-600"> at {gym.name}</span> : null}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {gyms.length > 1 ? (
            <form method="get" className="flex items-center gap-1">
              <input type="hidden" name="week" value={week} />
              <label htmlFor="gym" className="sr-only">
                Gym
              </label>
              <select id="gym" name="gym" defaultValue={gym?.id} className="rounded-md border border-slate-300 bg-white px-2 py-1.5">
                {gyms.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
              <button type="submit" className="rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
                Show
              </button>
            </form>
          ) : null}
          <nav aria-label="Weeks" className="flex gap-1">
            <Link to={q(addCalendarDays(week, -7))} className="rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
              ← Previous week
            </Link>
            <Link to={q(localWeekStart(startOfLocalDay(today)))} className="rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
              This week
            </Link>
            <Link to={q(addCalendarDays(week, 7))} className="rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
              Next week →
            </Link>
          </nav>
          {mayChange ? (
            <Link to="/classes/schedules#new-heading" className="rounded-md bg-brand-700 px-3 py-1.5 font-semibold text-white hover:bg-brand-800">
              Schedule a class
            </Link>
          ) : null}
        </div>
      </div>
      {!gym ? (
        <p className="text-sm text-slate-600">You work at no gym yet.</p>
      ) : (
        <section aria-label={`Week of ${formatCalendarDayAs(week, "d MMMM yyyy")}`} className="grid gap-2 lg:grid-cols-7">
          {days.map((d) => (
            <div key={d.day} className={`min-h-[8rem] rounded-lg border bg-white ${d.day === today ? "border-brand-500" : "border-slate-200"}`}>
              <h2 className={`border-b border-slate-100 px-2 py-1.5 text-sm font-semibold ${d.day === today ? "text-brand-800" : ""}`}>{d.label}</h2>
              {d.classes.length ? (
                <ul className="space-y-1.5 p-1.5">
                  {d.classes.map((c) => (
                    <li
                      key={c.id}
                      className={`rounded-md border-l-4 bg-slate-50 p-1.5 text-xs ${colourClasses(c.colour).edge} ${c.cancelled ? "opacity-70" : ""}`}
                    >
                      <Link
                        to={`/classes/${c.id}`}
                        className={`flex items-center gap-1 font-semibold text-slate-900 underline-offset-2 hover:underline ${
                          c.cancelled ? "line-through" : ""
                        }`}
                      >
                        <TypeDot colour={c.colour} />
                        {c.name}
                      </Link>
                      <p className={c.cancelled ? "line-through" : ""}>{c.time}</p>
                      <p className="text-slate-700">
                        {c.trainer}
                        {c.room ? `, ${c.room}` : ""}
                      </p>
                      {c.cancelled ? (
                        <p className="font-semibold text-red-700">Cancelled</p>
                      ) : (
                        <p className="text-slate-700">
                          {c.booked}/{c.capacity} booked{c.waitlisted ? `, ${c.waitlisted} waiting` : ""}
                        </p>
                      )}
                      {mayChange && !c.cancelled && !c.past ? (
                        <Link to={`/classes/${c.id}/edit`} className="text-brand-700 underline" aria-label={`Change ${c.name} on ${d.label}, ${c.time}`}>
                          Change
                        </Link>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="p-2 text-xs text-slate-500">No classes</p>
              )}
            </div>
          ))}
        </section>
      )}
    </div>
  );
}
