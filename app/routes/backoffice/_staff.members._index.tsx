import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { MemberFilters } from "../../features/members/list-filters";
import { MembersTable, Pagination } from "../../features/members/members-table";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import type { loader as staffLoader } from "./_staff";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Members · Gym Membership" }];

const EXPORT_KEYS = ["q", "status", "offering", "price", "tag", "gym", "sort", "dir"];

/** The list follows the URL's query string; values the API cannot use come back as field errors. */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const query = Object.fromEntries(new URL(args.request.url).searchParams);
  try {
    const [list, offerings] = await Promise.all([
      api.get("/members", { query }).catch((err: unknown) => {
        if (err instanceof ApiRequestError && err.status === 422) return { errors: err.errors ?? {} };
        throw err;
      }),
      api.get("/offerings"),
    ]);
    return withDateTexts({
      list: "errors" in list ? null : list,
      errors: "errors" in list ? list.errors : {},
      offerings: offerings.data,
    });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export default function MembersIndex() {
  const { list, errors, offerings } = useLoaderData<typeof loader>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff");
  const params = new URLSearchParams(useLocation().search);
  const isAdmin = Boolean(staff?.me.is_organisation_admin);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Members</h1>
          <p className="mt-1 text-sm text-slate-600">
            {staff?.me.current_organisation?.name}
            {params.get("gym") === "all" ? " · All gyms" : staff?.me.current_gym ? ` · ${staff.me.current_gym.name}` : ""}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
        {staff?.me.permissions.includes("subscriptions.write") ? (
          <Link to="/members/change-price" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50">
            Change prices in bulk
          </Link>
        ) : null}
        {staff?.me.permissions.includes("subscriptions.write") ? (
          <Link to="/members/new" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800">
            New member
          </Link>
        ) : null}
        {staff?.me.permissions.includes("subscriptions.write") && staff.me.permissions.includes("money.write") ? (
          <Link to="/members/pif" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50">
            New paid-in-full member
          </Link>
        ) : null}
        {/* A plain form: the browser downloads the CSV itself, with or without JavaScript. */}
        {staff?.me.permissions.includes("members.export") ? (
          <form method="post" action="/members/export">
            {EXPORT_KEYS.map((k) => (params.get(k) ? <input key={k} type="hidden" name={k} value={params.get(k)!} /> : null))}
            <button
              type="submit"
              disabled={!list || list.meta.total === 0}
              className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
            >
              Export CSV
              {list ? ` (${list.meta.total.toLocaleString("en-NZ")})` : ""}
            </button>
          </form>
        ) : null}
        </div>
      </div>
      <MemberFilters params={params} offerings={offerings} gyms={staff?.me.gyms ?? []} allGyms={isAdmin} errors={errors} />
      {list ? (
        <>
          {list.data.length ? (
            <MembersTable page={list} params={params} />
          ) : (
            <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-700">No members match these filters.</p>
          )}
          <Pagination meta={list.meta} params={params} />
        </>
      ) : (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          Some filters could not be used. Correct the fields marked above and apply them again.
        </p>
      )}
    </div>
  );
}
