import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { DashboardPage } from "../../features/dashboard/dashboard-page";
import type { DashboardData } from "../../features/dashboard/types";
import { gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import type { loader as staffLoader } from "./_staff";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Dashboard · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs): Promise<DashboardData> {
  const api = gymApi(args);
  try {
    // One call for the page's four figures; `costs` is null for staff who may not see money in this gym.
    const { stats, active_users, breakdown, costs, reconciliation_open, class_occupancy } = await api.get("/dashboard", { query: { weeks: 12 } });
    return withDateTexts({ stats, activeUsers: active_users, breakdown, costs, reconciliationOpen: reconciliation_open, classOccupancy: class_occupancy });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff");
  return <DashboardPage data={data} organisation={staff?.me.current_organisation?.name} gym={staff?.me.current_gym?.name} />;
}
