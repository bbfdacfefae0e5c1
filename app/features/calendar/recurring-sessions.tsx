import { Link } from "@remix-run/react";
import { formatCalendarDayAs } from "../../../domain/calendar-day";
import { useDates } from "../../lib/date-texts";
import { ColourDot } from "../staff/staff-fields";

export interface SeriesSummary {
  id: number;
  summary: string;
  starts_on: string;
  until: string | null;
  count: number | null;
  gym: string;
  trainer: { id: number; name: string; calendar_colour: string };
  member: { id: number; name: string };
  next_sessions: { starts_at: string; occurrence_day: string | null }[];
}

const dayLabel = (day: string) => formatCalendarDayAs(day, "EEE d MMM yyyy");
/** "from Tue 1 Dec 2026, until Tue 2 Mar 2027" / "…, 10 sessions" / "…, no end date". */
export const seriesSpan = (s: Pick<SeriesSummary, "starts_on" | "until" | "count">) =>
  `from ${dayLabel(s.starts_on)}${s.until ? `, until ${dayLabel(s.until)}` : s.count ? `, ${s.count} sessions` : ", no end date"}`;

/** A member's recurring sessions on their member page (GET /api/users/{id}/recurring-schedule). */
export function RecurringSessions({ schedule, memberId }: { schedule: SeriesSummary[]; memberId: number }) {
  const dates = useDates();
  return (
    <section aria-labelledby="recurring-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id="recurring-heading" className="font-semibold">
          Recurring sessions
        </h2>
        <Link to={`/recurring-schedules?member=${memberId}#new-heading`} className="text-sm text-brand-700 underline">
          Add<span className="sr-only"> recurring sessions</span>
        </Link>
      </div>
      {schedule.length ? (
        <ul className="mt-3 space-y-3 text-sm">
          {schedule.map((s) => (
            <li key={s.id}>
              <Link to={`/recurring-schedules/${s.id}`} className="font-medium text-brand-700 underline">
                {s.summary}
              </Link>
              <p className="flex items-center gap-1 text-slate-700">
                <ColourDot colour={s.trainer.calendar_colour} /> with {s.trainer.name} at {s.gym}, {seriesSpan(s)}
              </p>
              {s.next_sessions.length ? <p className="text-slate-600">Next: {s.next_sessions.map((n) => dates.session(n.starts_at)).join("; ")}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-600">No recurring sessions.</p>
      )}
    </section>
  );
}
