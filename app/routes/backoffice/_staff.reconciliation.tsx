import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DifferenceCard, DifferenceFilter } from "../../features/reconciliation/differences";
import { Pager } from "../../components/list-filters";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { pageQuery } from "../../lib/params.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Reconciliation · Gym Membership" }];

const STATUSES = ["open", "explained", "corrected", "all"] as const;

/** /reconciliation?status=&page=: what the daily reconciliation found between our payments and the providers' books. */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const asked = url.searchParams.get("status") ?? "open";
  const status = (STATUSES as readonly string[]).includes(asked) ? (asked as (typeof STATUSES)[number]) : "open";
  try {
    return withDateTexts({ status, list: await gymApi(args).get("/reconciliation", { query: { status, page: pageQuery(url, "page") } }) });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

/** Explain: a person's note marks an open difference explained. */
export async function action(args: ActionFunctionArgs) {
  const form = await readForm(args.request);
  const id = Number(form.get("id"));
  const explanation = String(form.get("explanation") ?? "");
  const api = gymApi(args);
  try {
    await api.post("/reconciliation/:id/explain", { params: { id }, body: { explanation } });
    return redirectWithToast(new URL(args.request.url).pathname + new URL(args.request.url).search, { summary: "Explained", detail: "The difference is marked explained." }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401) {
      return data({ id, value: explanation, error: err.errors?.explanation?.[0] ?? err.message }, { status: 400 });
    }
    redirectForApiError(args.request, err);
  }
}

export default function Reconciliation() {
  const { status, list } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const pages = Math.max(1, Math.ceil(list.meta.total / list.meta.per_page));
  const pageLink = (page: number) => `?${new URLSearchParams({ status, page: String(page) })}`;
  return (
    <div className="max-w-4xl space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Reconciliation</h1>
        <p className="mt-1 text-sm text-slate-600">
          Each night our payments are compared with Stripe&apos;s, GoCardless&apos;s and Akahu&apos;s own records for the last three days. What the provider settled or
          refunded is recorded automatically; anything else waits here for a person to explain.
        </p>
      </div>
      <DifferenceFilter status={status} />
      <p className="text-sm text-slate-600" aria-live="polite">
        {list.meta.open === 0 ? "No open differences." : `${list.meta.open.toLocaleString("en-NZ")} open ${list.meta.open === 1 ? "difference" : "differences"}.`}
      </p>
      {list.data.length ? (
        <ul className="space-y-3">
          {list.data.map((d) => (
            <DifferenceCard key={d.id} d={d} error={failed && failed.id === d.id ? failed.error : undefined} value={failed && failed.id === d.id ? failed.value : undefined} />
          ))}
        </ul>
      ) : (
        <p className="rounded-lg border border-slate-200 bg-white p-4">No differences{status === "all" ? "" : ` ${status === "corrected" ? "corrected" : status}`}.</p>
      )}
      <Pager page={list.meta.page} pages={pages} link={pageLink} />
    </div>
  );
}
