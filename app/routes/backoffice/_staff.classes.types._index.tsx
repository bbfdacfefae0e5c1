import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FREQUENCY_LABELS, type BillingFrequency } from "../../../domain/billing";
import { formatCents } from "../../../domain/money";
import { perFrequency } from "../../../domain/offering";
import { orRefusal } from "../../features/members/member-route.server";
import { ClassesNav } from "../../features/classes/classes-nav";
import { TypeDot } from "../../features/classes/inputs";
import { gymApi } from "../../lib/api.server";

export const meta: MetaFunction = () => [{ title: "Class types · Gym Membership" }];

/** /classes/types (issue 34): the organisation's class types; organisation admins add and change them. */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const archived = new URL(args.request.url).searchParams.get("archived") === "1";
  const [types, me] = await orRefusal(args.request, Promise.all([api.get("/class-types", { query: archived ? { archived: "1" } : {} }), api.get("/me")]));
  return { types: types.data, archived, mayChange: me.is_organisation_admin && me.permissions.includes("classes.write") };
}

export default function ClassTypes() {
  const { types, archived, mayChange } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <ClassesNav current="types" />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Class types</h1>
        <div className="flex gap-2 text-sm">
          <Link
            to={archived ? "/classes/types" : "/classes/types?archived=1"}
            className="rounded-md bg-white px-3 py-1.5 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
          >
            {archived ? "Hide archived ones" : "Show archived ones too"}
          </Link>
          {mayChange ? (
            <Link to="/classes/types/new" className="rounded-md bg-brand-700 px-3 py-1.5 font-semibold text-white hover:bg-brand-800">
              New class type
            </Link>
          ) : null}
        </div>
      </div>
      <section aria-labelledby="types-heading" className="rounded-lg border border-slate-200 bg-white">
        <h2 id="types-heading" className="sr-only">
          Types
        </h2>
        {types.length ? (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Name
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Length
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Places
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Included in
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Drop-in
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {types.map((t) => (
                <tr key={t.id}>
                  <td className="px-4 py-2">
                    <span className="inline-flex items-center gap-2">
                      <TypeDot colour={t.colour} />
                      {mayChange ? (
                        <Link to={`/classes/types/${t.id}`} className="font-medium text-brand-700 underline">
                          {t.name}
                        </Link>
                      ) : (
                        <span className="font-medium">{t.name}</span>
                      )}
                      {t.archived ? <span className="rounded bg-slate-100 px-1.5 text-xs text-slate-700">Archived</span> : null}
                    </span>
                  </td>
                  <td className="px-4 py-2">{t.duration_minutes} min</td>
                  <td className="px-4 py-2">
                    {t.default_capacity}
                    {t.default_waitlist ? ` + ${t.default_waitlist} waiting` : ""}
                  </td>
                  <td className="px-4 py-2">
                    {[
                      ...t.included_in.offerings.map((o) => o.name),
                      ...t.included_in.prices.map(
                        (p) =>
                          `${p.offering} (${formatCents(p.amount)} ${
                            p.billing_frequency in FREQUENCY_LABELS ? perFrequency(p.billing_frequency as BillingFrequency) : p.billing_frequency
                          })`,
                      ),
                    ].join(", ") || "None"}
                  </td>
                  <td className="px-4 py-2">{t.drop_in_amount ? formatCents(t.drop_in_amount) : "Members only"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="p-4 text-sm text-slate-600">No class types yet.</p>
        )}
      </section>
    </div>
  );
}
