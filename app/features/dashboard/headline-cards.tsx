import { formatCents } from "../../../domain/money";
import { formatCount } from "./format";
import type { Stats } from "./types";

/** The headline figures from GET /api/stats. */
export function HeadlineCards({ stats }: { stats: Stats }) {
  const cards = [
    { label: "Members", value: formatCount(stats.members) },
    {
      label: "Active memberships",
      value: formatCount(stats.subscriptions.active),
      // The chart below counts active members, grace periods included: say why its figure is larger.
      sub: stats.subscriptions.grace_period
        ? `${formatCount(stats.subscriptions.active + stats.subscriptions.grace_period)} active members, counting the ${formatCount(stats.subscriptions.grace_period)} in a grace period`
        : undefined,
    },
    { label: "Paused", value: formatCount(stats.subscriptions.paused) },
    { label: "In grace period", value: formatCount(stats.subscriptions.grace_period) },
    { label: "Visits today", value: formatCount(stats.visits_today) },
    { label: "Visits this week", value: formatCount(stats.visits_this_week) },
    // Money figures come only to staff who may see money here (null otherwise).
    stats.failed_payments === null ? null : { label: "Failed payments (30 days)", value: formatCount(stats.failed_payments) },
    stats.revenue_this_month === null
      ? null
      : {
          label: "Collected this month",
          value: formatCents(stats.revenue_this_month),
          // Net since issue 28: say so, and what was given back when anything was.
          sub: `Net of refunds and chargebacks${stats.returned_this_month ? ` (${formatCents(stats.returned_this_month)} given back)` : ""}. Last month ${formatCents(stats.revenue_last_month ?? 0)}`,
        },
  ].filter((c) => c !== null);
  return (
    <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {cards.map((c) => (
        <div key={c.label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">{c.label}</dt>
          <dd className="mt-1 text-2xl font-semibold">{c.value}</dd>
          {c.sub ? <dd className="text-xs text-slate-600">{c.sub}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
