import { Form, Link } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import { EXPLANATION_MAX } from "../../../domain/schemas/reconciliation";
import { controlClass } from "../../components/control-class";
import { FilterSelect, ListFilters } from "../../components/list-filters";
import type { AnswerOf } from "../../lib/api-contract";

export type DifferenceList = AnswerOf<"get", "/reconciliation">;
type Difference = DifferenceList["data"][number];

const STATUS_LABELS: Record<string, string> = { open: "Open", explained: "Explained", corrected: "Corrected automatically", all: "All" };

/** The status filter (a GET form: works without JavaScript, and a filtered list is a link). */
export function DifferenceFilter({ status }: { status: string }) {
  return (
    <ListFilters label="Filter differences" submit="Show">
      <FilterSelect form="differences" name="status" label="Status" value={status} options={Object.entries(STATUS_LABELS)} />
    </ListFilters>
  );
}

const money = (cents: number | null) => (cents === null ? "—" : formatCents(cents));

/** One difference in words, ours against theirs, and (while open) its Explain form. */
export function DifferenceCard({ d, error, value }: { d: Difference; error?: string; value?: string }) {
  const dates = useDates();
  const errorId = `explain-${d.id}-error`;
  return (
    <li className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby={`difference-${d.id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`difference-${d.id}`} className="font-medium">
          {d.kind_label}
          {d.member ? (
            <>
              {" · "}
              <Link to={`/members/${d.member.id}`} className="text-brand-700 underline">
                {d.member.name}
              </Link>
            </>
          ) : null}
        </h2>
        <span className="text-sm text-slate-600">
          {d.day ? formatDay(d.day) : dates.date(d.created_at)} · {d.provider_label} · {d.gym}
        </span>
      </div>
      <p>{d.in_words}</p>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:max-w-md">
        <div>
          <dt className="text-slate-600">Ours</dt>
          <dd>
            {money(d.ours_amount)} {d.ours_status ? `(${d.ours_status.replace(/_/g, " ")})` : ""}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Theirs</dt>
          <dd>
            {money(d.theirs_amount)} {d.theirs_status ? `(${d.theirs_status.replace(/_/g, " ")})` : ""}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-slate-500">Provider reference {d.provider_reference}</p>
      {d.status === "open" ? (
        <Form method="post" className="space-y-1" aria-label={`Explain difference ${d.id}`}>
          <input type="hidden" name="id" value={d.id} />
          <label htmlFor={`explain-${d.id}`} className="block text-sm font-medium text-slate-800">
            Explanation
          </label>
          <textarea
            id={`explain-${d.id}`}
            name="explanation"
            rows={2}
            maxLength={EXPLANATION_MAX}
            defaultValue={value}
            className={controlClass(Boolean(error))}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error ? (
            <p id={errorId} className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <button type="submit" className="rounded border border-slate-300 px-3 py-1.5 text-sm font-medium">
            Explain
          </button>
        </Form>
      ) : d.explanation ? (
        <p className="text-sm">
          <span className="font-medium">Explained</span>
          {d.resolved_by ? ` by ${d.resolved_by}` : ""}: {d.explanation}
        </p>
      ) : null}
    </li>
  );
}
