import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { CONFIDENCE_ANSWERS, HEAR_ABOUT_US_ANSWERS, HEAR_ABOUT_US_LABELS } from "../../../domain/member";
import { formatCents } from "../../../domain/money";
// Types only: erased from the page's JavaScript, unlike the schemas themselves.
import type { ConfirmSubscription as ConfirmSubscriptionFields, RegisterFields } from "../../../domain/schemas/signup";
import { Field, FieldErrors, FormErrors, SubmitButton } from "../../components/field";
import { SelectField } from "../../components/form-controls";
import { describeMethod } from "../../features/signup/methods";
import { QuotePanel, type Quote } from "../../features/signup/quote";
import { StepFrame } from "../../features/signup/step-frame";
import { confirmAction, confirmLoader } from "../../features/signup/confirm.server";

export const meta: MetaFunction = () => [{ title: "Confirm your membership · Gym Membership" }];

const CONFIDENCE_FOR_YOU: Record<(typeof CONFIDENCE_ANSWERS)[number], string> = {
  first_time: "This is my first time at a gym",
  been_but_not_sure_what_to_do: "I've been before, but I'm not sure what to do",
  been_but_not_achieved_goals: "I've been before, but didn't reach my goals",
  been_but_stopped_going: "I've been before, but stopped going",
  experienced_and_confident: "I'm experienced and confident",
};

/**
 * A term said in words next to its price (issue 31), before anyone works out a quote: how long the commitment is, the
 * free cooling-off, and what leaving early costs.
 */
function termInWords(amount: number, unit: string, breakFeePercentage: number | null, coolingOffDays: number) {
  const length = `${amount}-${unit}`;
  const fee = breakFeePercentage ? `a break fee of ${breakFeePercentage}% of the payments left in the term` : "no break fee at this gym";
  return `A ${length} commitment. You can cancel free of charge in the first ${coolingOffDays} days; after that, leaving before the term ends costs ${fee}.`;
}

/** The last step before joining (issue 13): the page; what it loads and does is in features/signup/confirm.server.ts. */
export const loader = (args: LoaderFunctionArgs) => confirmLoader(args);
export const action = (args: ActionFunctionArgs) => confirmAction(args);

