import { Link } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { ActiveMembersPanel } from "./active-members";
import { ClassOccupancyPanel } from "./class-occupancy";
import { HeadlineCards } from "./headline-cards";
import { MembersByOfferingPanel, MembersByStatePanel } from "./membership-breakdown";
import { RevenuePanel } from "./revenue-by-month";
import type { DashboardData } from "./types";

/** The dashboard: headline figures, then the charts, all for the current organisation and gym. */
export function DashboardPage({ data, organisation, gym }: { data: DashboardData; organisation?: string; gym?: string }) {
  const dates = useDates();
  return (
    <div>
      <h1 className="text-2xl font-semibold">Dashboard</h1>
      <p className="mt-1 text-sm text-slate-600">
        {organisation}
        {gym ? ` · ${gym}` : ""}
        {/* Membership counts may be up to DASHBOARD_CACHE_SECONDS old (server/dashboard/member-summary.ts). */}
        {` · Members counted at ${dates.time(data.stats.membership_as_of)}`}
      </p>
      {data.reconciliationOpen ? (
        <p className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {data.reconciliationOpen} {data.reconciliationOpen === 1 ? "difference" : "differences"} between our payments and the payment providers'
          records to look at.{" "}
          <Link to="/reconciliation" className="font-semibold underline">
            See the reconciliation
          </Link>
        </p>
      ) : null}
      <div className="mt-6">
        <HeadlineCards stats={data.stats} />
      </div>
      {/* Two columns only where a card is wide enough for its chart to draw near 1:1; each column stacks
          on its own, so a tall card leaves no gap beside a short one. */}
      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-2 xl:items-start">
        <div className="space-y-6">
          <ActiveMembersPanel weeks={data.activeUsers} />
          <MembersByStatePanel byState={data.breakdown.by_state} />
          {data.classOccupancy?.some((w) => w.classes) ? <ClassOccupancyPanel weeks={data.classOccupancy} /> : null}
        </div>
        <div className="space-y-6">
          {data.costs ? <RevenuePanel months={data.costs} /> : null}
          <MembersByOfferingPanel byOffering={data.breakdown.by_offering} />
        </div>
      </div>
    </div>
  );
}
