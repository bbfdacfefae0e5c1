import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatCalendarDay as formatDay } from "../../../domain/calendar-day";
import { formatCents } from "../../../domain/money";
import { versionOnlyRequest } from "../../../domain/schemas/subscriptions";
import { FormErrors } from "../../components/field";
import { ActionPage, chargeText, ConfirmStep, EffectRow, memberName, PreviewButton } from "../../features/membership/action-page";
import { membershipPage, previewOrConfirm } from "../../features/membership/membership-route.server";
import { orRefusal } from "../../features/members/member-route.server";
import { withDateTexts } from "../../lib/date-texts.server";

export const meta: MetaFunction = () => [{ title: "Start now · Gym Membership" }];

/** /members/{id}/start-now: start an upcoming membership today; its first payment is charged at once (SPEC §4). */
export async function loader(args: LoaderFunctionArgs) {
  const { member, view, api } = await membershipPage(args, "start_now");
  const data = await orRefusal(args.request, api.get("/subscriptions/:id/start-early-data", { params: { id: view!.id } }));
  return withDateTexts({ member, view: view!, data });
}

export async function action(args: ActionFunctionArgs) {
  const { id, api, view } = await membershipPage(args, "start_now");
  const subscription = view!.id;
  return previewOrConfirm(args, versionOnlyRequest, api, {
    to: `/members/${id}`,
    preview: (a, values) => a.post("/subscriptions/:id/start-now", { params: { id: subscription }, body: { ...values, preview: true } }).then((r) => ("preview" in r ? r.preview : null)),
    apply: (a, values) => a.post("/subscriptions/:id/start-now", { params: { id: subscription }, body: values }),
    done: () => ({ summary: "Membership started", detail: "Its first payment was charged: see the payments below." }),
  });
}

export default function StartNowPage() {
  const { member, view, data } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const [form] = useForm<Record<string, unknown>>({ id: "start-now", lastResult: answer?.result });
  const first = data.firstPayment;
  return (
    <ActionPage memberId={member.id} memberName={memberName(member)} title="Start now" view={view}>
      <Form method="post" {...getFormProps(form)} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4" noValidate>
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="version" value={view.version} />
        <p className="text-sm text-slate-700">
          It starts on {data.was ? formatDay(data.was) : "a later day"}. Starting today charges the first payment now
          {data.hasPaymentMethod ? "" : ", but the member has no payment method yet: add one first"}.
        </p>
        <PreviewButton pending={pending} />
        {answer?.preview && answer.previewed ? (
          <ConfirmStep previewed={answer.previewed} confirm="Start it now and charge" pending={pending}>
            <EffectRow label="Starts" before={data.was ? formatDay(data.was) : "Later"} after={`Today, ${formatDay(data.start)}`} />
            <EffectRow
              label="Charged now"
              after={`${formatCents(first.amount + first.surcharge)}: ${first.isProRata ? `pro-rata for ${formatDay(first.covers.start)} to ${formatDay(first.covers.end)}` : "the first period"}${first.joiningFee ? `, with the ${formatCents(first.joiningFee)} joining fee` : ""}${first.surcharge ? `, with the card surcharge of ${formatCents(first.surcharge)}` : ""}`}
            />
            <EffectRow label="Next charge" after={chargeText(data.nextCharge)} />
          </ConfirmStep>
        ) : null}
      </Form>
    </ActionPage>
  );
}
