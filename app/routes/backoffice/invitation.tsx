import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { data } from "@remix-run/node";
import { AuthCard } from "../../components/auth-card";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";
import { formText } from "../../lib/settings-action.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "An invitation · Gym Membership" }];

/**
 * /invitation?token=…: someone who already has an account is asked to join another organisation (decision 0048).
 * Open to anyone holding the e-mailed link, signed in or not (not under the guest layout, which sends signed-in
 * staff away): the link is the proof that they hold the mailbox. Accept or decline, one form each, no JavaScript.
 */
export async function loader(args: LoaderFunctionArgs) {
  const token = new URL(args.request.url).searchParams.get("token") ?? "";
  if (!token) return { token, invitation: null, problem: "This page needs the link from your e-mail. Open the link in the e-mail again." };
  try {
    return { token, invitation: await gymApi(args).post("/invitations/describe", { body: { token } }), problem: null };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500) return { token, invitation: null, problem: err.message };
    throw err;
  }
}

export async function action(args: ActionFunctionArgs) {
  const form = await readForm(args.request);
  const token = formText(form, "token");
  const api = gymApi(args);
  try {
    if (formText(form, "answer") === "decline") {
      await api.post("/invitations/decline", { body: { token } });
      return redirectWithToast("/login", { summary: "Invitation declined", detail: "Nothing has changed on your account." }, api.headers);
    }
    const joined = await api.post("/invitations/accept", { body: { token } });
    const detail =
      joined.role === "member"
        ? `You are now a member of ${joined.organisation}. Sign in to choose how to pay.`
        : `You are now on the staff of ${joined.organisation}. Sign in and switch to it from the organisation menu.`;
    return redirectWithToast("/login", { summary: `Welcome to ${joined.organisation}`, detail }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500) return data({ problem: err.message }, { status: err.status });
    throw err;
  }
}

export default function Invitation() {
  const { token, invitation, problem } = useLoaderData<typeof loader>();
  const answered = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const trouble = answered?.problem ?? problem;
  if (!invitation || answered?.problem) {
    return (
      <AuthCard title="An invitation">
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {trouble}
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Join ${invitation.organisation}?`} intro={`For ${invitation.email}.`}>
      <p className="text-sm text-slate-800">
        {invitation.invited_by ? `${invitation.invited_by} of ${invitation.organisation}` : invitation.organisation} has invited you to join them as{" "}
        {invitation.role_in_words}.
      </p>
      <p className="mt-3 text-sm text-slate-600">
        When you accept, {invitation.organisation} sees your name, e-mail address and the details on your account, as the places you already belong to
        do. Only you can change those details.
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <Form method="post">
          <input type="hidden" name="token" value={token} />
          <button
            type="submit"
            name="answer"
            value="accept"
            disabled={busy}
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            Accept and join
          </button>
        </Form>
        <Form method="post">
          <input type="hidden" name="token" value={token} />
          <button
            type="submit"
            name="answer"
            value="decline"
            disabled={busy}
            className="rounded-md bg-white px-4 py-2 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
          >
            Decline
          </button>
        </Form>
      </div>
    </AuthCard>
  );
}
