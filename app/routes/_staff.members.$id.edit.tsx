import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { capitaliseWords } from "../../domain/dates";
import { memberUpdateSchema } from "../../domain/schemas/members";
import type { MemberDetail } from "../features/members/detail-types";
import { MemberForm } from "../features/members/member-form";
import { apiPath, gymApi } from "../lib/api.server";
import { readForm, replyWithApiError } from "../lib/forms.server";
import { requireApp } from "../lib/host.server";
import { idParam } from "../lib/params.server";
import { redirectForApiError } from "../lib/session.server";
import { redirectWithToast } from "../lib/toast.server";
import type { loader as staffLoader } from "./_staff";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Edit ${data?.member.name ? capitaliseWords(data.member.name) : "member"} · Gym Membership` }];

export async function loader(args: LoaderFunctionArgs) {
  requireApp(args.request, "backoffice");
  const id = idParam(args.params, "id");
  let member: MemberDetail;
  try {
    member = await gymApi(args).get<MemberDetail>(apiPath`/members/${id}`);
  } catch (err) {
    redirectForApiError(args.request, err);
  }
  // The API refuses the change too; the page does not offer a form that cannot be sent.
  if (!member.can.edit) throw new Response("Only admins can change a member's details.", { status: 403 });
  return { member };
}

export async function action(args: ActionFunctionArgs) {
  requireApp(args.request, "backoffice");
  const id = idParam(args.params, "id");
  const submission = parseWithZod(await readForm(args.request), { schema: memberUpdateSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const api = gymApi(args);
  try {
    // JSON drops the fields the schema left undefined (empty values); numbers are numbers already.
    const saved = await api.put<MemberDetail>(apiPath`/members/${id}`, submission.value);
    return redirectWithToast(`/members/${id}`, { summary: "Member saved", detail: capitaliseWords(saved.name) }, api.headers);
  } catch (err) {
    if (err instanceof Error && "status" in err && ((err as { status: number }).status === 404 || (err as { status: number }).status === 401)) redirectForApiError(args.request, err);
    return replyWithApiError(submission, err);
  }
}

export default function MemberEdit() {
  const { member } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const staff = useRouteLoaderData<typeof staffLoader>("routes/_staff");
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold">Edit {capitaliseWords(member.name)}</h1>
      <MemberForm member={member} gyms={staff?.me.gyms ?? []} lastResult={lastResult} pending={navigation.state === "submitting"} />
    </div>
  );
}