export default function ConfirmSubscription() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const f = page.signup.register_fields;
  const [form, fields] = useForm<RegisterFields & ConfirmSubscriptionFields>({
    lastResult: answer?.result,
    defaultValue: {
      price_id: page.priceId ? String(page.priceId) : "",
      start_date: page.start,
      address: f.address ?? "",
      suburb: f.suburb ?? "",
      city: f.city ?? "",
      post_code: f.post_code ?? "",
      dob: f.dob ?? "",
      emergency_contact_name: f.emergency_contact_name ?? "",
      emergency_contact_number: f.emergency_contact_number ?? "",
      emergency_contact_relationship: f.emergency_contact_relationship ?? "",
      confidence_and_experience: f.confidence_and_experience ?? "",
      hear_about_us: f.hear_about_us ?? "",
      hear_about_us_other: f.hear_about_us_other ?? "",
      idempotency_key: page.key,
    },
    // Checked on the server only (confirm.server.ts): zod on a phone would cost the page 14 KB of JavaScript.
    shouldValidate: "onSubmit",
  });

  // With JavaScript the quote follows the chosen price and day as they change.
  const quoted = useFetcher<{ quote: Quote | null; errors: Record<string, string[]> | null }>();
  const [choice, setChoice] = useState({ price: page.priceId ? String(page.priceId) : "", start: page.start });
  // A price or day chosen before the page's scripts arrived (they come after the first paint) is the choice.
  useEffect(() => {
    const element = document.getElementById(form.id) as HTMLFormElement | null;
    const price = (element?.querySelector(`input[name="${fields.price_id.name}"]:checked`) as HTMLInputElement | null)?.value;
    const start = (element?.elements.namedItem(fields.start_date.name) as HTMLInputElement | null)?.value;
    setChoice((c) => ({ price: price ?? c.price, start: start || c.start }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the page comes alive
  }, []);
  useEffect(() => {
    if (!choice.price || !choice.start) return;
    quoted.load(`/confirm-subscription/quote?${new URLSearchParams({ price_id: choice.price, start_date: choice.start })}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the fetcher is stable; only the choice starts a load
  }, [choice.price, choice.start]);
  const quote =
    quoted.data?.quote ??
    (answer && "quote" in answer ? answer.quote : null) ??
    (choice.price === String(page.priceId) && choice.start === page.start ? page.quote : null);

  const prices = page.signup.prices;
  const groups = useMemo(() => {
    const byOffering = new Map<number, { name: string; description: string | null; hours: string[] | null; prices: typeof prices }>();
    for (const p of prices) {
      const g = byOffering.get(p.offering.id) ?? { name: p.offering.name, description: p.offering.description, hours: p.offering.hours, prices: [] };
      g.prices.push(p);
      byOffering.set(p.offering.id, g);
    }
    return [...byOffering.values()];
  }, [prices]);
  const paying = page.signup.payment_types.find((m) => m.id === page.signup.default_payment_type_id);
  const hearOther = (fields.hear_about_us.value ?? "") === "other";

  return (
    <StepFrame
      step="Confirm"
      title="Confirm your membership"
      intro={`Choose your membership at ${page.signup.gym.name}, check what it costs, and tell us a little about you.`}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-6" aria-label="Confirm your membership">
        <FormErrors
          id={form.errorId}
          errors={[
            ...(form.errors ?? []),
            ...(fields.idempotency_key.errors ?? []),
            ...(answer?.result?.error?.register_fields ?? []),
            ...(answer?.result?.error?.payment_type ?? []),
          ]}
        />
        <input {...getInputProps(fields.idempotency_key, { type: "hidden" })} key={fields.idempotency_key.key} />

        <fieldset className="space-y-3" aria-describedby={fields.price_id.errors ? fields.price_id.errorId : undefined}>
          <legend className="text-base font-semibold text-slate-900">Membership</legend>
          {groups.map((g) => (
            <div key={g.name} className="space-y-2">
              <h3 className="text-sm font-semibold text-slate-800">{g.name}</h3>
              {g.description ? <p className="text-xs text-slate-600">{g.description}</p> : null}
              {g.hours ? (
                <p className="text-xs text-slate-600" data-testid="offering-hours">
                  {g.hours.length ? `Limited hours: ${g.hours.join("; ")}.` : "Limited hours, set by the gym."}
                </p>
              ) : null}
              {g.prices.map((p) => (
                <label
                  key={p.id}
                  className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                >
                  <input
                    type="radio"
                    name={fields.price_id.name}
                    value={p.id}
                    defaultChecked={String(p.id) === (fields.price_id.initialValue ?? "")}
                    onChange={() => setChoice((c) => ({ ...c, price: String(p.id) }))}
                    className="mt-1"
                  />
                  <span>
                    <span className="font-medium text-slate-900">
                      {formatCents(p.amount)} {p.billing_frequency === "one_off" ? "paid in full" : p.frequency_label.toLowerCase()}
                    </span>
                    {p.term ? <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium text-slate-800">{p.term}</span> : null}
                    {p.joining_fee ? <span className="block text-xs text-slate-600">plus a {formatCents(p.joining_fee)} joining fee</span> : null}
                    {p.term_amount && p.term_unit && p.billing_frequency !== "one_off" ? (
                      <span className="block text-xs text-slate-600">
                        {termInWords(p.term_amount, p.term_unit, page.signup.gym.break_fee_percentage, page.coolingOffDays)}
                      </span>
                    ) : null}
                    {p.private ? <span className="block text-xs text-slate-600">Offered to you through your link</span> : null}
                  </span>
                </label>
              ))}
            </div>
          ))}
          <FieldErrors id={fields.price_id.errorId} errors={fields.price_id.errors} />
        </fieldset>

        <div className="space-y-1">
          <label htmlFor={fields.start_date.id} className="block text-sm font-medium text-slate-800">
            Start on
          </label>
          <input
            {...getInputProps(fields.start_date, { type: "date" })}
            key={fields.start_date.key}
            min={page.today}
            max={page.latest}
            onChange={(e) => setChoice((c) => ({ ...c, start: e.currentTarget.value }))}
            aria-invalid={fields.start_date.errors ? true : undefined}
            aria-describedby={fields.start_date.errors ? fields.start_date.errorId : undefined}
            className="block w-full rounded-md border border-slate-300 px-3 py-2 text-slate-900 shadow-sm"
          />
          <FieldErrors id={fields.start_date.errorId} errors={fields.start_date.errors} />
        </div>

        {quote ? <QuotePanel quote={quote} /> : null}
        <noscript>
          <button
            type="submit"
            name="intent"
            value="quote"
            formNoValidate
            className="w-full rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-800"
          >
            Work out my payments
          </button>
        </noscript>
        {paying ? (
          <p className="text-sm text-slate-700">
            Paid by {describeMethod(paying)}.{" "}
            <Link to="/choose-payment-method" className="font-medium text-brand-700 underline">
              Change
            </Link>
          </p>
        ) : null}

        <fieldset className="space-y-3">
          <legend className="text-base font-semibold text-slate-900">About you</legend>
          <Field field={fields.address} label="Street address" inputProps={{ autoComplete: "address-line1" }} />
          <Field field={fields.suburb} label="Suburb (optional)" inputProps={{ autoComplete: "address-line2" }} />
          <div className="grid grid-cols-2 gap-3">
            <Field field={fields.city} label="Town or city" inputProps={{ autoComplete: "address-level2" }} />
            <Field field={fields.post_code} label="Postcode" inputProps={{ autoComplete: "postal-code", inputMode: "numeric" }} />
          </div>
          <div className="space-y-1">
            <label htmlFor={fields.dob.id} className="block text-sm font-medium text-slate-800">
              Date of birth
            </label>
            <input
              {...getInputProps(fields.dob, { type: "date" })}
              key={fields.dob.key}
              max={page.today}
              autoComplete="bday"
              aria-invalid={fields.dob.errors ? true : undefined}
              aria-describedby={fields.dob.errors ? fields.dob.errorId : undefined}
              className="block w-full rounded-md border border-slate-300 px-3 py-2 text-slate-900 shadow-sm"
            />
            <FieldErrors id={fields.dob.errorId} errors={fields.dob.errors} />
          </div>
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="text-base font-semibold text-slate-900">Emergency contact</legend>
          <Field field={fields.emergency_contact_name} label="Name" />
          <Field field={fields.emergency_contact_number} label="Phone number" type="tel" />
          <Field field={fields.emergency_contact_relationship} label="How they know you" hint="For example: partner, parent, friend." />
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="text-base font-semibold text-slate-900">A couple of questions</legend>
          <SelectField
            field={fields.confidence_and_experience}
            label="How do you feel about the gym? (optional)"
            placeholder="Choose one"
            options={CONFIDENCE_ANSWERS.map((a) => ({ value: a, label: CONFIDENCE_FOR_YOU[a] }))}
          />
          <SelectField
            field={fields.hear_about_us}
            label="How did you hear about us?"
            placeholder="Choose one"
            options={HEAR_ABOUT_US_ANSWERS.map((a) => ({ value: a, label: HEAR_ABOUT_US_LABELS[a] }))}
          />
          <Field field={fields.hear_about_us_other} label={hearOther ? "Where did you hear about us?" : "If other, where? (optional)"} />
        </fieldset>

        <div className="space-y-1">
          <div className="flex items-start gap-2">
            <input
              {...getInputProps(fields.terms, { type: "checkbox" })}
              key={fields.terms.key}
              aria-invalid={fields.terms.errors ? true : undefined}
              aria-describedby={fields.terms.errors ? fields.terms.errorId : undefined}
              className="mt-1 h-4 w-4"
            />
            <label htmlFor={fields.terms.id} className="text-sm text-slate-800">
              I accept {page.signup.gym.name}&apos;s{" "}
              <a href={`/membership-terms?gym=${page.signup.gym.uuid}`} target="_blank" rel="noopener" className="underline">
                membership terms
              </a>
              , and agree to be charged as shown above until I cancel
              {quote?.term ? " (and to the term's commitment)" : ""}. See the{" "}
              <Link to="/legal/privacy-policy" className="underline">
                privacy policy
              </Link>
              .
            </label>
          </div>
          <FieldErrors id={fields.terms.errorId} errors={fields.terms.errors} />
        </div>

        <SubmitButton pending={busy}>{busy ? "Joining…" : quote ? `Join and pay ${formatCents(quote.first.total)}` : "Join"}</SubmitButton>
      </Form>
    </StepFrame>
  );
}
