import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { gymApi } from "../../lib/api.server";
import { idParam } from "../../lib/params.server";
import { redirectForApiError } from "../../lib/session.server";

/**
 * What every /members/{id}/… route starts with: the back-office host, the member's id from the path (the 404
 * page unless it is a plain positive integer) and the API client.
 */
export function memberRoute(args: LoaderFunctionArgs | ActionFunctionArgs) {
  return { id: idParam(args.params, "id"), api: gymApi(args) };
}

/**
 * The page's reads; an API refusal becomes the page the guards would show: sign-in, the code page, or the
 * error page with its status (another organisation's member is a 404 like a missing one).
 */
export async function orRefusal<T>(request: Request, reads: Promise<T>): Promise<T> {
  try {
    return await reads;
  } catch (err) {
    redirectForApiError(request, err);
  }
}

const REFUSED = { edit: "Only admins can change a member's details.", delete: "Only admins can delete members." };

/** The member, for a page that changes them: the 403 page unless the user may (`can`, from the API). */
export async function memberToChange(args: LoaderFunctionArgs, change: "edit" | "delete") {
  const { id, api } = memberRoute(args);
  const member = await orRefusal(args.request, api.get("/members/:id", { params: { id } }));
  if (!member.can[change]) throw new Response(REFUSED[change], { status: 403 });
  return member;
}
