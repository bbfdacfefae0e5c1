import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ApiRequestError, gymApi } from "./api.server";
import { safeRedirect } from "./redirect";
import { redirectForApiError } from "./session.server";
import { redirectWithToast, type ToastInput } from "./toast.server";
import { readForm } from "./forms.server";

/** What POST /api/organisations/{id}/switch answers (the gym switch's answer is not needed). */
type OrganisationSwitched = { current_organisation: { name: string } };

/** The top bar's two switchers (SPEC §2): the form field, the API call, and what the user is told. */
const KINDS = {
  organisation: {
    field: "organisation_id",
    path: "/organisations/:id/switch",
    failed: "Could not switch organisation",
    // A new organisation changes the whole page: say where the user now is.
    switched: (answer: unknown): ToastInput | null => ({ severity: "info", summary: `Now working in ${(answer as OrganisationSwitched).current_organisation.name}` }),
  },
  gym: {
    field: "gym_id",
    path: "/gyms/:id/switch",
    failed: "Could not switch gym",
    // The gym's name is in the switcher itself on the reloaded page.
    switched: (_answer: unknown): ToastInput | null => null,
  },
} as const;

/**
 * POST from a switcher, with or without JavaScript: make another of the user's organisations or gyms current,
 * then reload the page the user was on (`redirectTo`). An organisation or gym the user may not use is a toast,
 * not an error page.
 */
export async function switchAction(args: ActionFunctionArgs, kind: keyof typeof KINDS) {
  const { field, path, failed, switched } = KINDS[kind];
  const form = await readForm(args.request);
  const id = Number(form.get(field));
  const back = safeRedirect(form.get("redirectTo"));
  const api = gymApi(args);
  try {
    const answer = await api.post(path, { params: { id: Number.isInteger(id) && id > 0 ? id : 0 } });
    const toast = switched(answer);
    return toast ? redirectWithToast(back, toast, api.headers) : redirect(back, { headers: api.headers });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404) {
      return redirectWithToast(back, { severity: "error", summary: failed, detail: err.message });
    }
    redirectForApiError(args.request, err);
  }
}
