import { Link } from "@remix-run/react";
import { FREQUENCY_LABELS } from "../../../domain/billing";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import { defaultDirection, type MemberSort } from "../../../domain/member-list";
import { StatusBadge } from "./status-badge";
import type { MemberListPage, MemberListRow } from "./types";

/** "$25.00 Weekly", "$90.00 Monthly · 6m Term", "$200.00 PIF" */
export function priceText(m: NonNullable<MemberListRow["membership"]>) {
  const frequency = m.billing_frequency === "one_off" ? "" : ` ${FREQUENCY_LABELS[m.billing_frequency] ?? m.billing_frequency}`;
  return `${formatCents(m.amount)}${frequency}${m.term ? ` · ${m.term}` : ""}`;
}

/** A column header that sorts by it: the first click uses the column's natural order, the next reverses it. */
function SortHeader({ label, sort, params, meta }: { label: string; sort: MemberSort; params: URLSearchParams; meta: MemberListPage["meta"] }) {
  const current = meta.sort === sort;
  const next = new URLSearchParams(params);
  next.delete("page");
  next.set("sort", sort);
  next.set("dir", current ? (meta.dir === "asc" ? "desc" : "asc") : defaultDirection(sort));
  return (
    <th scope="col" data-sort={sort} aria-sort={current ? (meta.dir === "asc" ? "ascending" : "descending") : undefined} className="px-3 py-2 text-left font-semibold">
      <Link to={`?${next}`} className="inline-flex items-center gap-1 hover:text-brand-700">
        {label}
        <span aria-hidden="true" className="text-xs text-slate-500">
          {current ? (meta.dir === "asc" ? "▲" : "▼") : "↕"}
        </span>
        {current ? <span className="sr-only">{meta.dir === "asc" ? "(sorted ascending)" : "(sorted descending)"}</span> : null}
      </Link>
    </th>
  );
}

/**
 * Every column fits at 1280 px beside the sidebar: e-mail and mobile share a column, and long names and
 * addresses wrap rather than widen the table. On a phone each row is a card (stack-table, app/tailwind.css)
 * and the sortable headers are a "Sort by" bar. Between the two the box still scrolls sideways if it must.
 */
export function MembersTable({ page, params }: { page: MemberListPage; params: URLSearchParams }) {
  const dates = useDates();
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="group" aria-label="Members table">
      <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Members, {page.meta.total} in all, page {page.meta.page} of {page.meta.pages}</caption>
        <thead className="bg-slate-50 text-slate-700" data-sort-bar="">
          <tr>
            <SortHeader label="Name" sort="name" params={params} meta={page.meta} />
            <th scope="col" className="px-3 py-2 text-left font-semibold">
              Contact
            </th>
            <th scope="col" className="px-3 py-2 text-left font-semibold">
              Membership
            </th>
            <th scope="col" className="px-3 py-2 text-left font-semibold">
              Status
            </th>
            <SortHeader label="Last visit" sort="last_visit" params={params} meta={page.meta} />
            <SortHeader label="Joined" sort="joined" params={params} meta={page.meta} />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {page.data.map((m) => (
            <tr key={m.id} className="hover:bg-slate-50">
              <td data-label="Name" data-title="" className="px-3 py-2 [overflow-wrap:anywhere]">
                <Link to={`/members/${m.id}`} className="font-medium text-brand-700 hover:underline">
                  {m.name}
                </Link>
                {m.tags.length ? <span className="block text-xs text-slate-600">{m.tags.join(", ")}</span> : null}
              </td>
              <td data-label="Contact" className="px-3 py-2 text-slate-700">
                {/* One child per cell: on a phone the cell is a grid of its label and this. */}
                <span>
                  <span className="block [overflow-wrap:anywhere]">
                    {/* Wrapped, an address breaks after its @ first. */}
                    {m.email.split("@")[0]}
                    {m.email.includes("@") ? (
                      <>
                        @<wbr />
                        {m.email.slice(m.email.indexOf("@") + 1)}
                      </>
                    ) : null}
                  </span>
                  <span className="block whitespace-nowrap text-xs text-slate-600">{m.mobile_number ?? "No mobile"}</span>
                </span>
              </td>
              <td data-label="Membership" className="px-3 py-2 text-slate-700">
                {m.membership ? (
                  <span>
                    <span className="block">{m.membership.offering}</span>
                    <span className="block text-xs text-slate-600">{priceText(m.membership)}</span>
                  </span>
                ) : (
                  "—"
                )}
              </td>
              <td data-label="Status" className="px-3 py-2">
                <StatusBadge status={m.status} />
              </td>
              <td data-label="Last visit" className="whitespace-nowrap px-3 py-2 text-slate-700">
                {m.last_visit_at ? dates.date(m.last_visit_at) : "Never"}
              </td>
              <td data-label="Joined" className="whitespace-nowrap px-3 py-2 text-slate-700">
                {dates.date(m.joined_at)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Pagination({ meta, params, noun = "members" }: { meta: Pick<MemberListPage["meta"], "page" | "per_page" | "total" | "pages">; params: URLSearchParams; noun?: string }) {
  const to = (page: number) => {
    const next = new URLSearchParams(params);
    if (page === 1) next.delete("page");
    else next.set("page", String(page));
    return `?${next}`;
  };
  const first = meta.total === 0 ? 0 : (meta.page - 1) * meta.per_page + 1;
  const last = Math.min(meta.total, meta.page * meta.per_page);
  const link = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50";
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700">
        {meta.total === 0 ? `No ${noun}` : `Showing ${first.toLocaleString("en-NZ")}–${last.toLocaleString("en-NZ")} of ${meta.total.toLocaleString("en-NZ")}`}
        {meta.pages > 1 ? ` · Page ${meta.page} of ${meta.pages.toLocaleString("en-NZ")}` : ""}
      </p>
      {meta.pages > 1 ? (
        <div className="flex gap-2">
          {meta.page > 1 ? (
            <Link to={to(meta.page - 1)} rel="prev" className={link}>
              Previous
            </Link>
          ) : null}
          {meta.page < meta.pages ? (
            <Link to={to(meta.page + 1)} rel="next" className={link}>
              Next
            </Link>
          ) : null}
        </div>
      ) : null}
    </nav>
  );
}
