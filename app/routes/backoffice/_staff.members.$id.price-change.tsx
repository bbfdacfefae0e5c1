import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import { priceChangeRequest, versionOnlyRequest } from "../../../domain/schemas/subscriptions";
import { Field, FieldErrors, FormErrors } from "../../components/field";
import { CheckboxField, SelectField } from "../../components/form-controls";
import { ActionPage, CardAfter, chargeText, ConfirmStep, EffectRow, EmailPreview, memberName, PreviewButton } from "../../features/membership/action-page";
import { membershipPage, previewOrConfirm } from "../../features/membership/membership-route.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Change price · Gym Membership" }];

/**
 * /members/{id}/price-change: move the member to another price from the end of the paid period or a day, with the
 * e-mail they will get shown first; or remove a change scheduled before.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { member, view } = await membershipPage(args, "price_change").catch(async (err) => {
    if (err instanceof Response && err.status === 403) return membershipPage(args, "remove_price_change");
    throw err;
  });
  return withDateTexts({ member, view: view! });
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request
    .clone()
    .formData()
    .catch(() => null);
  const removing = form?.get("form") === "remove";
  const { id, api, view } = await membershipPage(args, removing ? "remove_price_change" : "price_change");
  const subscription = view!.id;
  if (removing) {
    return previewOrConfirm(args, versionOnlyRequest, api, {
      to: `/members/${id}`,
      preview: async () => ({ removing: true }),
      apply: (a, values) => a.post("/subscriptions/:id/remove-price-change", { params: { id: subscription }, body: values }),
      done: () => ({ summary: "Price change removed", detail: "The member stays on their price." }),
    });
  }
  return previewOrConfirm(args, priceChangeRequest, api, {
    to: `/members/${id}`,
    preview: async (a, values) => {
      const r = await a.post("/subscriptions/schedule-price-change", { body: { ...values, subscription_id: subscription, preview: true } });
      return "preview" in r ? { effect: r.preview, email: r.email } : null;
    },
    apply: (a, values) => a.post("/subscriptions/schedule-price-change", { body: { ...values, subscription_id: subscription } }),
    done: (values) => ({ summary: "Price change scheduled", detail: values.notify ? "The member has been e-mailed." : "The member was not e-mailed." }),
  });
}

export default function PriceChangePage() {
  const { member, view } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const sentForm = (answer?.result?.initialValue as { form?: string } | undefined)?.form;
  return (
    <ActionPage memberId={member.id} memberName={memberName(member)} title="Change price" view={view}>
      {view.scheduled_price_change ? <RemoveForm view={view} answer={sentForm === "remove" ? answer : undefined} pending={pending} /> : null}
      {view.actions.price_change ? <ScheduleForm view={view} answer={sentForm === "remove" ? undefined : answer} pending={pending} /> : null}
    </ActionPage>
  );
}

type Answer = ReturnType<typeof useActionData<typeof action>>;
type View = ReturnType<typeof useLoaderData<typeof loader>>["view"];

function ScheduleForm({ view, answer, pending }: { view: View; answer: Answer; pending: boolean }) {
  const [form, fields] = useForm<Record<string, unknown>>({
    id: "price-change",
    lastResult: answer?.result,
    constraint: getZodConstraint(priceChangeRequest),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: priceChangeRequest }),
    defaultValue: { from: "period_end", notify: "on", subscription_id: String(view.id) },
  });
  // The answer of the schedule form (the remove form previews nothing of its own).
  const preview = answer?.preview && "effect" in answer.preview ? answer.preview : null;
  const from = (fields.from.value as string | undefined) ?? "period_end";
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="space-y-5 rounded-lg border border-slate-200 bg-white p-4"
      noValidate
      aria-labelledby="schedule-heading"
    >
      <h2 id="schedule-heading" className="font-semibold">
        {view.scheduled_price_change ? "Schedule another change instead" : "Move to another price"}
      </h2>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="version" value={view.version} />
      <input type="hidden" name="subscription_id" value={view.id} />
      {view.price_options.length ? (
        <SelectField
          field={fields.price_id}
          label="New price"
          placeholder="Choose a price"
          options={view.price_options.map((p) => ({
            value: String(p.id),
            label: `${p.offering}: ${formatCents(p.amount)} ${p.frequency.toLowerCase()}${p.term ? ` (${p.term})` : ""}`,
          }))}
        />
      ) : (
        <p className="text-sm text-slate-700">
          No other {view.price.frequency.toLowerCase()} price is sold at {view.gym.name}: a change keeps the member&apos;s billing rhythm.
        </p>
      )}
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">From</legend>
        <div className="mt-2 space-y-2 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name="from" value="period_end" defaultChecked={from === "period_end"} className="h-4 w-4 border-slate-300 text-brand-600" />
            The end of the paid period{view.paid_until ? ` (${formatDay(view.paid_until)})` : ""}
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="from" value="date" defaultChecked={from === "date"} className="h-4 w-4 border-slate-300 text-brand-600" />A day I choose
          </label>
        </div>
        <FieldErrors id={fields.from.errorId} errors={fields.from.errors} />
      </fieldset>
      <Field field={fields.date} label="The day (when you chose one)" inputProps={{ type: "date" } as object} />
      <CheckboxField field={fields.notify} label="E-mail the member about it" />
      <PreviewButton pending={pending}>Preview the change and the e-mail</PreviewButton>
      {preview && answer?.previewed ? (
        <ConfirmStep previewed={answer.previewed} confirm="Schedule the change" pending={pending}>
          <EffectRow
            label="Price"
            before={formatCents(preview.effect.fromAmount)}
            after={`${formatCents(preview.effect.toAmount)} from ${formatDay(preview.effect.takesEffect)}`}
          />
          <EffectRow label="Next charge" before={chargeText(preview.effect.nextChargeBefore)} after={chargeText(preview.effect.nextChargeAfter)} />
          <EffectRow label="Status card" after={<CardAfter card={preview.effect.card} />} />
          <EmailPreview title="The member's e-mail" email={preview.email} sent={Boolean(fields.notify.value)} />
        </ConfirmStep>
      ) : null}
    </Form>
  );
}

function RemoveForm({ view, answer, pending }: { view: View; answer: Answer; pending: boolean }) {
  const [form] = useForm<Record<string, unknown>>({ id: "price-change-remove", lastResult: answer?.result });
  const change = view.scheduled_price_change!;
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4"
      noValidate
      aria-labelledby="remove-heading"
    >
      <h2 id="remove-heading" className="font-semibold">
        Scheduled change
      </h2>
      <FormErrors id={form.errorId} errors={form.errors} />
      <p className="text-sm text-slate-700">
        To {formatCents(change.amount)} from {change.takes_effect ? formatDay(change.takes_effect) : "the end of the paid period"}.
      </p>
      <input type="hidden" name="form" value="remove" />
      <input type="hidden" name="version" value={view.version} />
      <PreviewButton pending={pending}>Preview removing it</PreviewButton>
      {answer?.preview && answer.previewed ? (
        <ConfirmStep previewed={answer.previewed} confirm="Remove the change" pending={pending}>
          <EffectRow label="Price" before={formatCents(change.amount)} after={`${formatCents(view.amount)}, as now`} />
        </ConfirmStep>
      ) : null}
    </Form>
  );
}
