import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { formatCalendarDay } from "../../../domain/calendar-day";
import { addCalendarDays, localDay } from "../../../domain/dates";
import { capitaliseWords } from "../../../domain/names";
import { formatCents } from "../../../domain/money";
import { EXPECTED_PAYMENTS_DEFAULT_DAYS } from "../../../domain/schemas/debugging";
import { DateInput, Field, SubmitRow } from "../../features/debugging/forms";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";

export const meta: MetaFunction = () => [{ title: "Expected payments · Gym Membership" }];

/** /expected-payments-debugging?from=&to=&mismatches=1&page=: the last four weeks unless asked otherwise. */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const today = localDay(new Date());
  const values = {
    // The API's own default when a day is not given (decision 0040); a blank field counts as not given.
    from: url.searchParams.get("from") || addCalendarDays(today, -(EXPECTED_PAYMENTS_DEFAULT_DAYS - 1)),
    to: url.searchParams.get("to") || today,
    mismatches: url.searchParams.get("mismatches") === "1" ? "1" : "",
  };
  const page = Math.max(1, Math.min(100_000, Number(url.searchParams.get("page")) || 1));
  try {
    const answer = await gymApi(args).get("/expected-payments-debugging", { query: { from: values.from, to: values.to, page, ...(values.mismatches ? { mismatches: "1" } : {}) } });
    return { values, errors: {} as Record<string, string[]>, answer };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) return { values, errors: err.errors ?? {}, answer: null };
    redirectForApiError(args.request, err);
  }
}

const VERDICT: Record<string, { label: string; style: string }> = {
  missing: { label: "Missing", style: "bg-red-100 text-red-800" },
  charged_twice: { label: "Charged twice", style: "bg-red-100 text-red-800" },
  wrong_amount: { label: "Wrong amount", style: "bg-red-100 text-red-800" },
  unexpected: { label: "Unexpected", style: "bg-amber-100 text-amber-800" },
  failed: { label: "Failed", style: "bg-amber-100 text-amber-800" },
  in_progress: { label: "In progress", style: "bg-slate-100 text-slate-700" },
  ok: { label: "OK", style: "bg-green-100 text-green-800" },
};
const day = formatCalendarDay;

export default function ExpectedPayments() {
  const { values, errors, answer } = useLoaderData<typeof loader>();
  const pages = answer ? Math.max(1, Math.ceil(answer.meta.total / answer.meta.per_page)) : 1;
  const link = (page: number) => `?${new URLSearchParams({ from: values.from, to: values.to, ...(values.mismatches ? { mismatches: "1" } : {}), page: String(page) })}`;
  return (
    <div className="max-w-6xl space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Expected payments</h1>
        <p className="mt-1 text-sm text-slate-600">
          For each membership, the periods the billing engine&apos;s own rule expects to charge in these days, against what it charged. Mismatches come first.
        </p>
      </div>
      <Form method="get" className="grid grid-cols-1 gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-4 sm:items-end" aria-label="Choose the days">
        <Field id="expected-from" label="From" error={errors.from?.[0]}>
          <DateInput id="expected-from" name="from" value={values.from} error={errors.from?.[0]} />
        </Field>
        <Field id="expected-to" label="To" error={errors.to?.[0]}>
          <DateInput id="expected-to" name="to" value={values.to} error={errors.to?.[0]} />
        </Field>
        <label className="flex items-center gap-2 text-sm sm:pb-2">
          <input type="checkbox" name="mismatches" value="1" defaultChecked={values.mismatches === "1"} className="h-4 w-4 rounded border-slate-300" />
          Mismatches only
        </label>
        <SubmitRow label="Check" />
      </Form>
      {answer ? (
        <>
          <ul className="flex flex-wrap gap-2 text-sm" aria-label="Summary">
            {Object.entries(answer.summary).map(([verdict, count]) => (
              <li key={verdict} className={`rounded px-2 py-1 ${VERDICT[verdict]?.style ?? ""}`}>
                {VERDICT[verdict]?.label ?? verdict}: {count.toLocaleString("en-NZ")}
              </li>
            ))}
          </ul>
          {answer.checked_until < answer.to ? <p className="text-sm text-slate-600">Periods are checked up to today, {day(answer.checked_until)}.</p> : null}
          {answer.data.length ? (
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
              <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
                <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                  <tr>
                    <th scope="col" className="px-3 py-2">Member</th>
                    <th scope="col" className="px-3 py-2">Period from</th>
                    <th scope="col" className="px-3 py-2">Expected</th>
                    <th scope="col" className="px-3 py-2">Charged</th>
                    <th scope="col" className="px-3 py-2">Verdict</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {answer.data.map((r) => (
                    <tr key={`${r.subscription_id}:${r.period_start}`}>
                      <td data-label="Member" className="px-3 py-2">
                        <Link to={`/members/${r.member.id}`} className="text-brand-700 underline">
                          {capitaliseWords(r.member.name)}
                        </Link>
                        <div className="text-xs text-slate-500">Subscription {r.subscription_id}</div>
                      </td>
                      <td data-label="Period from" className="whitespace-nowrap px-3 py-2">{day(r.period_start)}</td>
                      <td data-label="Expected" className="px-3 py-2">{r.expected_amount == null ? "Nothing" : formatCents(r.expected_amount)}</td>
                      <td data-label="Charged" className="px-3 py-2">
                        {r.charged.length
                          ? r.charged.map((c) => `${formatCents(c.amount)} ${c.status}${c.error_status ? ` (${c.error_status})` : ""}`).join(", ")
                          : "Nothing"}
                      </td>
                      <td data-label="Verdict" className="px-3 py-2">
                        <span className={`inline-block rounded px-2 py-0.5 text-xs font-medium ${VERDICT[r.verdict]?.style ?? ""}`}>{VERDICT[r.verdict]?.label ?? r.verdict}</span>
                        <div className="mt-1 text-slate-700">{r.message}</div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">Nothing to show for these days.</p>
          )}
          {pages > 1 ? (
            <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
              {answer.meta.page > 1 ? (
                <Link to={link(answer.meta.page - 1)} className="text-brand-700 underline">
                  Previous
                </Link>
              ) : null}
              <span>
                Page {answer.meta.page} of {pages}
              </span>
              {answer.meta.page < pages ? (
                <Link to={link(answer.meta.page + 1)} className="text-brand-700 underline">
                  Next
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
