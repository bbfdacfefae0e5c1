import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { gymApi } from "../../lib/api.server";
import { fetchMe, guardSignupPage, nextSignupStep, type Me } from "../../lib/session.server";

/**
 * Where a member is sent when the page sending them does not know their progress (just signed in, just verified,
 * handed over from the back-office): on to their next step, or, once their membership stands, to their membership
 * page (issue 31), not to the welcome page they saw the day they joined.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = gymApi(args);
  const s = await fetchMe(api);
  const me = (s as { me: Me }).me;
  throw redirect(guardSignupPage(args.request, s) ?? (me.membership_confirmed ? "/membership" : nextSignupStep(args.request, me)), { headers: api.headers });
}
