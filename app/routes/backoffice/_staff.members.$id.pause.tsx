import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { pauseRequest } from "../../../domain/schemas/subscriptions";
import { Field, FormErrors } from "../../components/field";
import { ActionPage, CardAfter, chargeText, ConfirmStep, EffectRow, memberName, PreviewButton } from "../../features/membership/action-page";
import { membershipPage, previewOrConfirm } from "../../features/membership/membership-route.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Pause · Gym Membership" }];

/** /members/{id}/pause: schedule a pause, end a running one early, remove one to come, change the pause credit. */
export async function loader(args: LoaderFunctionArgs) {
  const { member, view } = await membershipPage(args, "pause");
  return withDateTexts({ member, view: view! });
}

export async function action(args: ActionFunctionArgs) {
  const { id, api, view } = await membershipPage(args, "pause");
  const subscription = view!.id;
  return previewOrConfirm(args, pauseRequest, api, {
    to: `/members/${id}`,
    preview: (a, values) =>
      a.post("/subscriptions/:id/pause", { params: { id: subscription }, body: { ...values, preview: true } }).then((r) => ("preview" in r ? r.preview : null)),
    apply: (a, values) => a.post("/subscriptions/:id/pause", { params: { id: subscription }, body: values }),
    done: (values) => ({
      summary: { pause: "Pause scheduled", end: "Pause ended early", remove: "Pause removed", credit: "Pause credit changed" }[values.action],
      detail: values.action === "pause" ? `From ${formatDay(values.start)} until ${formatDay(values.end)}` : undefined,
    }),
  });
}

export default function PausePage() {
  const { member, view } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const sent = answer?.result?.initialValue as { action?: string; pause_id?: string } | undefined;
  // Which of the page's forms the answer is for: its action, and the pause it named.
  const forThis = (name: string, pauseId?: number) =>
    sent?.action === name && (pauseId === undefined || sent.pause_id === String(pauseId)) ? answer : undefined;
  const running = view.pauses.filter((p) => p.can_end);
  const toCome = view.pauses.filter((p) => p.can_remove);
  return (
    <ActionPage memberId={member.id} memberName={memberName(member)} title="Pause" view={view}>
      <PauseForm version={view.version} answer={forThis("pause")} pending={pending} />
      {running.map((p) => (
        <EndForm key={p.id} pause={p} version={view.version} answer={forThis("end", p.id)} pending={pending} />
      ))}
      {toCome.map((p) => (
        <RemoveForm key={p.id} pause={p} version={view.version} answer={forThis("remove", p.id)} pending={pending} />
      ))}
      <CreditForm credit={view.pause_days_credit} remaining={view.pause_days_remaining} version={view.version} answer={forThis("credit")} pending={pending} />
      {view.pauses.some((p) => p.over) ? (
        <section aria-labelledby="past-pauses" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <h2 id="past-pauses" className="font-semibold">
            Earlier pauses
          </h2>
          <ul className="mt-2 list-disc pl-5">
            {view.pauses
              .filter((p) => p.over)
              .map((p) => (
                <li key={p.id}>
                  {formatDay(p.start)} until {formatDay(p.end)}
                  {p.reason ? ` (${p.reason})` : ""}
                </li>
              ))}
          </ul>
        </section>
      ) : null}
    </ActionPage>
  );
}

type Answer = ReturnType<typeof useActionData<typeof action>>;

function useActionForm(id: string, answer: Answer) {
  return useForm<Record<string, unknown>>({
    id,
    lastResult: answer?.result,
    constraint: getZodConstraint(pauseRequest),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: pauseRequest }),
  });
}

/** The answer's preview, told apart by the action it was for: the credit's, or a pause's (its dates and charges). */
const creditEffect = (answer: Answer) => (answer?.preview?.action === "credit" ? answer.preview : null);
const pauseEffect = (answer: Answer) => (answer?.preview && answer.preview.action !== "credit" ? answer.preview : null);

function PauseEffect({ effect }: { effect: NonNullable<ReturnType<typeof pauseEffect>> }) {
  return (
    <>
      {effect.days !== undefined ? <EffectRow label="Length" after={`${effect.days} days`} /> : null}
      <EffectRow label="Next charge" before={chargeText(effect.nextChargeBefore)} after={chargeText(effect.nextChargeAfter)} />
      {effect.creditRemainingBefore !== undefined ? (
        <EffectRow label="Pause days left" before={effect.creditRemainingBefore} after={effect.creditRemainingAfter} />
      ) : null}
      {effect.creditRemainingAfter < 0 && effect.creditRemainingAfter < effect.creditRemainingBefore ? (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          This goes {-effect.creditRemainingAfter} {effect.creditRemainingAfter === -1 ? "day" : "days"} past the membership&apos;s pause credit. Staff may
          pause past it; to keep the count right, add the days to the credit below first.
        </p>
      ) : null}
      {effect.card ? <EffectRow label="Status card" after={<CardAfter card={effect.card} />} /> : null}
    </>
  );
}

