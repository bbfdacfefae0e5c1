import { Form, Link, useNavigate } from "@remix-run/react";
import type { ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { MemberSearch } from "../../components/shell/member-search";

/**
 * The member picker: the global search in its "Search for a member" mode (SPEC §2) once the page's scripts are
 * there, choosing a hit going to `hrefFor(id)`. Before them, or without JavaScript, the same as a GET form: the query
 * goes in `find`, the page's loader asks POST /api/search, and each hit links to `hrefFor(id)`. `children` carries
 * the form's other query parameters (hidden inputs) so the page keeps its place.
 */
export function MemberFinder({ label, find, hits, hrefFor, children, className = "" }: { label: string; find: string; hits: { id: number; name: string; email: string }[] | null; hrefFor: (id: number) => string; children?: ReactNode; className?: string }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  // A search already made through the form (before the scripts came) keeps its results as they are.
  if (hydrated && !find) {
    return (
      <div className={className}>
        <MemberSearch id="find-member" label={label} onSelect={(hit) => navigate(hrefFor(hit.id))} />
      </div>
    );
  }
  return (
    <Form method="get" className={`space-y-2 ${className}`}>
      {children}
      <label htmlFor="find-member" className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex gap-2">
        <input id="find-member" name="find" type="search" defaultValue={find} placeholder="Search for a member" className="block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm" />
        <button type="submit" className="rounded-md bg-white px-3 py-1.5 text-sm font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
          Find
        </button>
      </div>
      {hits ? (
        hits.length ? (
          <ul aria-label="Members found" className="space-y-1 text-sm">
            {hits.map((h) => (
              <li key={h.id}>
                <Link to={hrefFor(h.id)} className="text-brand-700 underline">
                  {h.name}
                </Link>{" "}
                <span className="text-slate-600">{h.email}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No results found for &quot;{find}&quot;</p>
        )
      ) : null}
    </Form>
  );
}
