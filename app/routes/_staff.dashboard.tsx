import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { formatCents } from "../../domain/money";
import { gymApi } from "../lib/api.server";
import { requireApp } from "../lib/host.server";
import { redirectForApiError } from "../lib/session.server";
import type { loader as staffLoader } from "./_staff";

export const meta: MetaFunction = () => [{ title: "Dashboard · Gym Membership" }];

interface Stats {
  members: number;
  subscriptions: { active: number; paused: number; grace_period: number; upcoming: number };
  visits_today: number;
  visits_this_week: number;
  failed_payments: number;
  revenue_this_month: number;
  revenue_last_month: number;
}

export async function loader(args: LoaderFunctionArgs) {
  requireApp(args.request, "backoffice");
  try {
    return { stats: await gymApi(args).get<Stats>("/stats") };
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export default function Dashboard() {
  const { stats } = useLoaderData<typeof loader>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/_staff");
  const cards = [
    { label: "Members", value: stats.members.toLocaleString("en-NZ") },
    { label: "Active memberships", value: stats.subscriptions.active.toLocaleString("en-NZ") },
    { label: "Paused", value: stats.subscriptions.paused.toLocaleString("en-NZ") },
    { label: "In grace period", value: stats.subscriptions.grace_period.toLocaleString("en-NZ") },
    { label: "Visits today", value: stats.visits_today.toLocaleString("en-NZ") },
    { label: "Visits this week", value: stats.visits_this_week.toLocaleString("en-NZ") },
    { label: "Failed payments (30 days)", value: stats.failed_payments.toLocaleString("en-NZ") },
    { label: "Collected this month", value: formatCents(stats.revenue_this_month), sub: `Last month ${formatCents(stats.revenue_last_month)}` },
  ];
  return (
    <div>
      <h1 className="text-2xl font-semibold">Dashboard</h1>
      <p className="mt-1 text-sm text-slate-600">
        {staff?.me.current_organisation?.name}
        {staff?.me.current_gym ? ` · ${staff.me.current_gym.name}` : ""}
      </p>
      <dl className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map((c) => (
          <div key={c.label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{c.label}</dt>
            <dd className="mt-1 text-2xl font-semibold">{c.value}</dd>
            {c.sub ? <dd className="text-xs text-slate-600">{c.sub}</dd> : null}
          </div>
        ))}
      </dl>
    </div>
  );
}