function PauseForm({ version, answer, pending }: { version: number; answer: Answer; pending: boolean }) {
  const [form, fields] = useActionForm("pause-new", answer);
  const effect = pauseEffect(answer);
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4"
      noValidate
      aria-labelledby="pause-new-heading"
    >
      <h2 id="pause-new-heading" className="font-semibold">
        Pause the membership
      </h2>
      <p className="text-sm text-slate-600">No charge falls inside a pause, and every later charge moves by its length. The member is back on the end day.</p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="action" value="pause" />
      <input type="hidden" name="version" value={version} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field field={fields.start} label="First day paused" inputProps={{ type: "date" } as object} />
        <Field field={fields.end} label="Back on" inputProps={{ type: "date" } as object} />
      </div>
      <Field field={fields.reason} label="Reason (optional)" />
      <PreviewButton pending={pending} />
      {effect && answer?.previewed ? (
        <ConfirmStep previewed={answer.previewed} confirm="Pause the membership" pending={pending}>
          <PauseEffect effect={effect} />
        </ConfirmStep>
      ) : null}
    </Form>
  );
}

function EndForm({
  pause,
  version,
  answer,
  pending,
}: {
  pause: { id: number; start: string; end: string };
  version: number;
  answer: Answer;
  pending: boolean;
}) {
  const [form, fields] = useActionForm(`pause-end-${pause.id}`, answer);
  const effect = pauseEffect(answer);
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4"
      noValidate
      aria-labelledby={`pause-end-${pause.id}-heading`}
    >
      <h2 id={`pause-end-${pause.id}-heading`} className="font-semibold">
        End the pause early
      </h2>
      <p className="text-sm text-slate-600">
        Paused from {formatDay(pause.start)} until {formatDay(pause.end)}.
      </p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="action" value="end" />
      <input type="hidden" name="pause_id" value={pause.id} />
      <input type="hidden" name="version" value={version} />
      <Field field={fields.end} label="Back on" inputProps={{ type: "date" } as object} />
      <PreviewButton pending={pending} />
      {effect && answer?.previewed ? (
        <ConfirmStep previewed={answer.previewed} confirm="End the pause" pending={pending}>
          <PauseEffect effect={effect} />
        </ConfirmStep>
      ) : null}
    </Form>
  );
}

function RemoveForm({
  pause,
  version,
  answer,
  pending,
}: {
  pause: { id: number; start: string; end: string };
  version: number;
  answer: Answer;
  pending: boolean;
}) {
  const [form] = useActionForm(`pause-remove-${pause.id}`, answer);
  const effect = pauseEffect(answer);
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4"
      noValidate
      aria-labelledby={`pause-remove-${pause.id}-heading`}
    >
      <h2 id={`pause-remove-${pause.id}-heading`} className="font-semibold">
        Pause to come: {formatDay(pause.start)} until {formatDay(pause.end)}
      </h2>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="action" value="remove" />
      <input type="hidden" name="pause_id" value={pause.id} />
      <input type="hidden" name="version" value={version} />
      <PreviewButton pending={pending}>Preview removing it</PreviewButton>
      {effect && answer?.previewed ? (
        <ConfirmStep previewed={answer.previewed} confirm="Remove the pause" pending={pending}>
          <PauseEffect effect={effect} />
        </ConfirmStep>
      ) : null}
    </Form>
  );
}

function CreditForm({ credit, remaining, version, answer, pending }: { credit: number; remaining: number; version: number; answer: Answer; pending: boolean }) {
  const [form, fields] = useActionForm("pause-credit", answer);
  const effect = creditEffect(answer);
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4"
      noValidate
      aria-labelledby="pause-credit-heading"
    >
      <h2 id="pause-credit-heading" className="font-semibold">
        Pause credit
      </h2>
      <p className="text-sm text-slate-600">
        {credit} days granted; {remaining} left after this membership&apos;s pauses. Pauses may go beyond it: it is the allowance staff see.
      </p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="action" value="credit" />
      <input type="hidden" name="version" value={version} />
      <Field field={fields.days} label="Days to add (a minus takes away)" inputProps={{ inputMode: "numeric" }} />
      <PreviewButton pending={pending} />
      {effect && answer?.previewed ? (
        <ConfirmStep previewed={answer.previewed} confirm="Change the credit" pending={pending}>
          <EffectRow label="Pause credit" before={`${effect.creditBefore} days`} after={`${effect.creditAfter} days`} />
          <EffectRow label="Pause days left" before={effect.remainingBefore} after={effect.remainingAfter} />
        </ConfirmStep>
      ) : null}
    </Form>
  );
}
