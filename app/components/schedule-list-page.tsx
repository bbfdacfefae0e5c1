import type { ReactNode } from "react";
import { Link } from "@remix-run/react";

/**
 * The frame of a page that lists schedules and makes a new one (issue 16's personal training, issue 34's classes):
 * the heading with its links, the running schedules in a table (ended ones behind a filter) and the form's section.
 * One frame, so both pages keep the same landmarks, headings and ids that people (and the e2e tests) find them by.
 */
export function ScheduleListPage<T extends { id: number }>({
  above,
  title,
  links,
  columns,
  items,
  cells,
  ended,
  none,
  form,
}: {
  /** What stands above the heading (a section's own navigation). */
  above?: ReactNode;
  title: ReactNode;
  /** The heading's links, beside it. */
  links: ReactNode;
  columns: string[];
  items: T[];
  /** A row's cells, in the columns' order. */
  cells: (item: T) => ReactNode[];
  /** Whether the ended ones are listed too. */
  ended: boolean;
  /** What the list says when it is empty, before "running." (ended ones hidden) or "." (shown). */
  none: string;
  /** The form's section, or null where it is not shown (no permission, no gym chosen). */
  form: { heading: ReactNode; width: "max-w-2xl" | "max-w-3xl"; children: ReactNode } | null;
}) {
  return (
    <div className="space-y-4">
      {above}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{title}</h1>
        {links}
      </div>
      <section aria-labelledby="list-heading" className="rounded-lg border border-slate-200 bg-white">
        <h2 id="list-heading" className="sr-only">
          Schedules
        </h2>
        {items.length ? (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col" className="px-4 py-2 font-medium">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {items.map((item) => (
                <tr key={item.id}>
                  {cells(item).map((cell, i) => (
                    <td key={i} className="px-4 py-2">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="p-4 text-sm text-slate-600">
            {none}
            {ended ? "" : " running"}.
          </p>
        )}
      </section>
      {form ? (
        <section aria-labelledby="new-heading" className={`${form.width} space-y-3 rounded-lg border border-slate-200 bg-white p-4`}>
          <h2 id="new-heading" className="font-semibold">
            {form.heading}
          </h2>
          {form.children}
        </section>
      ) : null}
    </div>
  );
}

/** The link that shows the ended schedules too, or hides them again. */
export function EndedLink({ path, ended, className }: { path: string; ended: boolean; className: string }) {
  return (
    <Link to={ended ? path : `${path}?ended=1`} className={className}>
      {ended ? "Hide ended ones" : "Show ended ones too"}
    </Link>
  );
}

/** A schedule's When cell: how often, and over which days (or that it has ended). */
export function WhenCell({ summary, ended, span }: { summary: string; ended: boolean; span: string }) {
  return (
    <>
      {summary}
      <span className="block text-xs text-slate-600">
        {ended ? "Ended. " : ""}
        {span}
      </span>
    </>
  );
}
