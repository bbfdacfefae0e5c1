import type { LoaderFunctionArgs } from "@remix-run/node";
import { importsRoute } from "../../features/imports/import-route.server";
import { idParam } from "../../lib/params.server";
import { redirectForApiError } from "../../lib/session.server";

/** GET /gyms/{id}/imports/{importId}/rejected: the rows not imported, with why, as the API writes them (a download). */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await importsRoute(args);
  try {
    const res = await api.raw("get", "/imports/:id/rejected", { params: { id: idParam(args.params, "importId") } });
    return new Response(res.body, {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": res.headers.get("content-disposition") ?? 'attachment; filename="rejected.csv"', "Cache-Control": "no-store" },
    });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}
