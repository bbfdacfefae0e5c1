import { Link } from "@remix-run/react";
import { FilterDate, FilterSelect, ListFilters } from "../../components/list-filters";
import { useDates } from "../../lib/date-texts";
import { WEBHOOK_CALL_STATUSES, WEBHOOK_PROVIDER_NAMES } from "../../../domain/webhook-calls";
import type { AnswerOf } from "../../lib/api-contract";

export type WebhookCallList = AnswerOf<"get", "/webhook-calls">;
export type WebhookCall = AnswerOf<"get", "/webhook-calls/:id">;

export const providerName = (p: string) => (WEBHOOK_PROVIDER_NAMES as Record<string, string>)[p] ?? p;

const STATUS_STYLE: Record<string, string> = {
  processed: "bg-green-100 text-green-800",
  duplicate: "bg-slate-100 text-slate-700",
  ignored: "bg-slate-100 text-slate-700",
  received: "bg-amber-100 text-amber-800",
  refused: "bg-red-100 text-red-800",
  failed: "bg-red-100 text-red-800",
  rejected: "bg-red-100 text-red-800",
};

export function CallStatus({ status }: { status: string }) {
  return <span className={`inline-block rounded px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[status] ?? "bg-slate-100"}`}>{status}</span>;
}

/** The filters: a GET form, so a filtered list is a link support can share, and it works without JavaScript. */
export function CallFilters({ values, errors }: { values: Record<string, string>; errors: Record<string, string[]> }) {
  return (
    <ListFilters label="Filter webhook calls" layout="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" submit="Filter" clearTo="/webhook-calls">
      <FilterSelect form="calls" name="provider" label="Provider" value={values.provider} any="All" options={Object.entries(WEBHOOK_PROVIDER_NAMES)} errors={errors} />
      <FilterSelect form="calls" name="status" label="Status" value={values.status} any="All" options={WEBHOOK_CALL_STATUSES.map((s) => [s, s])} errors={errors} />
      <FilterDate form="calls" name="from" label="From" value={values.from} errors={errors} />
      <FilterDate form="calls" name="to" label="To" value={values.to} errors={errors} />
    </ListFilters>
  );
}

/** A result longer than this is cut to two lines in the list, with a link to the call's page, where it is whole. */
const LONG_RESULT = 140;

/**
 * The calls as a table of fixed column widths, so the Result column keeps its room at 1366 wide: a GoCardless batch's
 * result names every event and, wrapped into a narrow column, made one row thousands of pixels tall. Long texts are
 * cut (each whole in its title, and the result on the call's page); on a phone each row is a card (stack-table).
 */
export function CallTable({ calls }: { calls: WebhookCallList["data"] }) {
  const dates = useDates();
  if (!calls.length) return <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">No webhook calls match.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="stack-table w-full table-fixed divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="w-48 px-3 py-2">Received</th>
            <th scope="col" className="w-28 px-3 py-2">Provider</th>
            <th scope="col" className="w-48 px-3 py-2 xl:w-60">Event</th>
            <th scope="col" className="w-28 px-3 py-2">Status</th>
            <th scope="col" className="px-3 py-2">Result</th>
            <th scope="col" className="w-20 px-3 py-2">Took</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {calls.map((c) => (
            <tr key={c.id} className="align-top">
              <td data-label="Received" className="whitespace-nowrap px-3 py-2">
                <Link to={`/webhook-calls/${c.id}`} className="text-brand-700 underline">
                  {dates.dateTime(c.received_at)}
                </Link>
              </td>
              <td data-label="Provider" className="px-3 py-2">{providerName(c.provider)}</td>
              <td data-label="Event" className="px-3 py-2">
                <div data-clipped className="min-w-0 max-w-full truncate" title={c.event_type ?? undefined}>{c.event_type ?? "—"}</div>
                {c.event_id || c.replay_of_id ? (
                  <div data-clipped className="min-w-0 max-w-full truncate text-xs text-slate-500" title={c.event_id ?? undefined}>
                    {c.event_id ?? ""}
                    {c.replay_of_id ? ` · replay of call ${c.replay_of_id}` : ""}
                  </div>
                ) : null}
              </td>
              <td data-label="Status" className="px-3 py-2">
                <CallStatus status={c.status} />
              </td>
              <td data-label="Result" className="px-3 py-2 text-slate-700">
                <div className="min-w-0">
                  <p data-result data-clipped className="line-clamp-2 [overflow-wrap:anywhere]" title={c.result ?? undefined}>
                    {c.result ?? ""}
                  </p>
                  {(c.result?.length ?? 0) > LONG_RESULT ? (
                    <Link to={`/webhook-calls/${c.id}`} className="text-xs text-brand-700 underline">
                      The whole result<span className="sr-only"> of call {c.id}</span>
                    </Link>
                  ) : null}
                </div>
              </td>
              <td data-label="Took" className="whitespace-nowrap px-3 py-2">{c.duration_ms == null ? "—" : `${c.duration_ms} ms`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The raw body, indented when it is JSON (as the providers send it); as it came otherwise. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
