import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { gymApi } from "../../lib/api.server";
import { idParam } from "../../lib/params.server";
import { orRefusal } from "../members/member-route.server";

/** What every /gyms/{id}… route starts with: the back-office host, the gym's id and the API client. */
export function gymRoute(args: LoaderFunctionArgs | ActionFunctionArgs) {
  return { id: idParam(args.params, "id"), api: gymApi(args) };
}

/** The gym, or the page the API's refusal calls for (404 another organisation's, 403 one the user does not run). */
export async function loadGym(args: LoaderFunctionArgs) {
  const { id, api } = gymRoute(args);
  return orRefusal(args.request, api.get("/gyms/:id", { params: { id } }));
}
