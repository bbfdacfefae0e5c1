import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { capitaliseWords } from "../../../domain/names";
import { CostPerVisitPanel, SubscriptionPeriodsPanel, WeeklyVisitsPanel } from "../../features/members/activity-panels";
import { ifAllowed } from "../../lib/api.server";
import { memberRoute, orRefusal } from "../../features/members/member-route.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Activity of ${data?.member.name ? capitaliseWords(data.member.name) : "member"} · Gym Membership` }];

/** /members/{id}/activity: weekly visits, memberships over time and weekly cost per visit, drawn on the server. */
export async function loader(args: LoaderFunctionArgs) {
  const { id, api } = memberRoute(args);
  const [member, visits, periods, costs] = await orRefusal(
    args.request,
    Promise.all([
      api.get("/members/:id", { params: { id } }),
      api.get("/members/:id/weekly-visits", { params: { id }, query: { weeks: 26 } }),
      // What memberships cost is for staff who may see money in the member's gym.
      ifAllowed(api.get("/members/:id/subscription-periods", { params: { id } })),
      ifAllowed(api.get("/members/:id/weekly-cost-per-visit", { params: { id }, query: { weeks: 26 } })),
    ]),
  );
  return withDateTexts({ member, visits: visits.data, periods: periods?.data ?? null, costs: costs?.data ?? null, now: new Date().toISOString() });
}

export default function MemberActivity() {
  const { member, visits, periods, costs, now } = useLoaderData<typeof loader>();
  const name = capitaliseWords(member.name);
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/members" className="text-brand-700 underline">
          Members
        </Link>
        <span className="text-slate-500"> / </span>
        <Link to={`/members/${member.id}`} className="text-brand-700 underline">
          {name}
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">Activity</span>
      </nav>
      <h1 className="text-2xl font-semibold">Activity of {name}</h1>
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2 xl:items-start">
        <WeeklyVisitsPanel weeks={visits} />
        {costs ? <CostPerVisitPanel weeks={costs} /> : null}
        {periods ? <SubscriptionPeriodsPanel subscriptions={periods} now={now} /> : null}
      </div>
    </div>
  );
}
