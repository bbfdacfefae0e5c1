import { STATE_LABELS, type SubscriptionState } from "../../../domain/subscription";
import { BarChart } from "../../components/charts";
import { members } from "./format";
import { Panel } from "./panel";
import type { UserBreakdown } from "./types";

/** Most common first, as a gym thinks of them. */
const STATE_ORDER: SubscriptionState[] = ["active", "paused", "grace_period", "upcoming", "cancelled"];

/** Members by the state of their latest membership (GET /api/user-breakdown, by_state). */
export function MembersByStatePanel({ byState }: { byState: UserBreakdown["by_state"] }) {
  const total = STATE_ORDER.reduce((sum, s) => sum + byState[s], 0);
  return (
    <Panel id="members-by-state" title="Members by membership state" intro="Each member counts once, by their latest membership.">
      <BarChart
        id="members-by-state-chart"
        orientation="horizontal"
        title="Members by membership state"
        description={`Bar chart of ${members(total)} by the state of their latest membership.`}
        labels={STATE_ORDER.map((s) => STATE_LABELS[s])}
        data={STATE_ORDER.map((s) => byState[s])}
        labelHeading="State"
        valueHeading="Members"
        integer
      />
    </Panel>
  );
}

/** Members on each offering (GET /api/user-breakdown, by_offering). */
export function MembersByOfferingPanel({ byOffering }: { byOffering: UserBreakdown["by_offering"] }) {
  return (
    <Panel id="members-by-offering" title="Members by offering" intro="Members whose membership has not been cancelled, by the offering they are on.">
      {byOffering.length ? (
        <BarChart
          id="members-by-offering-chart"
          orientation="horizontal"
          title="Members by offering"
          description={`Bar chart of members on each of ${byOffering.length} ${
            byOffering.length === 1 ? "offering" : "offerings"
          }, most members first.`}
          labels={byOffering.map((o) => o.name)}
          data={byOffering.map((o) => o.members)}
          labelHeading="Offering"
          valueHeading="Members"
          integer
        />
      ) : (
        <p className="text-sm text-slate-600">No offerings yet.</p>
      )}
    </Panel>
  );
}
