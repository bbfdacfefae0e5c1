import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { gymApi } from "../../lib/api.server";
import { appFor } from "../../lib/host.server";
import { redirectWithToast } from "../../lib/toast.server";

/** Logout is a POST: end the session, then the sign-in page of the host it happened on. */
export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  await api.post("/logout");
  const to = appFor(args.request) === "signup" ? "/sign-in" : "/login";
  return redirectWithToast(to, { severity: "info", summary: "You have been signed out." }, api.headers);
}

/** Signing out needs a POST (a link could be triggered by another site); a GET just goes home. */
export function loader() {
  return redirect("/");
}
