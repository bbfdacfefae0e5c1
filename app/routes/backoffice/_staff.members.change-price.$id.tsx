import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { FREQUENCY_LABELS, type BillingFrequency } from "../../../domain/billing";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import { Pagination } from "../../features/members/members-table";
import { memberRoute, orRefusal } from "../../features/members/member-route.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Bulk price change · Gym Membership" }];

const SHOW = ["skipped", "changed", "all"] as const;
const SHOW_LABELS = { skipped: "Skipped", changed: "Changed", all: "All" } as const;

/**
 * /members/change-price/{id}: a bulk price change's progress while its job runs (the page reloads itself every two
 * seconds without JavaScript; with it, the figures refresh in place), then its report: the members changed and the
 * ones skipped with the reason, and a link to run the same change again.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { id, api } = memberRoute(args);
  const url = new URL(args.request.url).searchParams;
  const query = { show: url.get("show") ?? undefined, page: url.get("page") ?? undefined };
  return withDateTexts(await orRefusal(args.request, api.get("/members/change-price/:id", { params: { id }, query })));
}

export default function BulkPriceChangeReport() {
  const dates = useDates();
  const report = useLoaderData<typeof loader>();
  const params = new URLSearchParams(useLocation().search);
  const running = report.status !== "done";
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => state === "idle" && revalidate(), 1000);
    return () => clearInterval(timer);
  }, [running, revalidate, state]);
  const price = (id: number) => {
    const p = report.prices.find((x) => x.id === id);
    return p ? `${p.offering}: ${formatCents(p.amount)} ${FREQUENCY_LABELS[p.billing_frequency as BillingFrequency].toLowerCase()}` : `price ${id}`;
  };
  const r = report.request;
  const again = new URLSearchParams([
    ...r.from_price_ids.map((id) => ["from_price_ids", String(id)]),
    ["to_price_id", String(r.to_price_id)],
    ["from", r.from],
    ...(r.date ? [["date", r.date]] : []),
    ["gym", r.filters.gym_id ? String(r.filters.gym_id) : "all"],
    ...(r.filters.status ? [["status", r.filters.status]] : []),
    ...(r.filters.tag ? [["tag", r.filters.tag]] : []),
    ...(r.filters.q ? [["q", r.filters.q]] : []),
  ]);
  const percent = report.total ? Math.floor((report.done / report.total) * 100) : 100;
  const show = (report.meta.show ?? "skipped") as (typeof SHOW)[number];
  return (
    <div className="mx-auto max-w-4xl space-y-5">
      {/* Without JavaScript the page asks for itself again while the job runs (a script would have refreshed it in place). */}
      {running ? (
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      ) : null}
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/members" className="text-brand-700 underline">
          Members
        </Link>
        <span className="text-slate-500"> / </span>
        <Link to="/members/change-price" className="text-brand-700 underline">
          Change prices in bulk
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">{dates.date(report.created_at)}</span>
      </nav>
      <h1 className="text-2xl font-semibold">Bulk price change</h1>
      <p className="text-sm text-slate-700">
        {r.from_price_ids.map(price).join(", ")} → <strong>{price(r.to_price_id)}</strong>, from {r.from === "date" && r.date ? formatDay(r.date) : "each member's period end"}
        {r.notify ? "; members e-mailed" : "; no e-mails"}
        {r.replace_scheduled ? "; changes already scheduled replaced" : ""}.
      </p>
      <section aria-labelledby="progress-heading" className="rounded-lg border border-slate-200 bg-white p-4" aria-live="polite" aria-busy={running}>
        <h2 id="progress-heading" className="font-semibold">
          {report.status === "done" ? "Finished" : report.status === "running" ? "Moving the members…" : "Waiting to start…"}
        </h2>
        <progress className="mt-3 h-3 w-full accent-brand-600" max={report.total || 1} value={report.done} aria-label="Members done">
          {percent}%
        </progress>
        <p className="mt-2 text-sm text-slate-700" data-testid="bulk-counts">
          {report.done.toLocaleString("en-NZ")} of {report.total.toLocaleString("en-NZ")} done ({percent}%) · {report.changed.toLocaleString("en-NZ")} changed ·{" "}
          {report.skipped.toLocaleString("en-NZ")} skipped
        </p>
        {report.status === "done" ? (
          <p className="mt-3 text-sm">
            <Link to={`/members/change-price?${again}`} className="text-brand-700 underline">
              Run the same change again
            </Link>{" "}
            <span className="text-slate-600">(members already moved are skipped: nobody is changed twice)</span>
          </p>
        ) : null}
      </section>
      <section aria-labelledby="members-heading" className="space-y-3">
        <h2 id="members-heading" className="font-semibold">
          Members
        </h2>
        <nav aria-label="Which members" className="flex gap-2 text-sm">
          {SHOW.map((s) => (
            <Link
              key={s}
              to={`?show=${s}`}
              aria-current={s === show ? "page" : undefined}
              className={`rounded-md border px-3 py-1.5 ${s === show ? "border-brand-600 bg-brand-50 font-semibold text-brand-800" : "border-slate-300 bg-white text-slate-800"}`}
            >
              {SHOW_LABELS[s]}
            </Link>
          ))}
        </nav>
        {report.members.length ? (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="min-w-full text-left text-sm">
              <thead className="bg-slate-50 text-xs text-slate-600">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Member</th>
                  <th scope="col" className="px-3 py-2 font-medium">Outcome</th>
                  <th scope="col" className="px-3 py-2 font-medium">What happened</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {report.members.map((m) => (
                  <tr key={m.subscription_id}>
                    <td className="px-3 py-2">
                      <Link to={`/members/${m.user_id}`} className="text-brand-700 underline">
                        {m.name}
                      </Link>
                    </td>
                    <td className="px-3 py-2">{m.outcome === "pending" ? "Waiting" : m.outcome === "changed" ? "Changed" : "Skipped"}</td>
                    <td className="px-3 py-2 text-slate-700">{m.reason ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">{show === "skipped" ? "Nobody was skipped." : show === "changed" ? "Nobody has been changed yet." : "No members."}</p>
        )}
        <Pagination meta={report.meta} params={params} />
      </section>
    </div>
  );
}
