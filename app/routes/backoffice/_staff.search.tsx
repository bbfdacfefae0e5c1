import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { MemberHit } from "../../components/shell/member-search";
import { gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";

export const meta: MetaFunction = () => [{ title: "Search · Gym Membership" }];

/** The global search's results without JavaScript: the same hits as the dropdown, as links. */
export async function loader(args: LoaderFunctionArgs) {
  const query = (new URL(args.request.url).searchParams.get("q") ?? "").trim().slice(0, 100);
  if (!query) return { query, hits: [] as MemberHit[] };
  try {
    const { data } = await gymApi(args).post("/search", { body: { query } });
    return { query, hits: data };
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

export default function SearchResults() {
  const { query, hits } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold">Search</h1>
      {!query ? (
        <p className="mt-4 text-slate-700">Type a name, e-mail address or mobile number in the search box.</p>
      ) : hits.length === 0 ? (
        <p className="mt-4 text-slate-700">No results found for &quot;{query}&quot;</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {hits.length} {hits.length === 1 ? "member" : "members"} found for &quot;{query}&quot;
          </p>
          <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {hits.map((hit) => (
              <li key={hit.id}>
                <Link to={`/members/${hit.id}`} className="block px-4 py-3 hover:bg-slate-50">
                  <span className="block font-medium text-brand-700">{hit.name}</span>
                  <span className="block text-sm text-slate-600">{hit.email}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
