import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { dayName, formatClock, OFFERING_TYPE_LABELS } from "../../../domain/offering";
import { orRefusal } from "../../features/members/member-route.server";
import { offeringsRoute } from "../../features/offerings/offering-route.server";
import { PriceTable, type PriceActionResult } from "../../features/offerings/price-table";
import { ApiRequestError, type GymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { idParam } from "../../lib/params.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.offering.name ?? "Offering"} · Gym Membership` }];

export async function loader(args: LoaderFunctionArgs) {
  const api = offeringsRoute(args);
  const id = idParam(args.params, "id");
  return withDateTexts({ offering: await orRefusal(args.request, api.get("/offerings/:id", { params: { id } })) });
}

/** Each button of the page is a form with an intent; the answer is the page again with a toast, or what went wrong. */
const INTENTS: Record<string, (api: GymApi, id: number, form: FormData) => Promise<{ to?: string; summary: string; detail?: string }>> = {
  "archive-price": async (api, _id, f) => (await api.delete("/prices/:id/archive", { params: { id: priceId(f) } }), { summary: "Price archived", detail: "It is no longer sold; its members keep it." }),
  "restore-price": async (api, _id, f) => (await api.post("/prices/:id/restore", { params: { id: priceId(f) } }), { summary: "Price restored", detail: "It is on sale again." }),
  "delete-price": async (api, _id, f) => (await api.delete("/prices/:id", { params: { id: priceId(f) } }), { summary: "Price deleted" }),
  "create-link": async (api, _id, f) => (
    await api.post("/prices/:id/private-links", { params: { id: priceId(f) }, body: { age_bypass: f.get("age_bypass") === "on" } }), { summary: "Link created", detail: "Copy it from the price's private links." }
  ),
  "revoke-link": async (api, _id, f) => (await api.delete("/prices/:id/private-links/:linkId", { params: { id: priceId(f), linkId: Number(f.get("link_id")) } }), { summary: "Link revoked", detail: "It no longer works." }),
  "archive-offering": async (api, id) => (await api.delete("/offerings/:id/archive", { params: { id } }), { summary: "Offering archived", detail: "It is no longer sold; its members keep their memberships." }),
  "restore-offering": async (api, id) => (await api.post("/offerings/:id/restore", { params: { id } }), { summary: "Offering restored" }),
  "delete-offering": async (api, id) => (await api.delete("/offerings/:id", { params: { id } }), { to: "/offerings", summary: "Offering deleted" }),
};

function priceId(f: FormData) {
  const n = Number(f.get("price_id"));
  if (!Number.isSafeInteger(n) || n < 1) throw data({ message: "Choose a price." }, { status: 400 });
  return n;
}

export async function action(args: ActionFunctionArgs) {
  const api = offeringsRoute(args);
  const id = idParam(args.params, "id");
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");
  const run = INTENTS[intent];
  if (!run) return data<PriceActionResult>({ intent, message: "That button is not one of this page's. Reload the page and try again." }, { status: 400 });
  try {
    const done = await run(api, id, form);
    return redirectWithToast(done.to ?? `/offerings/${id}`, { summary: done.summary, detail: done.detail }, api.headers);
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    const inUse = err.error === "price_in_use" || err.error === "offering_in_use";
    const pid = intent.endsWith("-price") || intent.endsWith("-link") ? Number(form.get("price_id")) : undefined;
    return data<PriceActionResult>({ intent, priceId: pid, message: err.message, offerArchive: inUse }, { status: err.status });
  }
}

export default function OfferingPage() {
  const dates = useDates();
  const { offering: o } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const offeringResult = result && !result.priceId ? result : undefined;
  // Deleting asks first, on the page itself (a link, so it works without JavaScript): ?delete=offering or a price's id.
  const [params] = useSearchParams();
  const confirming = params.get("delete");
  return (
    <div className="max-w-5xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to="/offerings" className="text-brand-700 hover:underline">
              Offerings
            </Link>
          </p>
          <h1 className="text-2xl font-semibold">
            {o.name}
            {o.archived_at ? <span className="ml-3 rounded bg-slate-200 px-2 py-0.5 align-middle text-sm font-medium">Archived {dates.date(o.archived_at)}</span> : null}
          </h1>
          <p className="text-slate-700">
            {OFFERING_TYPE_LABELS[o.type]} · {o.all_gyms_access ? "All gyms" : o.gyms.map((g) => g.name).join(", ")}
          </p>
        </div>
        {o.may.change ? (
          <div className="flex flex-wrap items-center gap-2">
            <Link to={`/offerings/${o.id}/edit`} className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
              Edit
            </Link>
            <Form method="post">
              <input type="hidden" name="intent" value={o.archived_at ? "restore-offering" : "archive-offering"} />
              <button type="submit" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-50">
                {o.archived_at ? "Restore" : "Archive"}
              </button>
            </Form>
            <Link to="?delete=offering" className="rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-medium text-red-800 hover:bg-red-50">
              Delete
            </Link>
          </div>
        ) : null}
      </div>
      {confirming === "offering" && !offeringResult ? (
        <div className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <span>Delete {o.name} with its prices and hours? Only an offering no member ever held can be deleted, and it cannot be undone.</span>
          <Form method="post">
            <input type="hidden" name="intent" value="delete-offering" />
            <button type="submit" className="rounded-md border border-red-300 bg-white px-2.5 py-1 text-xs font-medium text-red-800 hover:bg-red-100">
              Delete offering
            </button>
          </Form>
          <Link to="." className="text-sm font-medium text-brand-700 hover:underline">
            Keep it
          </Link>
        </div>
      ) : null}
      {offeringResult ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          <span>{offeringResult.message}</span>
          {offeringResult.offerArchive && !o.archived_at ? (
            <Form method="post">
              <input type="hidden" name="intent" value="archive-offering" />
              <button type="submit" className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium">
                Archive it instead
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      {o.description ? <p className="max-w-prose text-slate-700">{o.description}</p> : null}

      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="hours-heading">
          <h2 id="hours-heading" className="mb-2 font-semibold">
            Opening hours
          </h2>
          {o.type === "24_7" ? (
            <p className="text-sm text-slate-700">Open at every hour, every day.</p>
          ) : o.hours.length ? (
            <table className="text-sm">
              <tbody>
                {o.hours.map((h) => (
                  <tr key={h.id}>
                    <th scope="row" className="py-0.5 pr-4 text-left font-medium">
                      {dayName(h.day)}
                    </th>
                    <td className="tabular-nums">
                      {formatClock(h.open_at)} – {formatClock(h.close_at)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-sm text-slate-700">Hours are set by each gym.</p>
          )}
          {o.hours_mandated ? <p className="mt-2 text-xs text-slate-600">The organisation sets these hours.</p> : null}
        </section>
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="gyms-heading">
          <h2 id="gyms-heading" className="mb-2 font-semibold">
            Memberships by gym
          </h2>
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-slate-600">
                <th scope="col" className="py-1 font-medium">Gym</th>
                <th scope="col" className="py-1 text-right font-medium">Unique members</th>
              </tr>
            </thead>
            <tbody>
              {o.gyms.map((g) => (
                <tr key={g.id}>
                  <td className="py-0.5">{g.name}</td>
                  <td className="py-0.5 text-right tabular-nums">{g.unique_memberships.toLocaleString("en-NZ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="prices-heading">
        <div className="mb-2 flex items-center justify-between">
          <h2 id="prices-heading" className="font-semibold">
            Prices
          </h2>
          {o.may.prices ? (
            <Link to={`/offerings/${o.id}/edit`} className="text-sm font-medium text-brand-700 hover:underline">
              Add or change prices
            </Link>
          ) : null}
        </div>
        {o.prices_mandated ? <p className="mb-2 text-xs text-slate-600">The organisation sets these prices.</p> : null}
        <PriceTable prices={o.prices} mayChange={o.may.prices} result={result?.priceId ? result : undefined} confirming={confirming && confirming !== "offering" ? Number(confirming) : null} />
      </section>
    </div>
  );
}
