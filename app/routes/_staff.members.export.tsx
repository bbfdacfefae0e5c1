import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiRequestError, gymApi } from "../lib/api.server";
import { requireApp } from "../lib/host.server";
import { redirectForApiError } from "../lib/session.server";
import { redirectWithToast } from "../lib/toast.server";
import { readForm } from "../lib/forms.server";

/**
 * POST /members/export: the list page's Export button. Passes the API's CSV through as it streams, so the
 * browser's own download handles it with or without JavaScript.
 */
export async function action(args: ActionFunctionArgs) {
  requireApp(args.request, "backoffice");
  const form = Object.fromEntries([...(await readForm(args.request))].filter(([, v]) => typeof v === "string"));
  try {
    const res = await gymApi(args).raw("post", "/members/export", { body: form });
    return new Response(res.body, {
      headers: {
        "Content-Type": res.headers.get("content-type") ?? "text/csv; charset=utf-8",
        "Content-Disposition": res.headers.get("content-disposition") ?? 'attachment; filename="members.csv"',
        "Cache-Control": "no-store",
      },
    });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) {
      const back = new URLSearchParams(form as Record<string, string>);
      return redirectWithToast(`/members?${back}`, { severity: "error", summary: "Could not export", detail: err.message });
    }
    redirectForApiError(args.request, err);
  }
}
