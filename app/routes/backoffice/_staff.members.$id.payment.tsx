import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import { MANUAL_PAYMENT_METHOD_LABELS, MANUAL_PAYMENT_METHODS, manualPaymentRequest } from "../../../domain/schemas/subscriptions";
import { FieldErrors, FormErrors } from "../../components/field";
import { TextAreaField } from "../../components/form-controls";
import { ActionPage, ConfirmStep, EffectRow, memberName, PreviewButton } from "../../features/membership/action-page";
import { membershipPage, previewOrConfirm } from "../../features/membership/membership-route.server";
import { withDateTexts } from "../../lib/date-texts.server";
import { paymentPurpose } from "../../../domain/payment-purpose";

export const meta: MetaFunction = () => [{ title: "Take payment · Gym Membership" }];

/**
 * /members/{id}/payment: the balance owing, charged to the member's payment method now or recorded as taken at
 * the desk (EFTPOS, cash) or by bank transfer. The form carries a key made when it was shown: sent twice, it takes
 * the money once.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { member, view } = await membershipPage(args, "manual_payment");
  return withDateTexts({ member, view: view!, key: crypto.randomUUID().replace(/-/g, "") });
}

export async function action(args: ActionFunctionArgs) {
  const { id, api, view } = await membershipPage(args, "manual_payment");
  const subscription = view!.id;
  return previewOrConfirm(args, manualPaymentRequest, api, {
    to: `/members/${id}`,
    preview: (a, values) =>
      a
        .post("/subscriptions/:id/manual-payment", { params: { id: subscription }, body: { ...values, preview: true } })
        .then((r) => ("preview" in r ? r.preview : null)),
    apply: (a, values) => a.post("/subscriptions/:id/manual-payment", { params: { id: subscription }, body: values }),
    done: (values) => ({
      summary: values.method === "charge" ? "Payment charged" : values.method === "bank_transfer" ? "Bank transfer recorded" : "Payment recorded",
      detail:
        values.method === "charge"
          ? "See its outcome in the payments below."
          : values.method === "bank_transfer"
          ? "Mark it received when it arrives."
          : "The balance owing is paid.",
    }),
  });
}

export default function PaymentPage() {
  const { member, view, key } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useForm<Record<string, unknown>>({
    id: "manual-payment",
    lastResult: answer?.result,
    constraint: getZodConstraint(manualPaymentRequest),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: manualPaymentRequest }),
    defaultValue: { method: "charge" },
  });
  const preview = answer?.preview;
  const method = (fields.method.value as string | undefined) ?? "charge";
  const sentKey = (answer?.result?.initialValue as { key?: string } | undefined)?.key ?? key;
  return (
    <ActionPage memberId={member.id} memberName={memberName(member)} title="Take payment" view={view}>
      <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-lg border border-slate-200 bg-white p-4" noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="version" value={view.version} />
        <input type="hidden" name="key" value={sentKey} />
        <p className="text-sm text-slate-700">
          {/* Present: taking a payment needs money rights, which see what is owing. */}
          {formatCents(view.owing?.total ?? 0)} is owing for {view.owing?.periods ?? 0} period{view.owing?.periods === 1 ? "" : "s"}.
        </p>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">How it is paid</legend>
          <div className="mt-2 space-y-2 text-sm">
            {MANUAL_PAYMENT_METHODS.map((m) => (
              <label key={m} className="flex items-center gap-2">
                <input type="radio" name="method" value={m} defaultChecked={method === m} className="h-4 w-4 border-slate-300 text-brand-600" />
                {MANUAL_PAYMENT_METHOD_LABELS[m]}
              </label>
            ))}
          </div>
          <FieldErrors id={fields.method.errorId} errors={fields.method.errors} />
        </fieldset>
        <TextAreaField field={fields.note} label="Note (optional)" rows={2} />
        <PreviewButton pending={pending} />
        {preview && answer?.previewed ? (
          <ConfirmStep
            previewed={answer.previewed}
            confirm={preview.method === "charge" ? `Charge ${formatCents(preview.total)} now` : `Record ${formatCents(preview.total)}`}
            pending={pending}
          >
            <EffectRow
              label="Periods paid"
              after={
                <ul className="list-disc pl-5">
                  {preview.periods.map((p) => (
                    <li key={p.payment_id}>
                      {p.period_start ? `${formatDay(p.period_start)}${p.period_end ? ` to ${formatDay(p.period_end)}` : ""}` : paymentPurpose(p.type, "Payment")}:{" "}
                      {formatCents(p.amount)}
                    </li>
                  ))}
                </ul>
              }
            />
            <EffectRow label="Total" after={formatCents(preview.total)} />
            <EffectRow
              label="Then"
              after={
                preview.method === "bank_transfer"
                  ? "It waits until you mark it received; the grace period runs on meanwhile"
                  : [
                      preview.endsGrace ? "the grace period ends" : null,
                      preview.restores ? "the membership runs again from the period running today, and the door lets the member in" : null,
                    ]
                      .filter(Boolean)
                      .join("; ") || "Nothing more is owed"
              }
            />
          </ConfirmStep>
        ) : null}
      </Form>
    </ActionPage>
  );
}
