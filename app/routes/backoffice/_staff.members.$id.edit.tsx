import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { capitaliseWords } from "../../../domain/names";
import { memberUpdateSchema } from "../../../domain/schemas/members";
import { MemberForm } from "../../features/members/member-form";
import { ApiRequestError } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { memberRoute, memberToChange } from "../../features/members/member-route.server";
import { redirectWithToast } from "../../lib/toast.server";
import type { loader as staffLoader } from "./_staff";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Edit ${data?.member.name ? capitaliseWords(data.member.name) : "member"} · Gym Membership` }];

export async function loader(args: LoaderFunctionArgs) {
  return { member: await memberToChange(args, "edit") };
}

export async function action(args: ActionFunctionArgs) {
  const { id, api } = memberRoute(args);
  const submission = parseWithZod(await readForm(args.request), { schema: memberUpdateSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    // JSON drops the fields the schema left undefined (empty values); numbers are numbers already.
    const saved = await api.put("/members/:id", { params: { id }, body: submission.value });
    return redirectWithToast(`/members/${id}`, { summary: "Member saved", detail: capitaliseWords(saved.name) }, api.headers);
  } catch (err) {
    // Signed out, gone, or not allowed: the page the guards would show; anything else is the form's to say.
    if (err instanceof ApiRequestError && [401, 403, 404].includes(err.status)) redirectForApiError(args.request, err);
    return replyWithApiError(submission, err);
  }
}

export default function MemberEdit() {
  const { member } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/backoffice/_staff");
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold">Edit {capitaliseWords(member.name)}</h1>
      <MemberForm member={member} gyms={staff?.me.gyms ?? []} lastResult={lastResult} pending={navigation.state === "submitting"} />
    </div>
  );
}
