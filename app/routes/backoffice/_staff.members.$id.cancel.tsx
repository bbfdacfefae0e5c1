import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import { CANCELLATION_REASON_LABELS, CANCELLATION_REASONS, cancelRequest, undoCancelRequest } from "../../../domain/schemas/subscriptions";
import { FieldErrors, FormErrors } from "../../components/field";
import { TextAreaField } from "../../components/form-controls";
import { ActionPage, CardAfter, chargeText, ConfirmStep, EffectRow, memberName, PreviewButton, useWhen } from "../../features/membership/action-page";
import { membershipPage, previewOrConfirm } from "../../features/membership/membership-route.server";
import { withDateTexts } from "../../lib/date-texts.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Cancel · Gym Membership" }];

/** /members/{id}/cancel: cancel at the end of the paid period or now (with reasons), or undo a cancellation while it can be. */
export async function loader(args: LoaderFunctionArgs) {
  const { member, view } = await membershipPage(args, "cancel").catch(async (err) => {
    // A cancelled membership comes here to be undone.
    if (err instanceof Response && err.status === 403) return membershipPage(args, "undo_cancel");
    throw err;
  });
  return withDateTexts({ member, view: view! });
}

export async function action(args: ActionFunctionArgs) {
  const { id, api, view } = await membershipPage(args, "cancel").catch(() => membershipPage(args, "undo_cancel"));
  const subscription = view!.id;
  // A cancellation the member asked for with notice, waiting for its day: withdrawn in one step (it takes nothing).
  if ((await readForm(args.request.clone())).get("form") === "withdraw") {
    try {
      await api.post("/subscriptions/:id/withdraw-cancel", { params: { id: subscription }, body: { version: view!.version } });
    } catch (err) {
      redirectForApiError(args.request, err);
    }
    return redirectWithToast(
      `/members/${id}`,
      { severity: "success", summary: "Cancellation withdrawn", detail: "The membership carries on, charged as before." },
      api.headers,
    );
  }
  if (view!.actions.undo_cancel) {
    return previewOrConfirm(args, undoCancelRequest, api, {
      to: `/members/${id}`,
      preview: (a, values) =>
        a
          .post("/subscriptions/:id/undo-cancel", { params: { id: subscription }, body: { ...values, preview: true } })
          .then((r) => ("preview" in r ? r.preview : null)),
      apply: (a, values) => a.post("/subscriptions/:id/undo-cancel", { params: { id: subscription }, body: values }),
      done: () => ({ summary: "Cancellation undone", detail: "The membership runs on as before." }),
    });
  }
  return previewOrConfirm(args, cancelRequest, api, {
    to: `/members/${id}`,
    preview: (a, values) =>
      a
        .post("/subscriptions/:id/cancel", { params: { id: subscription }, body: { ...values, preview: true } })
        .then((r) => ("preview" in r ? r.preview : null)),
    apply: (a, values) => a.post("/subscriptions/:id/cancel", { params: { id: subscription }, body: values }),
    done: (values, applied) => {
      // Sent without the preview flag, the API answers the effect (its answer's type also has the preview's shape).
      if (!("effect" in applied)) return { summary: "Membership cancelled" };
      const { effect } = applied;
      return {
        summary: "Membership cancelled",
        detail: `${values.when === "now" ? "Access ended today" : `Access until ${formatDay(effect.accessEnds)}`}${
          effect.breakFee ? `; break fee ${formatCents(effect.breakFee)} charged` : ""
        }.`,
      };
    },
  });
}

export default function CancelPage() {
  const { member, view } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  return (
    <ActionPage memberId={member.id} memberName={memberName(member)} title={view.actions.undo_cancel ? "Undo the cancellation" : "Cancel"} view={view}>
      {view.scheduled_cancellation && view.actions.withdraw_cancel ? <WithdrawForm view={view} pending={pending} /> : null}
      {view.actions.undo_cancel ? <UndoForm view={view} answer={answer} pending={pending} /> : <CancelForm view={view} answer={answer} pending={pending} />}
    </ActionPage>
  );
}

type Answer = ReturnType<typeof useActionData<typeof action>>;
type View = ReturnType<typeof useLoaderData<typeof loader>>["view"];

