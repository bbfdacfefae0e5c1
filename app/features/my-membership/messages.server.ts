import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { ApiRequestError } from "../../lib/api.server";
import { withDateTexts } from "../../lib/date-texts.server";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError } from "../../lib/session.server";
import { requireJoinedMember } from "./my-membership.server";

/**
 * A member's conversation with their gym on the sign-up app (issue 31): the same `/api/member/messages` the member app
 * uses. Where the organisation has messaging off the API answers 404, and the page says to ask at the desk.
 */
export async function loadMessages(args: LoaderFunctionArgs) {
  const { api } = await requireJoinedMember(args);
  try {
    const thread = await api.get("/member/messages");
    return withDateTexts({ on: true as const, messages: thread.data });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404) return withDateTexts({ on: false as const, messages: [] });
    redirectForApiError(args.request, err);
  }
}

export async function sendMessage(args: ActionFunctionArgs) {
  const { api } = await requireJoinedMember(args);
  const body = String((await readForm(args.request)).get("body") ?? "");
  try {
    await api.post("/member/messages", { body: { body } });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) return data({ body, error: err.errors?.body?.[0] ?? err.message }, { status: 422 });
    redirectForApiError(args.request, err);
  }
  // Sent: the page again, so a reload does not send it twice.
  throw redirect("/membership/messages", { headers: api.headers });
}
