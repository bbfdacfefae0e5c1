import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { EndpointForm, SecretShownOnce } from "../../features/outgoing-webhooks/endpoint-form";
import { EndpointStatus } from "../../features/outgoing-webhooks/deliveries";
import { addEndpointAction, loadEndpoints } from "../../features/outgoing-webhooks/webhooks.server";
import { useDates } from "../../lib/date-texts";
import { DevelopersBreadcrumb } from "../../features/outgoing-webhooks/breadcrumb";

export const meta: MetaFunction = () => [{ title: "Webhooks · Developers · Gym Membership" }];

/** /organisation/developers/webhooks (issue 33): the organisation's endpoints, and a form to add one. */
export const loader = (args: LoaderFunctionArgs) => loadEndpoints(args);
export const action = (args: ActionFunctionArgs) => addEndpointAction(args);

export default function Webhooks() {
  const dates = useDates();
  const { endpoints } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  return (
    <div className="max-w-5xl space-y-6">
      <div className="space-y-1">
        <DevelopersBreadcrumb trail={[{ label: "Webhooks" }]} />
        <h1 className="text-2xl font-semibold">Webhooks</h1>
        <p className="max-w-3xl text-sm text-slate-700">
          We POST an event to each endpoint as it happens: members joining and changing, memberships starting, pausing, ending and changing price, payments and
          refunds, visits. Each is signed by the{" "}
          <a href="https://www.standardwebhooks.com/" className="text-brand-700 underline" rel="noreferrer">
            Standard Webhooks
          </a>{" "}
          scheme (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>), sent until your endpoint answers 2xx for up to three
          days, and may arrive more than once: keep each <code>webhook-id</code> and ignore one you have seen.
        </p>
      </div>

      {answer?.created ? (
        <div className="space-y-2">
          <SecretShownOnce secret={answer.created.secret} heading={`Endpoint added: ${answer.created.url}`} />
          <p className="text-sm">
            <Link to={`/organisation/developers/webhooks/${answer.created.id}`} className="font-medium text-brand-700 underline">
              Open the endpoint to send it a test event
            </Link>
          </p>
        </div>
      ) : null}

      <section aria-labelledby="endpoints-heading" className="space-y-2">
        <h2 id="endpoints-heading" className="text-lg font-semibold">
          Endpoints
        </h2>
        {endpoints.length ? (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="stack-table w-full table-fixed divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Endpoint
                  </th>
                  <th scope="col" className="w-24 px-3 py-2">
                    Events
                  </th>
                  <th scope="col" className="w-24 px-3 py-2">
                    Status
                  </th>
                  <th scope="col" className="w-44 px-3 py-2">
                    Deliveries
                  </th>
                  <th scope="col" className="w-48 px-3 py-2">
                    Last attempt
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {endpoints.map((e) => (
                  <tr key={e.id} className="align-top">
                    <td data-label="Endpoint" className="px-3 py-2">
                      <Link
                        data-clipped
                        to={`/organisation/developers/webhooks/${e.id}`}
                        className="block truncate font-medium text-brand-700 underline"
                        title={e.url}
                      >
                        {e.url}
                      </Link>
                      {e.description ? (
                        <span data-clipped className="block truncate text-xs text-slate-600" title={e.description}>
                          {e.description}
                        </span>
                      ) : null}
                    </td>
                    <td data-label="Events" className="px-3 py-2">
                      {e.events.length}
                    </td>
                    <td data-label="Status" className="px-3 py-2">
                      <EndpointStatus enabled={e.enabled} failing={Boolean(e.failing_since)} />
                    </td>
                    <td data-label="Deliveries" className="px-3 py-2 text-slate-700">
                      {e.deliveries.succeeded} delivered
                      {e.deliveries.pending ? `, ${e.deliveries.pending} sending` : ""}
                      {e.deliveries.failed ? `, ${e.deliveries.failed} failed` : ""}
                    </td>
                    <td data-label="Last attempt" className="whitespace-nowrap px-3 py-2">
                      {e.deliveries.last_attempt_at ? dates.dateTime(e.deliveries.last_attempt_at) : "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">No endpoints yet: add one below.</p>
        )}
      </section>

      <section aria-labelledby="add-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="add-heading" className="text-lg font-semibold">
          Add endpoint
        </h2>
        <EndpointForm lastResult={answer?.result} pending={pending} submit="Add endpoint" />
      </section>
    </div>
  );
}
