import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { controlClass } from "../../components/control-class";

/**
 * A list's filters as a GET form (the /payments and /visits lists, issue 12): a filtered list is a link and works
 * without JavaScript; changing a filter goes back to page 1. Each field says its own error under it.
 */
export interface FilterField {
  name: string;
  label: string;
  type?: "text" | "date" | "search";
  options?: { value: string; label: string }[];
  /** The select's first, empty option. */
  any?: string;
}

export function ListFilters({
  label,
  to,
  params,
  fields,
  errors,
  applied = {},
}: {
  label: string;
  to: string;
  params: URLSearchParams;
  fields: FilterField[];
  errors: Record<string, string[]>;
  /** What the list applied where the address says nothing (the last 30 days' from and to): shown, so no field looks unset while it filters. */
  applied?: Record<string, string>;
}) {
  const value = (k: string) => params.get(k) ?? "";
  const active = fields.some((f) => value(f.name));
  const input = (f: FilterField): ReactNode => {
    const invalid = Boolean(errors[f.name]?.length);
    const shown = value(f.name) || applied[f.name] || "";
    // Each control is keyed by its value: one typed in keeps that text through a client-side navigation (Clear filters,
    // a link to other filters) unless it is drawn anew, and then it showed a filter the list no longer had.
    const common = {
      id: `filter-${f.name}`,
      name: f.name,
      defaultValue: shown,
      className: controlClass(invalid),
      "aria-invalid": invalid || undefined,
      "aria-describedby": invalid ? `filter-${f.name}-error` : undefined,
    };
    if (f.options) {
      return (
        <select key={shown} {...common}>
          <option value="">{f.any ?? "Any"}</option>
          {f.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    }
    return <input key={shown} {...common} type={f.type ?? "text"} maxLength={100} />;
  };
  return (
    <Form method="get" className="rounded-lg border border-slate-200 bg-white p-4" aria-label={label}>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
        {fields.map((f) => (
          <div key={f.name} className="min-w-0">
            <label htmlFor={`filter-${f.name}`} className="block text-xs font-medium text-slate-700">
              {f.label}
            </label>
            <div className="mt-1">{input(f)}</div>
            {errors[f.name]?.length ? (
              <p id={`filter-${f.name}-error`} className="mt-1 text-xs text-red-700">
                {errors[f.name][0]}
              </p>
            ) : null}
          </div>
        ))}
      </div>
      {value("member") ? <input type="hidden" name="member" value={value("member")} /> : null}
      <div className="mt-3 flex items-center gap-3">
        <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-100">
          Apply filters
        </button>
        {active || value("member") ? (
          <Link to={to} className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
            Clear filters
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** The gym filter's options: the current gym by default, every gym for organisation admins. */
export function gymOptions(gyms: { id: number; name: string }[], allGyms: boolean) {
  return [...(allGyms ? [{ value: "all", label: "All gyms" }] : []), ...gyms.map((g) => ({ value: String(g.id), label: g.name }))];
}

/** A list page's plain-form CSV export (the browser downloads it, with or without JavaScript), with the list's filters. */
export function ExportButton({ action, params, keys, count }: { action: string; params: URLSearchParams; keys: string[]; count: number | null }) {
  return (
    <form method="post" action={action}>
      {keys.map((k) => (params.get(k) ? <input key={k} type="hidden" name={k} value={params.get(k)!} /> : null))}
      <button
        type="submit"
        disabled={!count}
        className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
      >
        Export CSV{count !== null ? ` (${count.toLocaleString("en-NZ")})` : ""}
      </button>
    </form>
  );
}

/**
 * A list page's heading (/payments, /visits): its title, the organisation, the gym or every gym, the days shown, and
 * the export of the filtered set.
 */
export function ListHeading({
  title,
  params,
  organisation,
  currentGym,
  range,
  exportAction,
  keys,
  count,
}: {
  title: string;
  params: URLSearchParams;
  organisation: string | undefined;
  currentGym: string | undefined;
  range: { from: string; to: string } | undefined;
  exportAction: string;
  keys: string[];
  count: number | null;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {organisation}
          {params.get("gym") === "all" ? " · All gyms" : currentGym ? ` · ${currentGym}` : ""}
          {range ? ` · ${formatDay(range.from)} to ${formatDay(range.to)}` : ""}
        </p>
      </div>
      <ExportButton action={exportAction} params={params} keys={keys} count={count} />
    </div>
  );
}
