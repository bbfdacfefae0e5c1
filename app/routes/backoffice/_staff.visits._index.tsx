import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { Pagination } from "../../features/members/members-table";
import { gymOptions, ListFilters, ListHeading } from "../../features/money-lists/list-filters";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import type { loader as staffLoader } from "./_staff";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Visits · Gym Membership" }];

const FILTER_KEYS = ["from", "to", "result", "gym", "q", "member"];

/** /visits (issue 12): who came in, or was refused at the door, filtered through the URL, with the CSV export. */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const query = Object.fromEntries(new URL(args.request.url).searchParams);
  try {
    const list = await api.get("/visits", { query }).catch((err: unknown) => {
      if (err instanceof ApiRequestError && err.status === 422) return { errors: err.errors ?? {} };
      throw err;
    });
    return withDateTexts("errors" in list ? { list: null, errors: list.errors } : { list, errors: {} as Record<string, string[]> });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export default function VisitsIndex() {
  const dates = useDates();
  const { list, errors } = useLoaderData<typeof loader>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff");
  const params = new URLSearchParams(useLocation().search);
  const isAdmin = Boolean(staff?.me.is_organisation_admin);
  return (
    <div className="space-y-4">
      <ListHeading
        title="Visits"
        params={params}
        organisation={staff?.me.current_organisation?.name}
        currentGym={staff?.me.current_gym?.name}
        range={list?.meta}
        exportAction="/visits/export"
        keys={FILTER_KEYS}
        count={list?.meta.total ?? null}
      />
      <ListFilters
        label="Filter visits"
        to="/visits"
        params={params}
        errors={errors}
        applied={list ? { from: list.meta.from, to: list.meta.to } : undefined}
        fields={[
          { name: "from", label: "From", type: "date" },
          { name: "to", label: "To", type: "date" },
          {
            name: "result",
            label: "Result",
            any: "Entered or refused",
            options: [
              { value: "successful", label: "Entered" },
              { value: "refused", label: "Refused at the door" },
            ],
          },
          ...((staff?.me.gyms.length ?? 0) > 1 || isAdmin ? [{ name: "gym", label: "Gym", any: "Current gym", options: gymOptions(staff?.me.gyms ?? [], isAdmin) }] : []),
          { name: "q", label: "Member (name or e-mail)", type: "search" as const },
        ]}
      />
      {list ? (
        <>
          <p className="text-sm text-slate-700">
            {list.totals.count.toLocaleString("en-NZ")} visits: {list.totals.successful.toLocaleString("en-NZ")} entered, {list.totals.refused.toLocaleString("en-NZ")} refused.
          </p>
          {list.data.length ? (
            <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
              <table className="stack-table w-full text-sm">
                <caption className="sr-only">Visits, newest first</caption>
                <thead className="bg-slate-50 text-slate-700">
                  <tr>
                    {["When", "Member", "Gym", "Result"].map((h) => (
                      <th key={h} scope="col" className="px-3 py-2 text-left font-semibold">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {list.data.map((v) => (
                    <tr key={v.id}>
                      <td data-label="When" className="px-3 py-2 text-slate-800">
                        {dates.dateTime(v.visited_at)}
                      </td>
                      <td data-title className="px-3 py-2">
                        <Link to={`/members/${v.user.id}`} className="font-medium text-brand-700 hover:underline">
                          {v.user.name}
                        </Link>
                      </td>
                      <td data-label="Gym" className="px-3 py-2 text-slate-800">
                        {v.gym.name}
                      </td>
                      <td data-label="Result" className={`px-3 py-2 font-medium ${v.successful ? "text-green-800" : "text-red-800"}`}>
                        {v.successful ? "Entered" : "Refused"}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-700">No visits match these filters.</p>
          )}
          <Pagination meta={list.meta} params={params} noun="visits" />
        </>
      ) : (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          Some filters could not be used. Correct the fields marked above and apply them again.
        </p>
      )}
    </div>
  );
}
