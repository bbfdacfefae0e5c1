import { Form } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";

type Key = {
  id: number;
  name: string;
  prefix: string;
  access: string;
  rate_limit_per_minute: number;
  created_at: string;
  created_by: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
  revoked_at: string | null;
};

/** The organisation's keys: live ones first, each with what it may do, when it was last used and from where. */
export function ApiKeyList({ keys }: { keys: Key[] }) {
  const dates = useDates();
  if (!keys.length) return <p className="text-sm text-slate-700">No API keys yet.</p>;
  return (
    <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {keys.map((k) => (
        <li key={k.id} className={`space-y-2 p-4 text-sm ${k.revoked_at ? "bg-slate-50 text-slate-600" : ""}`}>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="text-base font-semibold text-slate-900">{k.name}</h3>
            {k.revoked_at ? (
              <span className="rounded bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700">Revoked {dates.dateTime(k.revoked_at)}</span>
            ) : (
              <span className="rounded bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">Active</span>
            )}
          </div>
          <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
            <dt className="font-medium text-slate-600">Key</dt>
            <dd>
              <code>{k.prefix}…</code>
            </dd>
            <dt className="font-medium text-slate-600">Access</dt>
            <dd>{k.access}</dd>
            <dt className="font-medium text-slate-600">Limit</dt>
            <dd>{k.rate_limit_per_minute.toLocaleString("en-NZ")} requests a minute</dd>
            <dt className="font-medium text-slate-600">Created</dt>
            <dd>
              {dates.dateTime(k.created_at)}
              {k.created_by ? ` by ${k.created_by}` : ""}
            </dd>
            <dt className="font-medium text-slate-600">Last used</dt>
            <dd>{k.last_used_at ? `${dates.dateTime(k.last_used_at)} from ${k.last_used_ip ?? "an unknown address"}` : "Never"}</dd>
          </dl>
          {k.revoked_at ? null : (
            <details className="pt-1">
              <summary className="cursor-pointer font-medium text-red-800">Revoke…</summary>
              <Form method="post" className="mt-2 flex flex-wrap items-center gap-3">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="id" value={k.id} />
                <p>Anything using this key stops working at once. This cannot be undone.</p>
                <button type="submit" className="rounded-md bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800">
                  Revoke {k.name}
                </button>
              </Form>
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}