function CancelForm({ view, answer, pending }: { view: View; answer: Answer; pending: boolean }) {
  const when = useWhen();
  const [form, fields] = useForm<Record<string, unknown>>({
    id: "cancel",
    lastResult: answer?.result,
    constraint: getZodConstraint(cancelRequest),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cancelRequest }),
    defaultValue: { when: "period_end" },
  });
  const effect = answer?.preview && "accessEnds" in answer.preview ? answer.preview : null;
  const chosen = new Set([fields.reasons.value ?? []].flat().map(String));
  const whenValue = (fields.when.value as string | undefined) ?? "period_end";
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5 rounded-lg border border-slate-200 bg-white p-4" noValidate>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="version" value={view.version} />
      {view.is_term_membership ? (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          A term membership: commitment until {when(view.term_ends_at)}; cooling-off until {when(view.cooling_period_ends_at)}.
          {view.break_fee_percentage
            ? ` After cooling-off the break fee is ${view.break_fee_percentage}% of the term's remaining charges.`
            : " This gym charges no break fee."}
        </p>
      ) : null}
      <fieldset aria-describedby={fields.when.errors ? fields.when.errorId : undefined}>
        <legend className="text-sm font-medium text-slate-800">When it ends</legend>
        <div className="mt-2 space-y-2 text-sm">
          {[
            [
              "period_end",
              `At the end of the paid period${view.paid_until ? ` (${formatDay(view.paid_until)})` : ""}: access until then; can be undone until then`,
            ],
            ["now", "Now: access ends today, and the paid days left are given up. This cannot be undone."],
          ].map(([value, label]) => (
            <label key={value} className="flex items-start gap-2">
              <input type="radio" name="when" value={value} defaultChecked={whenValue === value} className="mt-0.5 h-4 w-4 border-slate-300 text-brand-600" />
              <span>{label}</span>
            </label>
          ))}
        </div>
        <FieldErrors id={fields.when.errorId} errors={fields.when.errors} />
      </fieldset>
      <fieldset aria-describedby={fields.reasons.errors ? fields.reasons.errorId : undefined}>
        <legend className="text-sm font-medium text-slate-800">Why (choose at least one)</legend>
        <div className="mt-2 grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
          {CANCELLATION_REASONS.map((r) => (
            <label key={r} className="flex items-center gap-2">
              <input type="checkbox" name="reasons" value={r} defaultChecked={chosen.has(r)} className="h-4 w-4 rounded border-slate-300 text-brand-600" />
              {CANCELLATION_REASON_LABELS[r]}
            </label>
          ))}
        </div>
        <FieldErrors id={fields.reasons.errorId} errors={fields.reasons.errors} />
      </fieldset>
      <TextAreaField field={fields.comments} label="Comments (optional)" rows={3} />
      <PreviewButton pending={pending} />
      {effect && answer?.previewed ? (
        <ConfirmStep previewed={answer.previewed} confirm="Cancel the membership" pending={pending}>
          <EffectRow
            label="Access"
            after={effect.unusedDays ? `Ends today; ${effect.unusedDays} paid days given up (no refund is made)` : `Until ${formatDay(effect.accessEnds)}`}
          />
          <EffectRow label="Next charge" before={chargeText(effect.nextChargeBefore)} after="None" />
          <EffectRow
            label="Charged now"
            after={
              effect.breakFee
                ? `Break fee ${formatCents(effect.breakFee)}, to their payment method`
                : effect.coolingOff
                ? "Nothing: inside the cooling-off period"
                : "Nothing"
            }
          />
          <EffectRow label="Can be undone" after={effect.undoUntil ? `Until ${formatDay(effect.undoUntil)}` : "No"} />
          <EffectRow label="Status card" after={<CardAfter card={effect.card} />} />
        </ConfirmStep>
      ) : null}
    </Form>
  );
}

/** The member's own cancellation, waiting for its notice to run (decision 0058): staff may withdraw it, or cancel over it below. */
function WithdrawForm({ view, pending }: { view: View; pending: boolean }) {
  return (
    <Form method="post" className="space-y-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      <input type="hidden" name="form" value="withdraw" />
      <p>
        The member asked to cancel, with the gym&apos;s notice: access until {formatDay(view.scheduled_cancellation!.access_until)}, and the payments until then
        are still taken. A cancellation made below replaces it.
      </p>
      <button
        type="submit"
        disabled={pending}
        className="rounded-md border border-amber-300 bg-white px-3 py-1.5 font-semibold text-amber-900 hover:bg-amber-100 disabled:opacity-60"
      >
        Withdraw the member&apos;s cancellation
      </button>
    </Form>
  );
}

function UndoForm({ view, answer, pending }: { view: View; answer: Answer; pending: boolean }) {
  const when = useWhen();
  const [form] = useForm<Record<string, unknown>>({ id: "undo", lastResult: answer?.result });
  const effect = answer?.preview && "pausesRestored" in answer.preview ? answer.preview : null;
  const span = (p: { start: string; end: string }) => `${formatDay(p.start)} until ${formatDay(p.end)}`;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4" noValidate>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="version" value={view.version} />
      <p className="text-sm text-slate-700">
        Cancelled on {when(view.cancelled_at)}; it can be undone until {when(view.undo_cancellation_until)}.
      </p>
      <PreviewButton pending={pending} />
      {effect && answer?.previewed ? (
        <ConfirmStep previewed={answer.previewed} confirm="Undo the cancellation" pending={pending}>
          <EffectRow label="Membership" before="Cancelled" after="Runs on as before" />
          <EffectRow
            label="Next charge"
            after={effect.nextCharge ? `${formatCents(effect.nextCharge.amount)} on ${formatDay(effect.nextCharge.day)}` : "None"}
          />
          {effect.pausesRestored.length ? <EffectRow label="Pauses put back" after={effect.pausesRestored.map(span).join("; ")} /> : null}
          {effect.pausesOver.length ? <EffectRow label="Pauses over, not put back" after={effect.pausesOver.map(span).join("; ")} /> : null}
          {effect.priceChangeRestored ? (
            <EffectRow
              label="Price change put back"
              after={`${formatCents(effect.priceChangeRestored.amount)} from ${formatDay(effect.priceChangeRestored.takes_effect)}`}
            />
          ) : null}
        </ConfirmStep>
      ) : null}
    </Form>
  );
}
