import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { localDay } from "../../../domain/dates";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import { PIF_PAYMENT_METHODS } from "../../../domain/payment";
import { pifRequest } from "../../../domain/schemas/subscriptions";
import { Field, FieldErrors, FormErrors } from "../../components/field";
import { SelectField } from "../../components/form-controls";
import { ActionPage, ConfirmStep, EffectRow, memberName, PreviewButton } from "../../features/membership/action-page";
import { membershipPage, previewOrConfirm } from "../../features/membership/membership-route.server";
import { orRefusal } from "../../features/members/member-route.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Add paid in full · Gym Membership" }];

const METHOD_LABELS = { eftpos: "EFTPOS at the desk", cash: "Cash", bank_transfer: "Bank transfer (marked received when it arrives)" } as const;

/** /members/{id}/pif: a paid-in-full membership paid at the desk (SPEC §4 says when it may be added). */
export async function loader(args: LoaderFunctionArgs) {
  const { member, view, api } = await membershipPage(args, "pif");
  if (!member.can.change_membership || !member.can.take_money) throw new Response("Only admins can sell a membership.", { status: 403 });
  if (view && !view.actions.pif)
    throw new Response("A paid-in-full membership cannot be added now: the member's membership has a price change scheduled, or has not started.", {
      status: 403,
    });
  // The paid-in-full prices sold at the member's gym: from their membership's page data, or the offerings list.
  const options = view
    ? view.pif_options
    : (await orRefusal(args.request, api.get("/offerings"))).data
        .filter((o) => !o.archived_at)
        .flatMap((o) => o.prices.filter((p) => p.billing_frequency === "one_off" && !p.archived_at).map((p) => ({ id: p.id, offering: o.name, amount: p.amount, frequency: "Paid in full", term: p.term })));
  return withDateTexts({ member, view, options, key: crypto.randomUUID().replace(/-/g, ""), today: localDay(new Date()) });
}

export async function action(args: ActionFunctionArgs) {
  const { id, api } = await membershipPage(args, "pif");
  return previewOrConfirm(args, pifRequest, api, {
    to: `/members/${id}`,
    preview: (a, values) => a.post("/members/:id/pif", { params: { id }, body: { ...values, preview: true } }).then((r) => ("preview" in r ? r.preview : null)),
    apply: (a, values) => a.post("/members/:id/pif", { params: { id }, body: values }),
    done: (values) => ({
      summary: "Paid-in-full membership added",
      detail: values.method === "bank_transfer" ? "Mark the transfer received when it arrives." : undefined,
    }),
  });
}

export default function PifPage() {
  const { member, view, options, key, today } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useForm<Record<string, unknown>>({
    id: "pif",
    lastResult: answer?.result,
    constraint: getZodConstraint(pifRequest),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: pifRequest }),
    defaultValue: { start: view?.paid_until && view.paid_until > today && !view.cancelled_at ? view.paid_until : today, method: "eftpos" },
  });
  const preview = answer?.preview;
  const method = (fields.method.value as string | undefined) ?? "eftpos";
  const sentKey = (answer?.result?.initialValue as { key?: string } | undefined)?.key ?? key;
  return (
    <ActionPage memberId={member.id} memberName={memberName(member)} title="Add paid in full" view={view}>
      <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-lg border border-slate-200 bg-white p-4" noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="key" value={sentKey} />
        {options.length ? (
          <SelectField
            field={fields.price_id}
            label="Paid-in-full price"
            placeholder="Choose a price"
            options={options.map((p) => ({ value: String(p.id), label: `${p.offering}: ${formatCents(p.amount)}${p.term ? ` (${p.term})` : ""}` }))}
          />
        ) : (
          <p className="text-sm text-slate-700">No paid-in-full price is sold at this gym.</p>
        )}
        <Field field={fields.start} label="Starts" inputProps={{ type: "date" } as object} />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Paid by</legend>
          <div className="mt-2 space-y-2 text-sm">
            {PIF_PAYMENT_METHODS.map((m) => (
              <label key={m} className="flex items-center gap-2">
                <input type="radio" name="method" value={m} defaultChecked={method === m} className="h-4 w-4 border-slate-300 text-brand-600" />
                {METHOD_LABELS[m]}
              </label>
            ))}
          </div>
          <FieldErrors id={fields.method.errorId} errors={fields.method.errors} />
        </fieldset>
        <PreviewButton pending={pending} />
        {preview && answer?.previewed ? (
          <ConfirmStep previewed={answer.previewed} confirm={`Add it: ${formatCents(preview.amount)} paid`} pending={pending}>
            <EffectRow
              label="Membership"
              after={`${preview.price.offering}, from ${formatDay(preview.start)}${preview.ends ? ` until ${formatDay(preview.ends)}` : " with no end"}`}
            />
            <EffectRow
              label="Paid"
              after={`${formatCents(preview.amount)}${preview.joiningFee ? ` (with the ${formatCents(preview.joiningFee)} joining fee)` : ""}`}
            />
            {preview.endsCurrent ? <EffectRow label="Current membership" after={`Cancelled: ends ${formatDay(preview.endsCurrent.on)}`} /> : null}
            <EffectRow label="Status card" after={preview.startsLater ? `Upcoming until ${formatDay(preview.start)}` : "Active, paid in full"} />
          </ConfirmStep>
        ) : null}
      </Form>
    </ActionPage>
  );
}
