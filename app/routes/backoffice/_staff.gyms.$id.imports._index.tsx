import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { importsRoute } from "../../features/imports/import-route.server";
import { ImportStatus } from "../../features/imports/import-parts";
import { orRefusal } from "../../features/members/member-route.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Imports · ${data?.gymName ?? "Gym"} · Gym Membership` }];

/** /gyms/{id}/imports: the member files brought into this gym, newest first. */
export async function loader(args: LoaderFunctionArgs) {
  const { api, gymId, gymName } = await importsRoute(args);
  const list = await orRefusal(args.request, api.get("/gyms/:id/imports", { params: { id: gymId } }));
  return withDateTexts({ gymId, gymName, imports: list.data });
}

export default function Imports() {
  const dates = useDates();
  const { gymId, gymName, imports } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-5xl space-y-4">
      <p className="text-sm">
        <Link to={`/gyms/${gymId}`} className="text-brand-700 hover:underline">
          {gymName}
        </Link>
      </p>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Member imports</h1>
        <Link to={`/gyms/${gymId}/imports/new`} className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
          New import
        </Link>
      </div>
      <p className="text-sm text-slate-700">Bring members over from another system: upload its member export (CSV), match its columns, check it, then import.</p>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-4 py-2 font-semibold">File</th>
              <th scope="col" className="px-4 py-2 font-semibold">Started</th>
              <th scope="col" className="px-4 py-2 font-semibold">Status</th>
              <th scope="col" className="px-4 py-2 text-right font-semibold">Rows</th>
              <th scope="col" className="px-4 py-2 text-right font-semibold">Created</th>
              <th scope="col" className="px-4 py-2 text-right font-semibold">Updated</th>
              <th scope="col" className="px-4 py-2 text-right font-semibold">Not imported</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {imports.length === 0 ? (
              <tr>
                <td colSpan={7} className="px-4 py-6 text-center text-slate-600">
                  No imports yet.
                </td>
              </tr>
            ) : null}
            {imports.map((i) => (
              <tr key={i.id}>
                <td data-label="File" data-title="" className="px-4 py-2">
                  <Link to={`/gyms/${gymId}/imports/${i.id}`} className="font-medium text-brand-700 hover:underline">
                    {i.filename}
                  </Link>
                </td>
                <td data-label="Started" className="px-4 py-2">
                  {dates.dateTime(new Date(i.created_at))} by {i.created_by}
                </td>
                <td data-label="Status" className="px-4 py-2">
                  <ImportStatus status={i.status} />
                </td>
                <td data-label="Rows" className="px-4 py-2 tabular-nums md:text-right">{i.row_count.toLocaleString("en-NZ")}</td>
                <td data-label="Created" className="px-4 py-2 tabular-nums md:text-right">{i.created_count.toLocaleString("en-NZ")}</td>
                <td data-label="Updated" className="px-4 py-2 tabular-nums md:text-right">{i.updated_count.toLocaleString("en-NZ")}</td>
                <td data-label="Not imported" className="px-4 py-2 tabular-nums md:text-right">{i.rejected_count.toLocaleString("en-NZ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
