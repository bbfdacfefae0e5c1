import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { CallStatus, prettyBody, providerName } from "../../features/webhooks/calls";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { idParam } from "../../lib/params.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Webhook call · Gym Membership" }];

/** /webhook-calls/{id}: one call with its raw body and headers, and Replay. */
export async function loader(args: LoaderFunctionArgs) {
  const id = idParam(args.params, "id");
  try {
    return withDateTexts({ call: await gymApi(args).get("/webhook-calls/:id", { params: { id } }) });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

/** Replay: processed again as a new call; the page of that new call shows what it did. */
export async function action(args: ActionFunctionArgs) {
  const id = idParam(args.params, "id");
  const api = gymApi(args);
  try {
    const data = await api.post("/webhook-calls/:id/replay", { params: { id } });
    return redirectWithToast(`/webhook-calls/${data.id}`, { summary: "Replayed", detail: data.result ?? `The call was processed again: ${data.status}.` }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && (err.status === 422 || err.status === 403)) {
      return redirectWithToast(`/webhook-calls/${id}`, { severity: "error", summary: "Not replayed", detail: Object.values(err.errors ?? {})[0]?.[0] ?? err.message });
    }
    redirectForApiError(args.request, err);
  }
}

export default function WebhookCallPage() {
  const dates = useDates();
  const { call } = useLoaderData<typeof loader>();
  const pending = useNavigation().state === "submitting";
  const facts: [string, React.ReactNode][] = [
    ["Provider", providerName(call.provider)],
    ["Received", dates.dateTime(call.received_at)],
    ["Event", `${call.event_type ?? "—"}${call.event_id ? ` (${call.event_id})` : ""}`],
    ["Status", <CallStatus key="s" status={call.status} />],
    ["Result", call.result ?? "—"],
    ["Took", call.duration_ms == null ? "—" : `${call.duration_ms} ms`],
  ];
  if (call.replay_of_id) {
    facts.push([
      "Replay of",
      <Link key="r" to={`/webhook-calls/${call.replay_of_id}`} className="text-brand-700 underline">
        call {call.replay_of_id}
      </Link>,
    ]);
  }
  return (
    <div className="max-w-5xl space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/webhook-calls" className="text-brand-700 underline">
          Webhook calls
        </Link>
        <span className="text-slate-500"> / </span>
        <span className="text-slate-700">Call {call.id}</span>
      </nav>
      <h1 className="text-2xl font-semibold">
        {providerName(call.provider)} call {call.id}
      </h1>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            {/* A batch's event ids run on without a space: they break anywhere rather than widen the page. */}
            <dd className="text-slate-900 [overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
      </dl>
      {call.status === "rejected" ? (
        <p className="rounded-md bg-red-50 p-3 text-sm text-red-900">Its signature was refused, so it was never processed and cannot be replayed.</p>
      ) : (
        <Form method="post" className="flex items-center gap-3">
          <button type="submit" disabled={pending} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60">
            Replay
          </button>
          <p className="text-sm text-slate-600">Processes this call again, as a new call. A payment only ever moves forward, so a replay cannot undo or repeat a charge.</p>
        </Form>
      )}
      <section aria-labelledby="headers-heading" className="space-y-2">
        <h2 id="headers-heading" className="text-lg font-semibold">
          Headers
        </h2>
        <pre className="overflow-x-auto rounded-lg border border-slate-200 bg-slate-50 p-3 text-xs">
          {Object.entries(call.headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join("\n") || "(none kept)"}
        </pre>
      </section>
      <section aria-labelledby="body-heading" className="space-y-2">
        <h2 id="body-heading" className="text-lg font-semibold">
          Body, as received
        </h2>
        <pre className="max-h-[32rem] overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-3 text-xs">{prettyBody(call.body)}</pre>
      </section>
    </div>
  );
}
