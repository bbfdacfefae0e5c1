import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ApiRequestError, gymApi } from "../lib/api.server";
import { requireApp } from "../lib/host.server";
import { safeRedirect } from "../lib/redirect";
import { redirectForApiError } from "../lib/session.server";
import { redirectWithToast } from "../lib/toast.server";

/** POST: make another of the user's organisations current, then reload the page the user was on. */
export async function action(args: ActionFunctionArgs) {
  requireApp(args.request, "backoffice");
  const form = await args.request.formData();
  const id = Number(form.get("organisation_id"));
  const back = safeRedirect(form.get("redirectTo"));
  const api = gymApi(args);
  try {
    const { current_organisation } = await api.post<{ current_organisation: { name: string } }>(`/organisations/${Number.isInteger(id) && id > 0 ? id : 0}/switch`);
    return redirectWithToast(back, { severity: "info", summary: `Now working in ${current_organisation.name}` }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404) {
      return redirectWithToast(back, { severity: "error", summary: "Could not switch organisation", detail: err.message });
    }
    redirectForApiError(args.request, err);
  }
}

export const loader = () => redirect("/dashboard");
