import { formatCents } from "../../../domain/money";
import { BarChart } from "../../components/charts";
import { compactCents, formatCount, monthLabel, monthLongLabel } from "./format";
import { Panel } from "./panel";
import type { CostAndVisitMonth } from "./types";

/**
 * Money collected (net of refunds and chargebacks), visits and cost per visit for the last six months (GET
 * /api/cost-and-visit-breakdown); what was given back has a column of its own when any month gave some back.
 */
export function RevenuePanel({ months }: { months: CostAndVisitMonth[] }) {
  const first = months[0];
  const last = months[months.length - 1];
  const span = first && last ? `${monthLabel(first.month)} to ${monthLabel(last.month)}` : "";
  const anyReturned = months.some((m) => m.returned > 0);
  return (
    <Panel
      id="revenue"
      title="Revenue and cost per visit"
      intro="Payments collected each month, net of refunds and chargebacks, and what each visit cost a member on average. This month is so far."
    >
      <BarChart
        id="revenue-chart"
        title={`Revenue collected per month, ${span}`}
        description={`Bar chart of payments collected in each of the last ${months.length} months, net of refunds and chargebacks.`}
        labels={months.map((m) => monthLabel(m.month))}
        tableLabels={months.map((m) => monthLongLabel(m.month))}
        data={months.map((m) => m.revenue)}
        format={formatCents}
        formatAxis={compactCents}
        labelHeading="Month"
        valueHeading="Revenue"
      />
      <div className="mt-4 overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="sr-only">Revenue, visits and cost per visit by month, {span}</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="py-2 pr-3 font-medium">
                Month
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Revenue
              </th>
              {anyReturned ? (
                <th scope="col" className="whitespace-nowrap py-2 pr-3 text-right font-medium">
                  Given back
                </th>
              ) : null}
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Visits
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                Cost per visit
              </th>
            </tr>
          </thead>
          <tbody>
            {[...months].reverse().map((m) => (
              <tr key={m.month} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="whitespace-nowrap py-2 pr-3 text-left font-medium text-slate-900">
                  {monthLabel(m.month)}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums">{formatCents(m.revenue)}</td>
                {anyReturned ? <td className="py-2 pr-3 text-right tabular-nums">{m.returned ? formatCents(m.returned) : "–"}</td> : null}
                <td className="py-2 pr-3 text-right tabular-nums">{formatCount(m.visits)}</td>
                <td className="py-2 text-right tabular-nums">
                  {m.cost_per_visit == null ? (
                    <>
                      <span aria-hidden="true">–</span>
                      <span className="sr-only">No visits</span>
                    </>
                  ) : (
                    formatCents(m.cost_per_visit)
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
