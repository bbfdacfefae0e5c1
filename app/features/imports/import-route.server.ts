import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { gymApi } from "../../lib/api.server";
import { idParam } from "../../lib/params.server";
import { orRefusal } from "../members/member-route.server";

/** What every /gyms/{id}/imports… route starts with: the back-office host, the gym (for its name), the API client. */
export async function importsRoute(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const api = gymApi(args);
  const gymId = idParam(args.params, "id");
  const me = await orRefusal(args.request, api.get("/me"));
  const gym = me.gyms.find((g) => g.id === gymId);
  if (!gym) throw new Response("No such gym.", { status: 404 });
  return { api, gymId, gymName: gym.name };
}
