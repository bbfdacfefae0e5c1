import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CallFilters, CallTable } from "../../features/webhooks/calls";
import { Pager } from "../../components/list-filters";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { pageQuery } from "../../lib/params.server";
import { redirectForApiError } from "../../lib/session.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Webhook calls · Gym Membership" }];

/** /webhook-calls?provider=&status=&from=&to=&page=: every call the payment providers made to us, newest first. */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const url = new URL(args.request.url);
  const values = Object.fromEntries(["provider", "status", "from", "to"].map((k) => [k, url.searchParams.get(k) ?? ""]));
  const page = pageQuery(url, "page");
  const query = { ...Object.fromEntries(Object.entries(values).filter(([, v]) => v)), page };
  try {
    return withDateTexts({ values, errors: {} as Record<string, string[]>, list: await api.get("/webhook-calls", { query }) });
  } catch (err) {
    // Filters that make no sense (an end before the start): the form says so, and nothing is listed.
    if (err instanceof ApiRequestError && err.status === 422) return withDateTexts({ values, errors: err.errors ?? {}, list: null });
    redirectForApiError(args.request, err);
  }
}

export default function WebhookCalls() {
  const { values, errors, list } = useLoaderData<typeof loader>();
  const pages = list ? Math.max(1, Math.ceil(list.meta.total / list.meta.per_page)) : 1;
  const pageLink = (page: number) => `?${new URLSearchParams({ ...Object.fromEntries(Object.entries(values).filter(([, v]) => v)), page: String(page) })}`;
  return (
    <div className="max-w-6xl space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Webhook calls</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every call Stripe, GoCardless and Akahu made to this organisation&apos;s endpoints, stored before it was processed, and what became of it.{" "}
          <Link to="/webhooks" className="text-brand-700 underline">
            Endpoints and signing secrets
          </Link>
        </p>
      </div>
      <CallFilters values={values} errors={errors} />
      {list ? (
        <>
          <p className="text-sm text-slate-600" aria-live="polite">
            {list.meta.total.toLocaleString("en-NZ")} {list.meta.total === 1 ? "call" : "calls"}
          </p>
          <CallTable calls={list.data} />
          <Pager page={list.meta.page} pages={pages} link={pageLink} />
        </>
      ) : null}
    </div>
  );
}
