import { Link } from "@remix-run/react";
import { DELIVERY_STATUS_LABELS, type WebhookDeliveryStatus } from "../../../domain/webhook-events";
import type { AnswerOf } from "../../lib/api-contract";
import { useDates } from "../../lib/date-texts";

export type EndpointList = AnswerOf<"get", "/webhook-endpoints">["data"];
export type Endpoint = AnswerOf<"get", "/webhook-endpoints/:id">;
export type DeliveryList = AnswerOf<"get", "/webhook-endpoints/:id/deliveries">;
export type Delivery = AnswerOf<"get", "/webhook-endpoints/:id/deliveries/:deliveryId">;

const STATUS_STYLE: Record<WebhookDeliveryStatus, string> = {
  succeeded: "bg-green-100 text-green-800",
  pending: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-800",
};

export function DeliveryStatus({ status }: { status: string }) {
  const s = status as WebhookDeliveryStatus;
  return (
    <span className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[s] ?? "bg-slate-100"}`}>
      {DELIVERY_STATUS_LABELS[s] ?? status}
    </span>
  );
}

export function EndpointStatus({ enabled, failing }: { enabled: boolean; failing: boolean }) {
  if (!enabled) return <span className="inline-block whitespace-nowrap rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">Disabled</span>;
  if (failing) return <span className="inline-block whitespace-nowrap rounded bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Failing</span>;
  return <span className="inline-block whitespace-nowrap rounded bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">Enabled</span>;
}

/** An answer's code, or why there was none ("—" before any try). */
export const answerText = (status: number | null, error: string | null) => (status !== null ? String(status) : error ? "No answer" : "—");

/**
 * An endpoint's deliveries, newest first, as a table of fixed widths (a phone shows each row as a card): when, which
 * event, its state, tries, the last answer and how long it took.
 */
export function DeliveriesTable({ endpointId, deliveries }: { endpointId: number; deliveries: DeliveryList["data"] }) {
  const dates = useDates();
  if (!deliveries.length)
    return <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">No deliveries yet. Send a test event to see one.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="stack-table w-full table-fixed divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="w-48 px-3 py-2">
              Created
            </th>
            <th scope="col" className="px-3 py-2">
              Event
            </th>
            <th scope="col" className="w-28 px-3 py-2">
              Status
            </th>
            <th scope="col" className="w-20 px-3 py-2">
              Attempts
            </th>
            <th scope="col" className="w-24 px-3 py-2">
              Answer
            </th>
            <th scope="col" className="w-24 px-3 py-2">
              Duration
            </th>
            <th scope="col" className="w-48 px-3 py-2">
              Next attempt
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {deliveries.map((d) => (
            <tr key={d.id} className="align-top">
              <td data-label="Created" className="whitespace-nowrap px-3 py-2">
                <Link to={`/organisation/developers/webhooks/${endpointId}/deliveries/${d.id}`} className="text-brand-700 underline">
                  {dates.dateTime(d.created_at)}
                </Link>
              </td>
              <td data-label="Event" className="px-3 py-2">
                <code data-clipped className="block truncate text-xs font-semibold" title={d.event.type}>
                  {d.event.type}
                </code>
                <span data-clipped className="block truncate text-xs text-slate-500" title={d.event.id}>
                  {d.event.id}
                </span>
              </td>
              <td data-label="Status" className="px-3 py-2">
                <DeliveryStatus status={d.status} />
              </td>
              <td data-label="Attempts" className="px-3 py-2">
                {d.attempts}
              </td>
              <td data-label="Answer" className="px-3 py-2" title={d.last_error ?? undefined}>
                {answerText(d.last_status, d.last_error)}
              </td>
              <td data-label="Duration" className="whitespace-nowrap px-3 py-2">
                {d.duration_ms == null ? "—" : `${d.duration_ms} ms`}
              </td>
              <td data-label="Next attempt" className="whitespace-nowrap px-3 py-2">
                {d.next_attempt_at ? dates.dateTime(d.next_attempt_at) : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A body as sent: indented when it is JSON. */
export function prettyJson(body: string | null): string {
  if (!body) return "";
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
