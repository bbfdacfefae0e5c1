import type { AnswerOf } from "../../lib/api-contract";
import { useDates } from "../../lib/date-texts";
import { ClassColour } from "../classes/class-colour";

type MemberClasses = AnswerOf<"get", "/members/:id/classes">;
type Listed = MemberClasses["upcoming"][number];

const STATUS: Record<string, string> = {
  booked: "Booked",
  waitlisted: "On the waitlist",
  attended: "Attended",
  no_show: "No-show",
  late_cancelled: "Cancelled late",
};

/** A member's group classes (issue 34): how many they came to and missed, what is booked next, and the last ones. */
export function MemberClassesPanel({ classes }: { classes: MemberClasses }) {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return (
    <section aria-labelledby="classes-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="classes-heading" className="font-semibold">
        Classes
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        <span className="text-lg font-semibold text-slate-900">{plural(classes.attended, "class", "classes")} attended</span>
        {classes.no_shows || classes.late_cancelled ? (
          <span>
            {" "}
            · {plural(classes.no_shows, "no-show", "no-shows")} · {plural(classes.late_cancelled, "late cancellation", "late cancellations")}
          </span>
        ) : null}
      </p>
      <ClassList heading="Booked next" rows={classes.upcoming} empty="Nothing booked." />
      <ClassList heading="Last classes" rows={classes.recent} empty="No classes yet." />
    </section>
  );
}

function ClassList({ heading, rows, empty }: { heading: string; rows: Listed[]; empty: string }) {
  const dates = useDates();
  return (
    <>
      <h3 className="mt-3 text-sm font-semibold text-slate-800">{heading}</h3>
      {rows.length ? (
        <ul className="mt-1 space-y-1 text-sm">
          {rows.map((k) => (
            <li key={k.booking_id} className="flex flex-wrap items-baseline justify-between gap-x-2">
              <span className="flex items-center gap-1.5">
                <ClassColour colour={k.colour} size={10} />
                <span>
                  <span className="font-medium">{k.name}</span> {dates.session(k.starts_at)} at {k.gym}
                </span>
              </span>
              <span className={k.status === "no_show" || k.status === "late_cancelled" ? "text-red-800" : "text-slate-600"}>
                {k.cancelled_at ? "Class cancelled" : STATUS[k.status] ?? k.status}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-600">{empty}</p>
      )}
    </>
  );
}
