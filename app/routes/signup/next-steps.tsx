import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { gymApi } from "../../lib/api.server";
import { fetchMe, guardSignupPage, nextSignupStep, type Me } from "../../lib/session.server";

/** Where a member is sent when the page sending them does not know their progress: on to their next step. */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const s = await fetchMe(api);
  throw redirect(guardSignupPage(args.request, s) ?? nextSignupStep(args.request, (s as { me: Me }).me), { headers: api.headers });
}
