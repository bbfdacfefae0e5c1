import { LineChart } from "../../components/charts";
import { formatCount, members, weekLabel, weekLongLabel } from "./format";
import { Panel } from "./panel";
import type { ActiveUsersWeek } from "./types";

/** Active members at the end of each of the last weeks (GET /api/active-users). */
export function ActiveMembersPanel({ weeks }: { weeks: ActiveUsersWeek[] }) {
  const first = weeks[0];
  const last = weeks[weeks.length - 1];
  const change = first && last ? last.active - first.active : 0;
  const trend = change === 0 ? "no change" : `${change > 0 ? "up" : "down"} ${formatCount(Math.abs(change))}`;
  return (
    <Panel
      id="active-members"
      title={`Active members, last ${weeks.length} weeks`}
      intro="Members with a running membership at the end of each week. Paused, cancelled and not yet started memberships do not count; members in a payment grace period do."
    >
      {last ? (
        <p className="mb-3 text-sm text-slate-700">
          <span className="text-2xl font-semibold text-slate-900">{formatCount(last.active)}</span> now, <span className="font-medium">{trend}</span>{" "}
          since the week of {weekLabel(first.week_start)}
        </p>
      ) : null}
      <LineChart
        id="active-members-chart"
        title={first ? `Active members per week since the week of ${weekLabel(first.week_start)}` : "Active members per week"}
        description={
          first && last
            ? `Line chart. ${members(first.active)} in the week of ${weekLabel(first.week_start)}, ${members(last.active)} now: ${trend}.`
            : "No weeks to show."
        }
        labels={weeks.map((w) => weekLabel(w.week_start))}
        tableLabels={weeks.map((w, i) => (i === weeks.length - 1 ? `${weekLongLabel(w.week_start)} (so far)` : weekLongLabel(w.week_start)))}
        data={weeks.map((w) => w.active)}
        labelHeading="Week"
        valueHeading="Active members"
        integer
      />
    </Panel>
  );
}
