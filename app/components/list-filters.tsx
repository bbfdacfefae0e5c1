import type { ReactNode } from "react";
import { Form, Link } from "@remix-run/react";
import { controlClass } from "./control-class";

/**
 * A list's filters and pages, as the back office's lists show them (the reconciliation, the webhook calls): a GET
 * form, so a filtered list is a link support can share and it works without JavaScript; each field labelled, its
 * error said under it and tied to it (aria-describedby), the values chosen kept. Each control is keyed by its value, so
 * a client-side navigation (Clear, a shared link) draws it anew with the list's filter rather than keep what was typed.
 */
type Errors = Record<string, string[] | undefined>;

/** The ids and ARIA of one field of form `form`: its error's id only when it has one. */
export function filterField(form: string, name: string, errors: Errors = {}) {
  const id = `${form}-${name}`;
  const error = errors[name]?.[0] ?? null;
  return { id, errorId: `${id}-error`, error, aria: { "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${id}-error` : undefined } };
}

export function ListFilters({ label, layout = "flex flex-wrap items-end gap-3", submit, clearTo, children }: { label: string; layout?: string; submit: string; clearTo?: string; children: ReactNode }) {
  return (
    <Form method="get" className={`${layout} rounded-lg border border-slate-200 bg-white p-4`} aria-label={label}>
      {children}
      <div className="flex gap-2">
        <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
          {submit}
        </button>
        {clearTo ? (
          <Link to={clearTo} className="rounded-md border border-slate-300 px-4 py-2 text-sm">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

function Labelled({ field, label, children }: { field: ReturnType<typeof filterField>; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={field.id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {field.error ? (
        <p id={field.errorId} className="text-sm text-red-700">
          {field.error}
        </p>
      ) : null}
    </div>
  );
}

/** A select of `options` ([value, label]); `any`: the first option's label, for no filter (value ""). */
export function FilterSelect({ form, name, label, value, options, any, errors }: { form: string; name: string; label: string; value: string; options: [string, string][]; any?: string; errors?: Errors }) {
  const field = filterField(form, name, errors);
  return (
    <Labelled field={field} label={label}>
      <select key={value} id={field.id} name={name} defaultValue={value} className={controlClass(Boolean(field.error))} {...field.aria}>
        {any !== undefined ? <option value="">{any}</option> : null}
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </Labelled>
  );
}

export function FilterDate({ form, name, label, value, errors }: { form: string; name: string; label: string; value: string; errors?: Errors }) {
  const field = filterField(form, name, errors);
  return (
    <Labelled field={field} label={label}>
      <input key={value} id={field.id} name={name} type="date" defaultValue={value} className={controlClass(Boolean(field.error))} {...field.aria} />
    </Labelled>
  );
}

/** Newer / Page n of m / Older, as links (`link(page)`), when there is more than one page. */
export function Pager({ page, pages, link }: { page: number; pages: number; link: (page: number) => string }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
      {page > 1 ? (
        <Link to={link(page - 1)} className="text-brand-700 underline">
          Newer
        </Link>
      ) : null}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={link(page + 1)} className="text-brand-700 underline">
          Older
        </Link>
      ) : null}
    </nav>
  );
}
