import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { formatCents } from "../../../domain/money";
import { OFFERING_TYPE_LABELS, perFrequency } from "../../../domain/offering";
import { offeringsRoute } from "../../features/offerings/offering-route.server";
import { orRefusal } from "../../features/members/member-route.server";

export const meta: MetaFunction = () => [{ title: "Offerings · Gym Membership" }];

/** /offerings[?status=archived]: the organisation's offerings, live ones unless archived ones are asked for. */
export async function loader(args: LoaderFunctionArgs) {
  const api = offeringsRoute(args);
  const status = new URL(args.request.url).searchParams.get("status") === "archived" ? "archived" : "active";
  const [list, me] = await orRefusal(args.request, Promise.all([api.get("/offerings", { query: { status } }), api.get("/me")]));
  return { status, offerings: list.data, mayCreate: me.permissions.includes("offerings.write") };
}

export default function Offerings() {
  const { status, offerings, mayCreate } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-6xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{status === "archived" ? "Archived offerings" : "Offerings"}</h1>
        {mayCreate ? (
          <Link to="/offerings/create" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800">
            New offering
          </Link>
        ) : null}
      </div>
      <Form method="get" className="flex items-center gap-3 text-sm" aria-label="Which offerings">
        <label htmlFor="offerings-status" className="font-medium text-slate-800">
          Show
        </label>
        <select id="offerings-status" name="status" defaultValue={status} className="rounded-md border border-slate-300 bg-white px-3 py-1.5" onChange={(e) => e.currentTarget.form?.requestSubmit()}>
          <option value="active">Live offerings</option>
          <option value="archived">Archived offerings</option>
        </select>
        <noscript>
          <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 font-medium">
            Show
          </button>
        </noscript>
      </Form>
      {offerings.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-700">{status === "archived" ? "No archived offerings." : "No offerings yet. Create one to start selling memberships."}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">Name</th>
                <th scope="col" className="px-4 py-2 font-semibold">Type</th>
                <th scope="col" className="px-4 py-2 font-semibold">Gyms</th>
                <th scope="col" className="px-4 py-2 font-semibold">Prices</th>
                <th scope="col" className="px-4 py-2 text-right font-semibold">Members</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {offerings.map((o) => {
                const live = o.prices.filter((p) => !p.archived_at);
                return (
                  <tr key={o.id}>
                    <td data-label="Name" data-title="" className="px-4 py-2">
                      <Link to={`/offerings/${o.id}`} className="font-medium text-brand-700 hover:underline">
                        {o.name}
                      </Link>
                    </td>
                    <td data-label="Type" className="px-4 py-2">{OFFERING_TYPE_LABELS[o.type]}</td>
                    <td data-label="Gyms" className="px-4 py-2">{o.all_gyms_access ? "All gyms" : o.gyms.map((g) => g.name).join(", ") || "—"}</td>
                    <td data-label="Prices" className="px-4 py-2">
                      <div>
                        {o.prices_count} {o.prices_count === 1 ? "price" : "prices"}
                        {live.length ? <span className="block text-xs text-slate-600">from {formatCents(Math.min(...live.map((p) => p.amount)))} {perFrequency(live.reduce((a, b) => (b.amount < a.amount ? b : a)).billing_frequency)}</span> : null}
                      </div>
                    </td>
                    <td data-label="Members" className="px-4 py-2 tabular-nums md:text-right">{o.members_count.toLocaleString("en-NZ")}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
