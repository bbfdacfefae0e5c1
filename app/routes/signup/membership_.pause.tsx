import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { shiftCalendarDay } from "../../../domain/calendar-day";
import { CardAfter, chargeText, ConfirmStep, EffectRow, PreviewButton } from "../../features/membership/effect-parts";
import { AskTheGym, DateField, FormProblems, type Reply } from "../../features/my-membership/action-form-bits";
import { loadMemberAction, pauseAction } from "../../features/my-membership/member-actions.server";
import { MemberFrame } from "../../features/my-membership/member-frame";

export const meta: MetaFunction = () => [{ title: "Pause your membership · Gym Membership" }];

/** /membership/pause (issue 31): a member pauses their own membership, where their gym allows it, after a preview. */
export const loader = (args: LoaderFunctionArgs) => loadMemberAction(args);
export const action = (args: ActionFunctionArgs) => pauseAction(args);

export default function PauseMine() {
  const { membership, actions, today } = useLoaderData<typeof loader>()!;
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const reply = answer?.result as Reply;
  const effect = answer?.preview && "days" in answer.preview ? answer.preview : null;
  const tomorrow = shiftCalendarDay(today, 1);
  return (
    <MemberFrame back title="Pause your membership" gym={membership.gym?.name}>
      {!actions.pause.allowed ? (
        <AskTheGym>
          {actions.pause.offered
            ? "Your membership cannot be paused from here as it is now (cancelled, not started, or with a payment owing). Ask the gym at the desk or send them a message."
            : "Your gym does not let members pause their own membership here. Ask at the desk or send them a message."}
        </AskTheGym>
      ) : (
        <Form method="post" className="space-y-5 rounded-lg border border-slate-200 bg-white p-4" noValidate>
          <p className="text-sm text-slate-700">
            Nothing is charged while your membership is paused, and your door access stops until you are back. Your gym allows {actions.pause.days_per_year}{" "}
            pause days in any twelve months; you have {actions.pause.days_left} left.
          </p>
          <FormProblems reply={reply} />
          <input type="hidden" name="version" value={actions.version ?? ""} />
          <DateField name="start" label="First day of your pause" min={tomorrow} reply={reply} />
          <DateField name="end" label="The day you are back" min={shiftCalendarDay(today, 2)} reply={reply} />
          <PreviewButton pending={pending}>See what changes</PreviewButton>
          {effect && answer?.previewed ? (
            <ConfirmStep previewed={answer.previewed} confirm="Pause my membership" pending={pending}>
              <EffectRow label="Paused for" after={`${effect.days} ${effect.days === 1 ? "day" : "days"}`} />
              <EffectRow label="Next payment" before={chargeText(effect.nextChargeBefore)} after={chargeText(effect.nextChargeAfter)} />
              <EffectRow label="Pause days left" after={String(effect.daysLeftAfter)} />
              <EffectRow label="On the first day" after={<CardAfter card={effect.card} />} />
            </ConfirmStep>
          ) : null}
        </Form>
      )}
    </MemberFrame>
  );
}
