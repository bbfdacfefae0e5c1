import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { memberRoute } from "../../features/members/member-route.server";

/** POST /members/{id}/resend-invite: the member page's "Send the invitation again" (POST /api/members/{id}/resend-pif-invite). */
export async function action(args: ActionFunctionArgs) {
  const { id, api } = memberRoute(args);
  try {
    const sent = await api.post("/members/:id/resend-pif-invite", { params: { id } });
    return redirectWithToast(`/members/${id}`, { severity: "success", summary: "Invitation sent again", detail: `To ${sent.to}.` }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) return redirectWithToast(`/members/${id}`, { severity: "error", summary: "Not sent", detail: err.message }, api.headers);
    redirectForApiError(args.request, err);
  }
}
