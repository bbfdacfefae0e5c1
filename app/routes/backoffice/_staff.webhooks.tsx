import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { CallStatus, providerName } from "../../features/webhooks/calls";
import { gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Webhooks · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs) {
  try {
    return withDateTexts({ endpoints: await gymApi(args).get("/webhooks") });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

const SECRET: Record<string, string> = {
  environment: "Set (from the server's environment)",
  installation: "This installation's own secret, made at its first start: what the sandbox signs with; set the provider's real secret before going live",
  missing: "Not set: every call is refused until it is",
};

/** Akahu signs with its own RSA keys, which it publishes: nothing of ours is secret, but an Akahu app fetches them. */
const AKAHU_KEYS: Record<string, string> = {
  environment: "Akahu's published keys, fetched with the Akahu app's credentials",
  installation: "This installation's own key, made at its first start: what the sandbox signs with; configure an Akahu app before going live",
  missing: "No Akahu app configured: every call is refused until one is",
};

/** /webhooks: where each provider sends its calls, whether we can check their signatures, and how the last one went. */
export default function Webhooks() {
  const dates = useDates();
  const { endpoints } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-5xl space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Webhooks</h1>
        <p className="mt-1 text-sm text-slate-600">
          Give each provider its endpoint address; every call it makes shows in{" "}
          <Link to="/webhook-calls" className="text-brand-700 underline">
            webhook calls
          </Link>
          .
        </p>
      </div>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        {endpoints.map((e) => (
          <section key={e.provider} aria-labelledby={`hook-${e.provider}`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
            <h2 id={`hook-${e.provider}`} className="text-lg font-semibold">
              {providerName(e.provider)}
            </h2>
            <div>
              <div className="font-medium text-slate-600">Endpoint</div>
              <code className="break-all">{e.url}</code>
            </div>
            <div>
              <div className="font-medium text-slate-600">{e.provider === "akahu" ? "Signing keys" : "Signing secret"}</div>
              <div className={e.secret === "missing" ? "text-red-800" : e.secret === "installation" ? "text-amber-800" : "text-green-800"}>
                {(e.provider === "akahu" ? AKAHU_KEYS : SECRET)[e.secret]}
              </div>
            </div>
            <div>
              <div className="font-medium text-slate-600">Last call</div>
              {e.last_call ? (
                <div className="space-y-1">
                  <Link to={`/webhook-calls/${e.last_call.id}`} className="text-brand-700 underline">
                    {dates.dateTime(e.last_call.received_at)}
                  </Link>{" "}
                  <CallStatus status={e.last_call.status} />
                  {e.last_call.result ? <p className="text-slate-700">{e.last_call.result}</p> : null}
                </div>
              ) : (
                <div className="text-slate-700">None yet.</div>
              )}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
