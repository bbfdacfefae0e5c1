import { BarChart } from "../../components/charts";
import { formatCount, weekLabel, weekLongLabel } from "./format";
import { Panel } from "./panel";
import type { ClassOccupancyWeek } from "./types";

const percent = (n: number) => `${n}%`;

/** Group classes' places taken per week (GET /api/class-occupancy, issue 34): occupancy, classes run, attended. */
export function ClassOccupancyPanel({ weeks }: { weeks: ClassOccupancyWeek[] }) {
  const first = weeks[0];
  const last = weeks[weeks.length - 1];
  return (
    <Panel
      id="class-occupancy"
      title={`Class occupancy, last ${weeks.length} weeks`}
      intro="Places taken in group classes (booked, attended or not turned up) out of the places offered, each week. This week counts the bookings made so far; cancelled classes do not count."
    >
      {last ? (
        <p className="mb-3 text-sm text-slate-700">
          <span className="text-2xl font-semibold text-slate-900">{last.occupancy == null ? "No classes" : percent(last.occupancy)}</span> this week
          {last.places ? ` (${formatCount(last.taken)} of ${formatCount(last.places)} places in ${formatCount(last.classes)} classes)` : ""}
        </p>
      ) : null}
      <BarChart
        id="class-occupancy-chart"
        title={first ? `Class occupancy per week since the week of ${weekLabel(first.week_start)}` : "Class occupancy per week"}
        description={`Bar chart of the share of class places taken in each of the last ${weeks.length} weeks.`}
        labels={weeks.map((w) => weekLabel(w.week_start))}
        tableLabels={weeks.map((w, i) => (i === weeks.length - 1 ? `${weekLongLabel(w.week_start)} (so far)` : weekLongLabel(w.week_start)))}
        data={weeks.map((w) => w.occupancy)}
        format={percent}
        labelHeading="Week"
        valueHeading="Occupancy"
        emptyText="No classes"
        integer
      />
      <div className="mt-4 overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="sr-only">Classes, places taken and attended by week</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="py-2 pr-3 font-medium">
                Week
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Classes
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Places taken
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                Attended
              </th>
            </tr>
          </thead>
          <tbody>
            {[...weeks].reverse().map((w) => (
              <tr key={w.week_start} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="whitespace-nowrap py-2 pr-3 text-left font-medium text-slate-900">
                  {weekLabel(w.week_start)}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums">{formatCount(w.classes)}</td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  {formatCount(w.taken)} of {formatCount(w.places)}
                </td>
                <td className="py-2 text-right tabular-nums">{formatCount(w.attended)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
