import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Pager } from "../../components/list-filters";
import { DeliveriesTable, EndpointStatus } from "../../features/outgoing-webhooks/deliveries";
import { EndpointForm, SecretShownOnce } from "../../features/outgoing-webhooks/endpoint-form";
import { endpointAction, loadEndpoint } from "../../features/outgoing-webhooks/webhooks.server";
import { useDates } from "../../lib/date-texts";
import { DevelopersBreadcrumb } from "../../features/outgoing-webhooks/breadcrumb";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.endpoint.url ?? "Endpoint"} · Webhooks · Gym Membership` }];

/** /organisation/developers/webhooks/{id} (issue 33): one endpoint, its buttons, its form and its deliveries. */
export const loader = (args: LoaderFunctionArgs) => loadEndpoint(args);
export const action = (args: ActionFunctionArgs) => endpointAction(args);

const button = "rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50 disabled:opacity-60";

function IntentButton({ intent, children, primary = false, disabled = false }: { intent: string; children: ReactNode; primary?: boolean; disabled?: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <button
        type="submit"
        disabled={disabled}
        className={primary ? "rounded-md bg-brand-700 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60" : button}
      >
        {children}
      </button>
    </Form>
  );
}

export default function WebhookEndpoint() {
  const dates = useDates();
  const { endpoint: e, deliveries, status } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const editing = busy && navigation.formData?.get("intent") === "update";
  const facts: [string, ReactNode][] = [
    ["Status", <EndpointStatus key="s" enabled={e.enabled} failing={Boolean(e.failing_since)} />],
    ["Description", e.description || "—"],
    ["Events", e.events.length === 11 ? "Every event" : e.events.join(", ")],
    ["Added", dates.dateTime(e.created_at!)],
  ];
  if (e.failing_since) facts.push(["Failing since", `${dates.dateTime(e.failing_since)}: disabled after three days without a success`]);
  if (e.disabled_at) facts.push(["Disabled", `${dates.dateTime(e.disabled_at)}. ${e.disabled_reason ?? ""}`]);
  if (e.previous_secret_expires_at) facts.push(["Previous secret", `Still signs too, until ${dates.dateTime(e.previous_secret_expires_at)}`]);
  const pageLink = (page: number) => `?${new URLSearchParams({ ...(status ? { status } : {}), page: String(page) })}`;
  return (
    <div className="max-w-5xl space-y-6">
      <div className="space-y-1">
        <DevelopersBreadcrumb trail={[{ label: "Webhooks", to: "/organisation/developers/webhooks" }]} />
        <h1 className="break-all text-2xl font-semibold">{e.url}</h1>
      </div>

      {answer?.secret ? <SecretShownOnce secret={answer.secret} heading="New signing secret" /> : null}
      {answer?.message ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {answer.message}
        </p>
      ) : null}

      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className="text-slate-900 [overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
      </dl>

      <div className="flex flex-wrap items-start gap-3">
        <IntentButton intent="test" primary disabled={busy || !e.enabled}>
          Send test event
        </IntentButton>
        <IntentButton intent="rotate" disabled={busy}>
          Rotate secret
        </IntentButton>
        {e.enabled ? (
          <IntentButton intent="disable" disabled={busy}>
            Disable
          </IntentButton>
        ) : (
          <IntentButton intent="enable" disabled={busy}>
            Enable
          </IntentButton>
        )}
      </div>
      <p className="-mt-3 text-xs text-slate-600">
        Rotating makes a new secret, shown once; the old one keeps signing beside it for 24 hours, so your receiver can switch without missing an event.
      </p>

      <section aria-labelledby="deliveries-heading" className="space-y-2">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="deliveries-heading" className="text-lg font-semibold">
            Deliveries
          </h2>
          <Form method="get" className="flex items-end gap-2" aria-label="Filter deliveries">
            <div className="space-y-1">
              <label htmlFor="deliveries-status" className="block text-sm font-medium text-slate-800">
                Status
              </label>
              <select
                key={status}
                id="deliveries-status"
                name="status"
                defaultValue={status}
                className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
              >
                <option value="">All</option>
                <option value="succeeded">Delivered</option>
                <option value="pending">Sending</option>
                <option value="failed">Failed</option>
              </select>
            </div>
            <button type="submit" className={button}>
              Filter
            </button>
          </Form>
        </div>
        <p className="text-sm text-slate-600" aria-live="polite">
          {deliveries.meta.total.toLocaleString("en-NZ")} {deliveries.meta.total === 1 ? "delivery" : "deliveries"}
        </p>
        <DeliveriesTable endpointId={e.id} deliveries={deliveries.data} />
        <Pager page={deliveries.meta.page} pages={deliveries.meta.pages} link={pageLink} />
      </section>

      <section aria-labelledby="edit-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="edit-heading" className="text-lg font-semibold">
          Edit
        </h2>
        <EndpointForm
          key={e.updated_at}
          intent="update"
          lastResult={answer?.intent === "update" ? answer.result : undefined}
          pending={editing}
          submit="Save"
          defaults={{ url: e.url, description: e.description, events: e.events }}
        />
      </section>

      <section aria-labelledby="remove-heading" className="space-y-2 rounded-lg border border-red-200 bg-white p-4">
        <h2 id="remove-heading" className="text-lg font-semibold">
          Remove
        </h2>
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="delete" />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="confirm" className="h-4 w-4 rounded border-slate-300" />
            Stop sending events to this endpoint and remove it (its deliveries stay in our records)
          </label>
          <button
            type="submit"
            disabled={busy}
            className="rounded-md bg-red-700 px-3 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
          >
            Remove endpoint
          </button>
        </Form>
      </section>
    </div>
  );
}
