import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import { walkInRequest } from "../../../domain/schemas/walk-in";
import { Field, FormErrors } from "../../components/field";
import { SelectField } from "../../components/form-controls";
import { CopyButton } from "../../components/copy-button";
import { ConfirmStep, EffectRow, PreviewButton } from "../membership/action-page";
import type { AnswerOf } from "../../lib/api-contract";

type Quote = Extract<AnswerOf<"post", "/organisations/:id/members/walk-in">, { preview: unknown }>["preview"];
type Created = { user_id: number; join_url: string; name: string; email: string };

/**
 * /members/new (issue 32): who is joining, on which price, from when; the quote their own confirm page will show; then
 * the link that finishes their joining, e-mailed to them and shown here once to text or open on the desk's device.
 */
export function WalkInPage({
  options,
  gyms,
  currentGymId,
  today,
  checkKey,
  answer,
  pending,
}: {
  options: { value: string; label: string }[];
  gyms: { id: number; name: string }[];
  currentGymId: number | null;
  today: string;
  checkKey: string;
  answer: { result: SubmissionResult<string[]>; preview: Quote | null; previewed: string | null; created: Created | null } | undefined;
  pending: boolean;
}) {
  const [form, fields] = useForm<Record<string, unknown>>({
    id: "walk-in",
    lastResult: answer?.created ? undefined : answer?.result,
    constraint: getZodConstraint(walkInRequest),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: walkInRequest }),
    defaultValue: { start: today, gym_id: currentGymId ? String(currentGymId) : undefined },
  });
  if (answer?.created) return <Joined created={answer.created} />;
  const q = answer?.preview;
  const sentKey = (answer?.result?.initialValue as { key?: string } | undefined)?.key ?? checkKey;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-lg border border-slate-200 bg-white p-4" noValidate>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="key" value={sentKey} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field field={fields.name} label="Name" inputProps={{ autoComplete: "off" }} />
        <Field field={fields.email} label="E-mail" type="email" inputProps={{ autoComplete: "off" }} />
        <Field field={fields.mobile_number} label="Mobile (optional)" type="tel" />
        <Field
          field={fields.dob}
          label="Date of birth"
          inputProps={{ type: "date" } as object}
          hint="For the organisation's minimum age, as when joining online"
        />
        <SelectField field={fields.gym_id} label="Home gym" placeholder="Choose a gym" options={gyms.map((g) => ({ value: String(g.id), label: g.name }))} />
        <Field field={fields.start} label="Starts" inputProps={{ type: "date" } as object} />
      </div>
      {options.length ? (
        <SelectField field={fields.price_id} label="Membership" placeholder="Choose a price" options={options} />
      ) : (
        <p className="text-sm text-slate-700">No recurring price is on sale: add one to an offering first.</p>
      )}
      <PreviewButton pending={pending}>Show what it costs</PreviewButton>
      {q && answer?.previewed ? (
        <ConfirmStep previewed={answer.previewed} title="What joining costs" confirm="Create the member and send the link" pending={pending}>
          <EffectRow label="Membership" after={`${q.price.offering.name}, from ${formatDay(q.start_date)}`} />
          <EffectRow
            label="First payment"
            after={`${formatCents(q.first.amount)} on ${formatDay(q.first.charged_on)}${q.first.is_pro_rata ? " (pro-rata" : " (first period"}, ${formatDay(
              q.first.covers.from,
            )} to ${formatDay(q.first.covers.until)})${q.first.joining_fee ? `, with the ${formatCents(q.first.joining_fee)} joining fee` : ""}`}
          />
          {q.regular ? (
            <EffectRow label="Then" after={`${formatCents(q.regular.amount)} ${q.regular.frequency_label.toLowerCase()} from ${formatDay(q.regular.from)}`} />
          ) : null}
          {q.term ? (
            <EffectRow
              label="Term"
              after={`Until ${formatDay(q.term.ends)}; ${q.term.cooling_off_days} days to change their mind; ${
                q.term.break_fee_percentage
              }% of what is left to leave early`}
            />
          ) : null}
          <EffectRow label="Paying" after="They choose how to pay from the link; a card adds the gym's card surcharge, shown to them before they confirm" />
          <EffectRow label="Then" after="They are e-mailed a link to finish joining (it works once, for seven days); you can also text it or open it here" />
        </ConfirmStep>
      ) : null}
    </Form>
  );
}

/** The member exists; their joining finishes on the sign-up host, where they choose how to pay and confirm. */
function Joined({ created }: { created: Created }) {
  return (
    <section role="status" aria-labelledby="walk-in-done" className="space-y-3 rounded-lg border border-green-300 bg-green-50 p-4 text-green-950">
      <h2 id="walk-in-done" className="text-lg font-semibold">
        {created.name} is ready to finish joining
      </h2>
      <p className="text-sm">
        We e-mailed {created.email} a link to choose how they pay and confirm. To text it to them, or to finish here on this device with them, use the link
        below: it signs them in, works once and lasts seven days. It is shown only now.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code aria-label="Link to finish joining" className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 text-xs ring-1 ring-inset ring-green-200">
          {created.join_url}
        </code>
        <CopyButton text={created.join_url} label="Copy the link to finish joining" />
      </div>
      <div className="flex flex-wrap gap-4 text-sm font-medium">
        <a href={created.join_url} target="_blank" rel="noreferrer" className="underline">
          Finish joining on this device (they take their photo and enter their card on the card provider&apos;s page)
        </a>
        <Link to={`/members/${created.user_id}`} className="underline">
          Open {created.name}&apos;s page
        </Link>
        <Link to="/members/new" reloadDocument className="underline">
          Another new member
        </Link>
      </div>
    </section>
  );
}
