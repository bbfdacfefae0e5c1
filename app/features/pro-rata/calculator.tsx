import { Form } from "@remix-run/react";
import { controlClass } from "../../components/control-class";
import { FREQUENCY_LABELS } from "../../../domain/billing";
import { formatCalendarDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import type { AnswerOf } from "../../lib/api-contract";
import type { OfferingSummary } from "../members/types";

export type ProRataAnswer = AnswerOf<"post", "/prices/:id/pro-rata">;

/** A calendar day as people read it. */
const day = formatCalendarDay;
/** The last day a [start, end) span covers. */
const lastDay = (end: string) => {
  const d = new Date(`${end}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return day(d.toISOString().slice(0, 10));
};

/**
 * The pro-rata calculator's form: a GET form, since it changes nothing, so a worked answer is a link staff can
 * share, and it works without JavaScript. Paid-in-full prices are left out: they have no periods.
 */
export function ProRataForm({ offerings, values, errors }: { offerings: OfferingSummary[]; values: Record<string, string>; errors: Record<string, string[]> }) {
  const field = (name: string, label: string, input: React.ReactNode, hint?: string) => (
    <div className="min-w-0 space-y-1">
      <label htmlFor={`pro-rata-${name}`} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {input}
      {hint ? (
        <p id={`pro-rata-${name}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {errors[name]?.length ? (
        <p id={`pro-rata-${name}-error`} className="text-sm text-red-700">
          {errors[name][0]}
        </p>
      ) : null}
    </div>
  );
  const aria = (name: string, hint = false) => ({
    "aria-invalid": Boolean(errors[name]?.length) || undefined,
    "aria-describedby": [hint ? `pro-rata-${name}-hint` : null, errors[name]?.length ? `pro-rata-${name}-error` : null].filter(Boolean).join(" ") || undefined,
  });
  return (
    <Form method="get" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4" aria-label="Calculate a pro-rata">
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        {field(
          "price",
          "Price",
          <select id="pro-rata-price" name="price" defaultValue={values.price ?? ""} required className={controlClass(Boolean(errors.price))} {...aria("price")}>
            <option value="">Choose a price</option>
            {offerings.map((o) => {
              const repeating = o.prices.filter((p) => p.billing_frequency !== "one_off");
              return repeating.length ? (
                <optgroup key={o.id} label={o.name}>
                  {repeating.map((p) => (
                    <option key={p.id} value={p.id}>
                      {formatCents(p.amount)} {FREQUENCY_LABELS[p.billing_frequency]}
                      {p.term ? ` · ${p.term}` : ""}
                      {p.archived_at ? " (archived)" : ""}
                    </option>
                  ))}
                </optgroup>
              ) : null;
            })}
          </select>,
        )}
        {field("start_date", "Start date", <input id="pro-rata-start_date" name="start_date" type="date" required defaultValue={values.start_date ?? ""} className={controlClass(Boolean(errors.start_date))} {...aria("start_date")} />)}
        {field(
          "billing_date",
          "Billing date (optional)",
          <input id="pro-rata-billing_date" name="billing_date" type="date" defaultValue={values.billing_date ?? ""} className={controlClass(Boolean(errors.billing_date))} {...aria("billing_date", true)} />,
          "The first full charge. Empty: the 1st of the month for month-based prices, Monday for weekly and fortnightly ones.",
        )}
      </div>
      <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-100">
        Calculate
      </button>
    </Form>
  );
}

/** The answer, in words a person at the desk can read out. */
export function ProRataResult({ answer }: { answer: ProRataAnswer }) {
  const { price } = answer;
  return (
    <section aria-labelledby="pro-rata-result" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="pro-rata-result" className="text-lg font-semibold">
        Pro-rata {answer.formatted_amount}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {price.offering} · {formatCents(price.amount)} {FREQUENCY_LABELS[price.billing_frequency]}
      </p>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-600">Covers</dt>
          <dd className="font-medium">
            {answer.days === 0 ? "Nothing: the member starts on the billing date" : `${answer.days} ${answer.days === 1 ? "day" : "days"}, ${day(answer.start_date)} – ${lastDay(answer.first_full_charge_date)}`}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Of the period</dt>
          <dd className="font-medium">
            {day(answer.period.start)} – {lastDay(answer.period.end)} ({answer.days_in_period} days)
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Worked out</dt>
          <dd className="font-medium">
            {formatCents(price.amount)} × {answer.days} ÷ {answer.days_in_period}, to the nearest cent
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">First full charge</dt>
          <dd className="font-medium">
            {formatCents(answer.first_full_charge_amount)} on {day(answer.first_full_charge_date)}
          </dd>
        </div>
      </dl>
    </section>
  );
}
