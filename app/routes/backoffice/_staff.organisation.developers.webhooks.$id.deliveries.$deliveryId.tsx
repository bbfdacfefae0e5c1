import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { answerText, DeliveryStatus, prettyJson } from "../../features/outgoing-webhooks/deliveries";
import { loadDelivery, resendAction } from "../../features/outgoing-webhooks/webhooks.server";
import { useDates } from "../../lib/date-texts";
import { DevelopersBreadcrumb } from "../../features/outgoing-webhooks/breadcrumb";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.delivery.event.type ?? "Delivery"} · Webhooks · Gym Membership` }];

/**
 * /organisation/developers/webhooks/{id}/deliveries/{deliveryId} (issue 33): one event sent to one endpoint: the
 * request (headers of the latest try, the body as signed), each try's answer and time, and Resend.
 */
export const loader = (args: LoaderFunctionArgs) => loadDelivery(args);
export const action = (args: ActionFunctionArgs) => resendAction(args);

const headersText = (h: Record<string, string>) =>
  Object.entries(h)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");

export default function WebhookDelivery() {
  const dates = useDates();
  const { delivery: d } = useLoaderData<typeof loader>();
  const pending = useNavigation().state === "submitting";
  const latest = d.attempt_log[0];
  const facts: [string, ReactNode][] = [
    ["Status", <DeliveryStatus key="s" status={d.status} />],
    ["Event", <code key="e">{d.event.type}</code>],
    ["webhook-id", <code key="i">{d.event.id}</code>],
    ["Created", dates.dateTime(d.created_at)],
    ["Attempts", String(d.attempts)],
  ];
  if (d.delivered_at) facts.push(["Delivered", dates.dateTime(d.delivered_at)]);
  if (d.next_attempt_at) facts.push(["Next attempt", dates.dateTime(d.next_attempt_at)]);
  return (
    <div className="max-w-5xl space-y-6">
      <div className="space-y-1">
        <DevelopersBreadcrumb
          trail={[
            { label: "Webhooks", to: "/organisation/developers/webhooks" },
            { label: d.endpoint.url, to: `/organisation/developers/webhooks/${d.endpoint.id}` },
          ]}
        />
        <h1 className="text-2xl font-semibold">
          Delivery of <code>{d.event.type}</code>
        </h1>
      </div>

      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className="text-slate-900 [overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
      </dl>

      {d.endpoint.enabled ? (
        <Form method="post" className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            disabled={pending}
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            Resend
          </button>
          <p className="text-sm text-slate-600">One more attempt now, with the same webhook-id: a receiver that keeps the ids it has seen takes it once.</p>
        </Form>
      ) : (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-950">The endpoint is disabled: enable it on its page to resend.</p>
      )}

      <section aria-labelledby="request-heading" className="space-y-2">
        <h2 id="request-heading" className="text-lg font-semibold">
          Request
        </h2>
        <p className="text-sm text-slate-600">POST {d.endpoint.url}</p>
        <pre className="overflow-x-auto rounded-lg border border-slate-200 bg-slate-50 p-3 text-xs">
          {latest ? headersText(latest.request_headers) : "Not sent yet."}
        </pre>
        <pre className="max-h-[32rem] overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-3 text-xs">{prettyJson(d.body)}</pre>
      </section>

      <section aria-labelledby="attempts-heading" className="space-y-2">
        <h2 id="attempts-heading" className="text-lg font-semibold">
          Attempts
        </h2>
        {d.attempt_log.length ? (
          <ol className="space-y-3">
            {d.attempt_log.map((a, i) => (
              <li key={a.id} className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-sm">
                <p className="flex flex-wrap items-center gap-x-4 gap-y-1">
                  <span className="font-medium">Attempt {d.attempt_log.length - i}</span>
                  <span>{dates.dateTime(a.attempted_at)}</span>
                  <span>
                    Answer: <strong>{answerText(a.response_status, a.error)}</strong>
                  </span>
                  <span>{a.duration_ms} ms</span>
                </p>
                {a.error ? <p className="text-red-800 [overflow-wrap:anywhere]">{a.error}</p> : null}
                {a.response_body ? (
                  <pre className="max-h-48 overflow-auto rounded border border-slate-200 bg-slate-50 p-2 text-xs">{prettyJson(a.response_body)}</pre>
                ) : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">No attempt yet: it is sent within a minute.</p>
        )}
      </section>
    </div>
  );
}
