import { formatCalendarDay as formatDay, shiftCalendarDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import type { AnswerOf } from "../../lib/api-contract";

export type Quote = AnswerOf<"get", "/me/signup/quote">;

/**
 * What joining costs, as the billing engine works it out (GET /api/me/signup/quote): the first payment and what it
 * is made of, the regular charge after it, and a term's commitment spelled out.
 */
export function QuotePanel({ quote }: { quote: Quote }) {
  const { first, regular, term } = quote;
  const today = quote.start_date === first.charged_on;
  const base = first.amount - first.joining_fee;
  // A period is [from, until): its last day is the one before the next charge.
  const lastDay = formatDay(shiftCalendarDay(first.covers.until, -1));
  return (
    <section aria-labelledby="quote-heading" aria-live="polite" data-testid="quote" className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800">
      <h2 id="quote-heading" className="font-semibold text-slate-900">
        Your payments
      </h2>
      <p>
        <strong className="text-base">{formatCents(first.total)}</strong> {today ? `on ${formatDay(first.charged_on)}` : ""}, the first payment:
      </p>
      <ul className="list-disc space-y-0.5 pl-5">
        <li>
          {formatCents(base)}{" "}
          {quote.pif_ends
            ? `paid in full, until ${formatDay(quote.pif_ends)}`
            : quote.price.billing_frequency === "one_off"
              ? "paid in full"
              : first.is_pro_rata
                ? `for ${formatDay(first.covers.from)} to ${lastDay}, part of a period (pro-rata)`
                : `for ${formatDay(first.covers.from)} to ${lastDay}`}
        </li>
        {first.joining_fee ? <li>{formatCents(first.joining_fee)} joining fee</li> : null}
        {first.surcharge ? (
          <li>
            {formatCents(first.surcharge)} card surcharge ({quote.card_surcharge})
          </li>
        ) : null}
      </ul>
      {regular ? (
        <p>
          Then <strong>{formatCents(regular.total)}</strong> {regular.frequency_label.toLowerCase()} from {formatDay(regular.from)}
          {regular.surcharge ? `, including ${formatCents(regular.surcharge)} card surcharge` : ""}.
        </p>
      ) : null}
      {quote.card_surcharge_text ? <p className="text-xs text-slate-600">{quote.card_surcharge_text}</p> : null}
      {term ? (
        <p data-testid="term">
          This is a term membership until <strong>{formatDay(term.ends)}</strong>. You can cancel free of charge until {formatDay(term.cooling_off_ends!)} ({term.cooling_off_days}{" "}
          days). After that, cancelling before the term ends costs a break fee
          {term.break_fee_percentage ? ` of ${term.break_fee_percentage}% of the payments left in the term` : " (none at this gym)"}.
        </p>
      ) : null}
    </section>
  );
}
