import { Form, Link } from "@remix-run/react";
import { controlClass } from "../../components/control-class";
import { FREQUENCY_LABELS } from "../../../domain/billing";
import { formatCents } from "../../../domain/money";
import { MEMBER_STATUS_FILTERS } from "../../../domain/member-list";
import { STATE_LABELS } from "../../../domain/subscription";
import type { OfferingSummary } from "./types";

const STATUS_LABELS: Record<(typeof MEMBER_STATUS_FILTERS)[number], string> = { ...STATE_LABELS, none: "No membership" };
const FILTER_KEYS = ["q", "status", "offering", "price", "tag", "gym"] as const;

/**
 * The list's filters: a GET form, so a filtered list is a link and works without JavaScript. The sort
 * travels along in hidden fields; changing a filter goes back to page 1.
 */
export function MemberFilters({
  params,
  offerings,
  gyms,
  allGyms,
  errors,
}: {
  params: URLSearchParams;
  offerings: OfferingSummary[];
  gyms: { id: number; name: string }[];
  allGyms: boolean;
  errors: Record<string, string[]>;
}) {
  const value = (k: string) => params.get(k) ?? "";
  const field = (name: string, label: string, input: React.ReactNode) => (
    <div className="min-w-0">
      <label htmlFor={`filter-${name}`} className="block text-xs font-medium text-slate-700">
        {label}
      </label>
      <div className="mt-1">{input}</div>
      {errors[name]?.length ? (
        <p id={`filter-${name}-error`} className="mt-1 text-xs text-red-700">
          {errors[name][0]}
        </p>
      ) : null}
    </div>
  );
  const describedBy = (name: string) => (errors[name]?.length ? `filter-${name}-error` : undefined);
  const active = FILTER_KEYS.some((k) => value(k));

  return (
    <Form method="get" className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Filter members">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
        {field(
          "q",
          "Name, e-mail or mobile",
          <input id="filter-q" name="q" type="search" defaultValue={value("q")} maxLength={100} className={controlClass(Boolean(errors.q))} aria-invalid={Boolean(errors.q) || undefined} aria-describedby={describedBy("q")} />,
        )}
        {field(
          "status",
          "Status",
          <select id="filter-status" name="status" defaultValue={value("status")} className={controlClass(Boolean(errors.status))} aria-invalid={Boolean(errors.status) || undefined} aria-describedby={describedBy("status")}>
            <option value="">Any status</option>
            {MEMBER_STATUS_FILTERS.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>,
        )}
        {field(
          "offering",
          "Offering",
          <select id="filter-offering" name="offering" defaultValue={value("offering")} className={controlClass(Boolean(errors.offering))} aria-invalid={Boolean(errors.offering) || undefined} aria-describedby={describedBy("offering")}>
            <option value="">Any offering</option>
            {offerings.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
                {o.archived_at ? " (archived)" : ""}
              </option>
            ))}
          </select>,
        )}
        {field(
          "price",
          "Price",
          <select id="filter-price" name="price" defaultValue={value("price")} className={controlClass(Boolean(errors.price))} aria-invalid={Boolean(errors.price) || undefined} aria-describedby={describedBy("price")}>
            <option value="">Any price</option>
            {offerings.map((o) =>
              o.prices.length ? (
                <optgroup key={o.id} label={o.name}>
                  {o.prices.map((p) => (
                    <option key={p.id} value={p.id}>
                      {formatCents(p.amount)} {FREQUENCY_LABELS[p.billing_frequency] ?? p.billing_frequency}
                      {p.term && p.term !== "PIF" ? ` · ${p.term}` : ""}
                      {p.archived_at ? " (archived)" : ""}
                    </option>
                  ))}
                </optgroup>
              ) : null,
            )}
          </select>,
        )}
        {field(
          "tag",
          "Tag",
          <input id="filter-tag" name="tag" defaultValue={value("tag")} maxLength={50} className={controlClass(Boolean(errors.tag))} aria-invalid={Boolean(errors.tag) || undefined} aria-describedby={describedBy("tag")} />,
        )}
        {gyms.length > 1 || allGyms
          ? field(
              "gym",
              "Gym",
              <select id="filter-gym" name="gym" defaultValue={value("gym")} className={controlClass(Boolean(errors.gym))} aria-invalid={Boolean(errors.gym) || undefined} aria-describedby={describedBy("gym")}>
                <option value="">Current gym</option>
                {allGyms ? <option value="all">All gyms</option> : null}
                {gyms.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.name}
                  </option>
                ))}
              </select>,
            )
          : null}
      </div>
      {value("sort") ? <input type="hidden" name="sort" value={value("sort")} /> : null}
      {value("dir") ? <input type="hidden" name="dir" value={value("dir")} /> : null}
      <div className="mt-3 flex items-center gap-3">
        <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-100">
          Apply filters
        </button>
        {active ? (
          <Link to="/members" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
            Clear filters
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
