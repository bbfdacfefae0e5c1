import { BarChart, LineChart } from "../../components/charts";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import { compactCents, weekLabel, weekLongLabel } from "../dashboard/format";
import { Panel } from "../dashboard/panel";
import { priceText } from "./members-table";
import type { CostWeek, SubscriptionPeriod, VisitWeek } from "./activity-types";

/** A visible table of a chart's figures (the chart's own table is for screen readers only). */
function FigureTable({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium text-brand-700">Show the figures</summary>
      <div className="mt-2 max-h-72 overflow-y-auto" tabIndex={0} role="group" aria-label={caption}>
        <table className="min-w-full divide-y divide-slate-200">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50">
            <tr>
              {head.map((h) => (
                <th key={h} scope="col" className="px-2 py-1 text-left font-semibold text-slate-700">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r, i) => (
              <tr key={i}>
                {r.map((cell, j) => (
                  <td key={j} className="px-2 py-1 text-slate-800">
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export function WeeklyVisitsPanel({ weeks }: { weeks: VisitWeek[] }) {
  const total = weeks.reduce((n, w) => n + w.visits, 0);
  return (
    <Panel id="weekly-visits" title={`Visits per week, last ${weeks.length} weeks`} intro={`${total} successful visits; the current week so far.`}>
      <BarChart
        title="Visits per week"
        description={`Bar chart of successful visits in each of the last ${weeks.length} weeks: ${total} in all.`}
        labels={weeks.map((w) => weekLabel(w.week_start))}
        tableLabels={weeks.map((w) => weekLongLabel(w.week_start))}
        data={weeks.map((w) => w.visits)}
        labelHeading="Week"
        valueHeading="Visits"
        integer
      />
      <FigureTable caption="Visits per week" head={["Week", "Visits"]} rows={weeks.map((w) => [weekLongLabel(w.week_start), w.visits])} />
    </Panel>
  );
}

export function CostPerVisitPanel({ weeks }: { weeks: CostWeek[] }) {
  return (
    <Panel
      id="cost-per-visit"
      title="Cost per visit, by week"
      intro="What the membership cost in each week (each payment spread over the days it paid for), divided by that week's visits."
    >
      <LineChart
        title="Cost per visit by week"
        description="Line chart of the membership's cost per visit in each week; weeks without visits have no figure."
        labels={weeks.map((w) => weekLabel(w.week_start))}
        tableLabels={weeks.map((w) => weekLongLabel(w.week_start))}
        data={weeks.map((w) => w.cost_per_visit)}
        format={formatCents}
        formatAxis={compactCents}
        labelHeading="Week"
        valueHeading="Cost per visit"
        emptyText="No visits"
      />
      <FigureTable
        caption="Cost per visit by week"
        head={["Week", "Cost", "Visits", "Cost per visit"]}
        rows={weeks.map((w) => [weekLongLabel(w.week_start), formatCents(w.cost), w.visits, w.cost_per_visit == null ? "No visits" : formatCents(w.cost_per_visit)])}
      />
    </Panel>
  );
}

/** Each subscription as a bar over time, its paid periods drawn inside it. */
export function SubscriptionPeriodsPanel({ subscriptions, now }: { subscriptions: SubscriptionPeriod[]; now: string }) {
  const dates = useDates();
  const end = Date.parse(now);
  const start = Math.min(end - 86_400_000, ...subscriptions.map((s) => Date.parse(s.started_at)));
  const width = 440;
  const left = 8;
  const row = 34;
  const x = (t: number) => left + ((Math.min(t, end) - start) / (end - start)) * (width - left * 2);
  const height = Math.max(1, subscriptions.length) * row + 24;
  return (
    <Panel id="subscription-periods" title="Memberships over time" intro="Each membership from when it began to when it ended (or today), with the periods paid for shaded.">
      {subscriptions.length === 0 ? (
        <p className="text-sm text-slate-700">No memberships yet.</p>
      ) : (
        <>
          <div className="max-w-[500px]">
            <svg role="img" aria-label={`Timeline of ${subscriptions.length} memberships from ${dates.date(new Date(start))} to today`} viewBox={`0 0 ${width} ${height}`} className="h-auto w-full">
              {subscriptions.map((s, i) => {
                const y = i * row + 4;
                const from = x(Date.parse(s.started_at));
                const to = x(s.ended_at ? Date.parse(s.ended_at) : end);
                return (
                  <g key={s.id}>
                    <text x={left} y={y + 9} className="fill-slate-700 text-[10px]">
                      {s.offering} · {s.label}
                    </text>
                    <rect x={from} y={y + 13} width={Math.max(2, to - from)} height={14} rx={3} className="fill-slate-200" />
                    {s.periods.map((p, j) => (
                      <rect key={j} x={x(Date.parse(p.from))} y={y + 13} width={Math.max(1, x(Date.parse(p.to)) - x(Date.parse(p.from)))} height={14} className="fill-brand-500" />
                    ))}
                  </g>
                );
              })}
              <text x={left} y={height - 4} className="fill-slate-600 text-[10px]">
                {dates.date(new Date(start))}
              </text>
              <text x={width - left} y={height - 4} textAnchor="end" className="fill-slate-600 text-[10px]">
                Today
              </text>
            </svg>
          </div>
          <FigureTable
            caption="Memberships"
            head={["Membership", "Price", "State", "From", "To", "Periods paid"]}
            rows={subscriptions.map((s) => [
              s.offering,
              priceText({ amount: s.amount, billing_frequency: s.billing_frequency, term: s.term, offering: s.offering, price_id: 0, subscription_id: s.id }),
              s.label,
              dates.date(s.started_at),
              s.ended_at ? dates.date(s.ended_at) : "—",
              s.periods.length,
            ])}
          />
        </>
      )}
    </Panel>
  );
}
