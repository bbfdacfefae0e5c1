import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { DashboardPage } from "../features/dashboard/dashboard-page";
import type { ActiveUsersWeek, CostAndVisitMonth, DashboardData, Stats, UserBreakdown } from "../features/dashboard/types";
import { apiPath, gymApi, ifAllowed } from "../lib/api.server";
import { requireApp } from "../lib/host.server";
import { redirectForApiError } from "../lib/session.server";
import type { loader as staffLoader } from "./_staff";

export const meta: MetaFunction = () => [{ title: "Dashboard · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs): Promise<DashboardData> {
  requireApp(args.request, "backoffice");
  const api = gymApi(args);
  try {
    const [stats, activeUsers, breakdown, costs] = await Promise.all([
      api.get<Stats>(apiPath`/stats`),
      api.get<ActiveUsersWeek[]>(apiPath`/active-users`, { weeks: 12 }),
      api.get<UserBreakdown>(apiPath`/user-breakdown`),
      // Revenue is for staff who may see money in this gym.
      ifAllowed(api.get<CostAndVisitMonth[]>(apiPath`/cost-and-visit-breakdown`)),
    ]);
    return { stats, activeUsers, breakdown, costs };
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/_staff");
  return <DashboardPage data={data} organisation={staff?.me.current_organisation?.name} gym={staff?.me.current_gym?.name} />;
}
