import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import {
  PAYMENT_ADJUSTED_FILTERS,
  PAYMENT_ADJUSTED_LABELS,
  PAYMENT_METHOD_FILTERS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_OUTCOME_FILTERS,
  PAYMENT_OUTCOME_LABELS,
} from "../../../domain/payment-filters";
import { Pagination } from "../../features/members/members-table";
import { GivenBack } from "../../features/money-lists/given-back";
import { gymOptions, ListFilters, ListHeading } from "../../features/money-lists/list-filters";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import type { loader as staffLoader } from "./_staff";
import { withDateTexts } from "../../lib/date-texts.server";
import { paymentPurpose } from "../../../domain/payment-purpose";

export const meta: MetaFunction = () => [{ title: "Payments · Gym Membership" }];

const FILTER_KEYS = ["from", "to", "status", "method", "adjusted", "gym", "q", "member"];

/** /payments (issue 12): the organisation's payments, filtered through the URL, with totals, pages and the CSV export. */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const query = Object.fromEntries(new URL(args.request.url).searchParams);
  try {
    const list = await api.get("/payments", { query }).catch((err: unknown) => {
      if (err instanceof ApiRequestError && err.status === 422) return { errors: err.errors ?? {} };
      throw err;
    });
    return withDateTexts("errors" in list ? { list: null, errors: list.errors } : { list, errors: {} as Record<string, string[]> });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

/** Mark received: a bank transfer that arrived (POST /api/payments/{id}/received), from the list. */
export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const id = Number(form.get("payment_id"));
  const back = String(form.get("back") ?? "");
  const to = `/payments${back.startsWith("?") ? back : ""}`;
  if (!Number.isSafeInteger(id) || id <= 0) return redirectWithToast(to, { severity: "error", summary: "Not marked", detail: "No such payment." });
  try {
    await api.post("/payments/:id/received", { params: { id } });
    return redirectWithToast(to, { severity: "success", summary: "Marked received", detail: "The payment is paid; what it paid for is settled." }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && [404, 422].includes(err.status)) return redirectWithToast(to, { severity: "error", summary: "Not marked", detail: err.message });
    redirectForApiError(args.request, err);
  }
}

const OUTCOME_CLASS = { successful: "bg-green-100 text-green-800", not_failed: "bg-slate-100 text-slate-800", failed: "bg-red-100 text-red-800" } as const;
const OUTCOME_WORD = { successful: "Successful", not_failed: "Pending", failed: "Failed" } as const;

