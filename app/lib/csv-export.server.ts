import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiRequestError, gymApi } from "./api.server";
import { readForm } from "./forms.server";
import { redirectForApiError } from "./session.server";
import { redirectWithToast } from "./toast.server";

/**
 * A list page's Export button (members, payments, visits): the API's CSV passed through as it streams, so the
 * browser's own download handles it with or without JavaScript. Filters the API cannot use go back to the list
 * with a message.
 */
export async function passCsvThrough(args: ActionFunctionArgs, path: "/members/export" | "/payments/export" | "/visits/export", list: string) {
  const form = Object.fromEntries([...(await readForm(args.request))].filter(([, v]) => typeof v === "string")) as Record<string, string>;
  try {
    const res = await gymApi(args).raw("post", path, { body: form });
    return new Response(res.body, {
      headers: {
        "Content-Type": res.headers.get("content-type") ?? "text/csv; charset=utf-8",
        "Content-Disposition": res.headers.get("content-disposition") ?? `attachment; filename="${list.slice(1)}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) {
      return redirectWithToast(`${list}?${new URLSearchParams(form)}`, { severity: "error", summary: "Could not export", detail: err.message });
    }
    redirectForApiError(args.request, err);
  }
}
