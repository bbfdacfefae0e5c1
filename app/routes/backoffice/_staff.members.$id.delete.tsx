import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { capitaliseWords } from "../../../domain/names";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import { memberRoute, memberToChange } from "../../features/members/member-route.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Delete member · Gym Membership" }];

/** The confirmation step is a page of its own, so it works without JavaScript. */
export async function loader(args: LoaderFunctionArgs) {
  return { member: await memberToChange(args, "delete") };
}

export async function action(args: ActionFunctionArgs) {
  const { id, api } = memberRoute(args);
  try {
    const { name } = await api.delete("/members/:id", { params: { id } });
    return redirectWithToast("/members", { summary: "Member deleted", detail: `${capitaliseWords(name)} no longer shows in lists or search. Their payments and visits are kept.` }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 403) {
      return redirectWithToast(`/members/${id}`, { severity: "error", summary: "Not deleted", detail: err.message });
    }
    redirectForApiError(args.request, err);
  }
}

export default function MemberDelete() {
  const { member } = useLoaderData<typeof loader>();
  const pending = useNavigation().state === "submitting";
  const name = capitaliseWords(member.name);
  return (
    <div className="mx-auto max-w-lg rounded-lg border border-red-200 bg-white p-6">
      <h1 className="text-xl font-semibold">Delete {name}?</h1>
      <p className="mt-3 text-slate-700">
        {name} will no longer show in the members list or search. Their payments, visits and account are kept, and their membership details stay in the records.
      </p>
      {member.latest_subscription && member.latest_subscription.state !== "cancelled" ? (
        <p className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900">Their membership is {member.latest_subscription.label.toLowerCase()}, not cancelled.</p>
      ) : null}
      <Form method="post" className="mt-6 flex items-center gap-4">
        <button type="submit" disabled={pending} className="rounded-md bg-red-700 px-4 py-2 font-semibold text-white shadow-sm hover:bg-red-800 disabled:opacity-60">
          Delete member
        </button>
        <Link to={`/members/${member.id}`} className="text-sm font-medium text-brand-700 hover:underline">
          Keep {name}
        </Link>
      </Form>
    </div>
  );
}