export default function PaymentsIndex() {
  const dates = useDates();
  const { list, errors } = useLoaderData<typeof loader>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff");
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const pending = useNavigation().state === "submitting";
  const canTake = Boolean(staff?.me.permissions.includes("money.write"));
  const isAdmin = Boolean(staff?.me.is_organisation_admin);
  return (
    <div className="space-y-4">
      <ListHeading
        title="Payments"
        params={params}
        organisation={staff?.me.current_organisation?.name}
        currentGym={staff?.me.current_gym?.name}
        range={list?.meta}
        exportAction="/payments/export"
        keys={FILTER_KEYS}
        count={list?.meta.total ?? null}
      />
      <ListFilters
        label="Filter payments"
        to="/payments"
        params={params}
        errors={errors}
        applied={list ? { from: list.meta.from, to: list.meta.to } : undefined}
        fields={[
          { name: "from", label: "From", type: "date" },
          { name: "to", label: "To", type: "date" },
          { name: "status", label: "Status", any: "Any status", options: PAYMENT_OUTCOME_FILTERS.map((s) => ({ value: s, label: PAYMENT_OUTCOME_LABELS[s] })) },
          { name: "method", label: "Payment method", any: "Any method", options: PAYMENT_METHOD_FILTERS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] })) },
          { name: "adjusted", label: "Given back", any: "Any", options: PAYMENT_ADJUSTED_FILTERS.map((a) => ({ value: a, label: PAYMENT_ADJUSTED_LABELS[a] })) },
          ...((staff?.me.gyms.length ?? 0) > 1 || isAdmin ? [{ name: "gym", label: "Gym", any: "Current gym", options: gymOptions(staff?.me.gyms ?? [], isAdmin) }] : []),
          { name: "q", label: "Member (name or e-mail)", type: "search" as const },
        ]}
      />
      {list ? (
        <>
          <section aria-label="Totals" className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            {[
              ["Successful", list.totals.successful, list.totals.successful_count, "text-green-800"],
              ["Pending or to come", list.totals.not_failed, list.totals.not_failed_count, "text-slate-800"],
              ["Failed", list.totals.failed, list.totals.failed_count, "text-red-800"],
            ].map(([label, cents, count, colour]) => (
              <div key={label as string} className="rounded-lg border border-slate-200 bg-white p-3">
                <p className="text-xs font-medium text-slate-600">{label}</p>
                <p className={`text-lg font-semibold ${colour}`}>{formatCents(cents as number)}</p>
                <p className="text-xs text-slate-600">{(count as number).toLocaleString("en-NZ")} payments</p>
              </div>
            ))}
            {list.totals.returned !== null ? (
              <p className="text-sm text-slate-700 sm:col-span-3">
                Refunds and chargebacks settled in these days: <span className="font-semibold text-slate-900">{formatCents(list.totals.returned)}</span>
              </p>
            ) : null}
          </section>
          {list.data.length ? (
            <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
              <table className="stack-table w-full text-sm">
                <caption className="sr-only">Payments, newest first</caption>
                <thead className="bg-slate-50 text-slate-700">
                  <tr>
                    {["Made", "Member", "Amount", "Status", "Method", "Period", "Gym", ""].map((h, i) => (
                      <th key={i} scope="col" className="px-3 py-2 text-left font-semibold">
                        {h || <span className="sr-only">Actions</span>}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {list.data.map((p) => (
                    <tr key={p.id}>
                      <td data-label="Made" className="px-3 py-2 text-slate-800">
                        {dates.dateTime(p.created_at)}
                      </td>
                      <td data-title className="px-3 py-2">
                        <Link to={`/members/${p.user.id}`} className="font-medium text-brand-700 hover:underline">
                          {p.user.name}
                        </Link>
                      </td>
                      <td data-label="Amount" className="px-3 py-2 text-slate-800">
                        {/* One box, so on a phone (stacked table) the lines under the amount stay in its column. */}
                        <div>
                          {formatCents(p.amount + p.surcharge)}
                          {p.surcharge ? <span className="block text-xs text-slate-600">incl. {formatCents(p.surcharge)} surcharge</span> : null}
                          <GivenBack refunded={p.refunded} chargedBack={p.charged_back} disputed={p.disputed} />
                        </div>
                      </td>
                      <td data-label="Status" className="px-3 py-2">
                        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${OUTCOME_CLASS[p.outcome]}`}>{OUTCOME_WORD[p.outcome]}</span>
                        {p.status !== "sent" && p.status.replace(/_/g, " ") !== OUTCOME_WORD[p.outcome].toLowerCase() ? <span className="block text-xs text-slate-600">{p.status.replace(/_/g, " ")}</span> : null}
                        {p.error ? <span className="block text-xs text-red-800">{p.error}</span> : null}
                      </td>
                      <td data-label="Method" className="px-3 py-2 text-slate-800">
                        {p.method ?? "—"}
                        {p.is_retry ? <span className="block text-xs text-slate-600">Retry</span> : null}
                      </td>
                      <td data-label="Period" className="px-3 py-2 text-slate-800">
                        {p.period_start ? `${formatDay(p.period_start)}${p.period_end ? ` – ${formatDay(p.period_end)}` : ""}` : paymentPurpose(p.type, "—")}
                      </td>
                      <td data-label="Gym" className="px-3 py-2 text-slate-800">
                        {p.gym}
                      </td>
                      <td data-label="" data-empty={!p.can_mark_received || !canTake || undefined} className="px-3 py-2">
                        {p.can_mark_received && canTake ? (
                          <Form method="post">
                            <input type="hidden" name="payment_id" value={p.id} />
                            <input type="hidden" name="back" value={location.search} />
                            <button type="submit" disabled={pending} className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60">
                              Mark {formatCents(p.amount + p.surcharge)} received
                            </button>
                          </Form>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-700">No payments match these filters.</p>
          )}
          <Pagination meta={list.meta} params={params} noun="payments" />
        </>
      ) : (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
          Some filters could not be used. Correct the fields marked above and apply them again.
        </p>
      )}
    </div>
  );
}
