import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as staffLoader } from "./_staff";
import { orRefusal } from "../../features/members/member-route.server";
import { ProviderBadges } from "../../features/gyms/providers";
import { gymApi } from "../../lib/api.server";

export const meta: MetaFunction = () => [{ title: "Gyms · Gym Membership" }];

/** /gyms: the gyms the user runs (every gym for an organisation admin). */
export async function loader(args: LoaderFunctionArgs) {
  return { gyms: (await orRefusal(args.request, gymApi(args).get("/gyms"))).data };
}

export default function Gyms() {
  const { gyms } = useLoaderData<typeof loader>();
  const mayOpen = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff")?.me.permissions.includes("gyms.create");
  return (
    <div className="max-w-5xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Gyms</h1>
        {mayOpen ? (
          <Link to="/gyms/new" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
            Open a new gym
          </Link>
        ) : null}
      </div>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-4 py-2 font-semibold">Name</th>
              <th scope="col" className="px-4 py-2 text-right font-semibold">Staff</th>
              <th scope="col" className="px-4 py-2 text-right font-semibold">Members</th>
              <th scope="col" className="px-4 py-2 font-semibold">Connected</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {gyms.map((g) => (
              <tr key={g.id}>
                <td data-label="Name" data-title="" className="px-4 py-2">
                  <Link to={`/gyms/${g.id}`} className="font-medium text-brand-700 hover:underline">
                    {g.name}
                  </Link>
                  {g.archived_at ? <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">Archived</span> : null}
                </td>
                <td data-label="Staff" className="px-4 py-2 tabular-nums md:text-right">{g.staff_count}</td>
                <td data-label="Members" className="px-4 py-2 tabular-nums md:text-right">{g.members_count.toLocaleString("en-NZ")}</td>
                <td data-label="Connected" className="px-4 py-2">
                  <ProviderBadges providers={g.providers} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
