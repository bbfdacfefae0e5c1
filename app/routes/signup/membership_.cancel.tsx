import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import { CANCELLATION_REASON_LABELS, CANCELLATION_REASONS } from "../../../domain/cancellation-reasons";
import { FieldErrors } from "../../components/field";
import { CardAfter, chargeText, ConfirmStep, EffectRow, PreviewButton } from "../../features/membership/effect-parts";
import { AskTheGym, errorsOf, FormProblems, sent, type Reply } from "../../features/my-membership/action-form-bits";
import { cancelAction, loadMemberAction } from "../../features/my-membership/member-actions.server";
import { MemberFrame } from "../../features/my-membership/member-frame";

export const meta: MetaFunction = () => [{ title: "Cancel your membership · Gym Membership" }];

/**
 * /membership/cancel (issue 31): a member cancels their own membership where their gym allows it, with its notice,
 * after a preview; or undoes a cancellation they made, while it can be undone.
 */
export const loader = (args: LoaderFunctionArgs) => loadMemberAction(args);
export const action = (args: ActionFunctionArgs) => cancelAction(args);

export default function CancelMine() {
  const { membership, actions } = useLoaderData<typeof loader>()!;
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const reply = answer?.result as Reply;
  const effect = answer?.preview && "accessEnds" in answer.preview ? answer.preview : null;
  const undoing = answer?.preview && !effect ? answer.preview : null;
  const chosen = new Set([sent(reply, "reasons") ?? []].flat());
  return (
    <MemberFrame back title={actions.undo.allowed ? "Undo your cancellation" : "Cancel your membership"} gym={membership.gym?.name}>
      {actions.undo.allowed ? (
        <Form method="post" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
          <input type="hidden" name="form" value="undo" />
          <input type="hidden" name="version" value={actions.version ?? ""} />
          <p className="text-sm text-slate-700">
            {actions.undo.scheduled
              ? "You asked to cancel, with your gym's notice. Withdraw it and your membership carries on as before."
              : "You cancelled your membership. Undo it, and it carries on as before: the payments it stopped start again."}
          </p>
          <FormProblems reply={reply} />
          <PreviewButton pending={pending}>See what changes</PreviewButton>
          {undoing && answer?.previewed ? (
            <ConfirmStep previewed={answer.previewed} confirm="Undo my cancellation" pending={pending}>
              <EffectRow label="Your membership" after="Carries on" />
              {"nextCharge" in undoing ? <EffectRow label="Next payment" after={chargeText(undoing.nextCharge)} /> : null}
            </ConfirmStep>
          ) : null}
        </Form>
      ) : !actions.cancel.allowed ? (
        <AskTheGym>
          {actions.cancel.offered
            ? "Your membership cannot be cancelled from here as it is now (cancelled already, or with a payment owing). Ask the gym at the desk or send them a message."
            : "Your gym does not let members cancel their own membership here. Ask at the desk or send them a message."}
        </AskTheGym>
      ) : (
        <Form method="post" className="space-y-5 rounded-lg border border-slate-200 bg-white p-4" noValidate>
          <p className="text-sm text-slate-700">
            {actions.cancel.notice_days
              ? `Your gym asks for ${actions.cancel.notice_days} days' notice. Your membership ends at the end of the period you have paid for, or, if that is sooner, at the end of the period your notice runs into; payments until then are still taken.`
              : "Your membership ends at the end of the period you have paid for: you can use the gym until then."}
          </p>
          <FormProblems reply={reply} />
          <input type="hidden" name="version" value={actions.version ?? ""} />
          <fieldset aria-describedby={errorsOf(reply, "reasons") ? "reasons-error" : undefined}>
            <legend className="text-sm font-medium text-slate-800">Why are you leaving? (choose at least one)</legend>
            <div className="mt-2 grid grid-cols-1 gap-2 text-sm">
              {CANCELLATION_REASONS.map((r) => (
                <label key={r} className="flex items-center gap-2">
                  <input type="checkbox" name="reasons" value={r} defaultChecked={chosen.has(r)} className="h-4 w-4 rounded border-slate-300 text-brand-600" />
                  {CANCELLATION_REASON_LABELS[r]}
                </label>
              ))}
            </div>
            <FieldErrors id="reasons-error" errors={errorsOf(reply, "reasons")} />
          </fieldset>
          <div className="space-y-1">
            <label htmlFor="comments" className="block text-sm font-medium text-slate-800">
              Anything you would like the gym to know (optional)
            </label>
            <textarea
              id="comments"
              name="comments"
              rows={3}
              defaultValue={(sent(reply, "comments") as string | undefined) ?? ""}
              className="block w-full rounded-md border border-slate-300 px-3 py-2 text-base"
            />
            <FieldErrors id="comments-error" errors={errorsOf(reply, "comments")} />
          </div>
          <PreviewButton pending={pending}>See what changes</PreviewButton>
          {effect && answer?.previewed ? (
            <ConfirmStep previewed={answer.previewed} confirm="Cancel my membership" pending={pending}>
              <EffectRow label="You can use the gym" after={`Until ${formatDay(effect.accessEnds)}`} />
              {effect.scheduled ? (
                <EffectRow label="Still to pay" after={effect.paymentsBefore.map((p) => `${formatCents(p.amount)} on ${formatDay(p.day)}`).join(", ")} />
              ) : null}
              <EffectRow label="Next payment" before={chargeText(effect.nextChargeBefore)} after={effect.scheduled ? "None after those" : "None"} />
              <EffectRow label="Charged now" after={effect.coolingOff ? "Nothing: you are inside the cooling-off period" : "Nothing"} />
              <EffectRow label="Changed your mind?" after={effect.undoUntil ? `You can undo it until ${formatDay(effect.undoUntil)}` : "It cannot be undone"} />
              <EffectRow label="Your membership" after={<CardAfter card={effect.card} />} />
            </ConfirmStep>
          ) : null}
        </Form>
      )}
    </MemberFrame>
  );
}
