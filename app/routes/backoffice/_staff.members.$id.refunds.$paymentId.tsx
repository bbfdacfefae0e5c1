import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useDates } from "../../lib/date-texts";
import { formatCents } from "../../../domain/money";
import { REFUND_REASON_LABELS, REFUND_REASONS } from "../../../domain/refunds";
import { refundForm } from "../../../domain/schemas/refunds";
import { FieldErrors, FormErrors } from "../../components/field";
import { TextAreaField } from "../../components/form-controls";
import { ActionPage, ConfirmStep, EffectRow, memberName, PreviewButton } from "../../features/membership/action-page";
import { previewOrConfirm } from "../../features/membership/membership-route.server";
import { memberRoute, orRefusal } from "../../features/members/member-route.server";
import { idParam } from "../../lib/params.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Refund · Gym Membership" }];

/**
 * /members/{id}/refunds/{paymentId} (issue 28): some or all of a paid payment given back, through the payment's
 * provider or by hand for money taken at the desk. Previewed first (the amount, how it goes back, what the member is
 * told), then confirmed. The form carries a key made when it was shown: sent twice, it refunds once.
 */
async function page(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const { id, api } = memberRoute(args);
  const paymentId = idParam(args.params, "paymentId");
  const [member, refunds] = await orRefusal(
    args.request,
    Promise.all([api.get("/members/:id", { params: { id } }), api.get("/payments/:id/refunds", { params: { id: paymentId } })]),
  );
  // A payment of another member is not this page's: the same answer as a payment that is not there.
  if (refunds.payment.user_id !== member.id) throw new Response("No such payment.", { status: 404 });
  return { id, api, member, paymentId, refunds };
}

export async function loader(args: LoaderFunctionArgs) {
  const { member, refunds } = await page(args);
  return withDateTexts({ member, refunds, key: crypto.randomUUID().replace(/-/g, "") });
}

export async function action(args: ActionFunctionArgs) {
  const { id, api, paymentId } = await page(args);
  return previewOrConfirm(args, refundForm, api, {
    to: `/members/${id}#payments`,
    preview: (a, values) =>
      a.post("/payments/:id/refunds", { params: { id: paymentId }, body: { ...values, preview: true } }).then((r) => ("preview" in r ? r.preview : null)),
    apply: (a, values) => a.post("/payments/:id/refunds", { params: { id: paymentId }, body: values }),
    done: (values) => ({ summary: `Refund of ${formatCents(values.amount)} made`, detail: "See it under the payment below; the member is e-mailed." }),
  });
}

/** What staff do next, by how the money goes back. */
const HOW: Record<string, string> = {
  stripe: "Stripe makes it now; the member sees it on their card within 5–10 business days",
  gocardless: "GoCardless makes it; it is shown as on its way until GoCardless has paid it",
  cash: "hand it over now",
  eftpos: "make it on the EFTPOS terminal now",
  bank_transfer: "send it from the gym's bank account; it is recorded as given back now",
};

export default function RefundPage() {
  const dates = useDates();
  const { member, refunds, key } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useForm<Record<string, unknown>>({
    id: "refund",
    lastResult: answer?.result,
    constraint: getZodConstraint(refundForm),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: refundForm }),
    defaultValue: { amount: (refunds.refundable / 100).toFixed(2), reason: "requested_by_customer" },
  });
  const preview = answer?.preview;
  const sentKey = (answer?.result?.initialValue as { key?: string } | undefined)?.key ?? key;
  const reason = (fields.reason.value as string | undefined) ?? "requested_by_customer";
  const { payment } = refunds;
  return (
    <ActionPage memberId={member.id} memberName={memberName(member)} title="Refund" view={null}>
      <section aria-labelledby="payment-heading" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="payment-heading" className="font-semibold">
          Payment of {payment.formatted_amount} on {dates.date(payment.created_at)}
        </h2>
        <p className="mt-1 text-slate-700">{refunds.method_label}.</p>
        {refunds.adjustments.length ? (
          <ul className="mt-2 list-disc pl-5 text-slate-700">
            {refunds.adjustments.map((a) => (
              <li key={a.id}>
                {a.in_words} on {dates.date(a.created_at)}
                {a.error ? `: ${a.error}` : ""}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="mt-2 font-medium">{refunds.refund_blocked ?? `${formatCents(refunds.refundable)} can be refunded.`}</p>
      </section>
      {refunds.refundable > 0 && !refunds.refund_blocked ? (
        <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-lg border border-slate-200 bg-white p-4" noValidate>
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name="key" value={sentKey} />
          <div>
            <label htmlFor={fields.amount.id} className="block text-sm font-medium text-slate-800">
              Amount to refund ($)
            </label>
            <input
              id={fields.amount.id}
              name={fields.amount.name}
              defaultValue={fields.amount.initialValue as string | undefined}
              inputMode="decimal"
              aria-invalid={fields.amount.errors ? true : undefined}
              aria-describedby={fields.amount.errors ? fields.amount.errorId : undefined}
              className="mt-1 block w-40 rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm"
            />
            <FieldErrors id={fields.amount.errorId} errors={fields.amount.errors} />
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Why</legend>
            <div className="mt-2 space-y-2 text-sm">
              {REFUND_REASONS.map((r) => (
                <label key={r} className="flex items-center gap-2">
                  <input type="radio" name="reason" value={r} defaultChecked={reason === r} className="h-4 w-4 border-slate-300 text-brand-600" />
                  {REFUND_REASON_LABELS[r]}
                </label>
              ))}
            </div>
            <FieldErrors id={fields.reason.errorId} errors={fields.reason.errors} />
          </fieldset>
          <TextAreaField field={fields.note} label="Note (optional)" rows={2} />
          <PreviewButton pending={pending} />
          {preview && answer?.previewed ? (
            <ConfirmStep previewed={answer.previewed} confirm={`Refund ${formatCents(preview.amount)}`} pending={pending}>
              <EffectRow label="Refund" after={`${formatCents(preview.amount)} of ${formatCents(preview.paid)}`} />
              <EffectRow label="How" after={`${preview.method_label}: ${HOW[preview.method] ?? "it is recorded as given back now"}`} />
              <EffectRow label="Left to refund" before={formatCents(preview.left_before)} after={formatCents(preview.left_after)} />
              <EffectRow label="Why" after={preview.reason_label} />
              <EffectRow label="The member is e-mailed" after={preview.member_sees} />
            </ConfirmStep>
          ) : null}
        </Form>
      ) : null}
    </ActionPage>
  );
}
