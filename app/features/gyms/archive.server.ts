import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { gymRoute } from "./gym-route.server";

/** The gym page's Archive / Restore (issue 32): the API's answer, or its reason (the last open gym), as a toast. */
export async function archiveAction(args: ActionFunctionArgs, intent: "archive" | "restore") {
  const { id, api } = gymRoute(args);
  const back = `/gyms/${id}`;
  try {
    const gym = intent === "archive" ? await api.delete("/gyms/:id/archive", { params: { id } }) : await api.post("/gyms/:id/restore", { params: { id } });
    return redirectWithToast(back, { summary: intent === "archive" ? "Gym archived" : "Gym restored", detail: gym.name }, api.headers);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 409)
      return redirectWithToast(back, { severity: "error", summary: "Not archived", detail: err.message, life: 10_000 }, api.headers);
    redirectForApiError(args.request, err);
  }
}
