import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { apiPath, ApiRequestError, gymApi } from "../lib/api.server";
import { requireApp } from "../lib/host.server";
import { nextSignupStep } from "../lib/session.server";
import { redirectWithToast } from "../lib/toast.server";

/**
 * Arriving from the back-office signed in as a member: redeem the one-time token for a session on this
 * host, then go to the next sign-up step.
 */
export async function loader(args: LoaderFunctionArgs) {
  requireApp(args.request, "signup");
  const token = new URL(args.request.url).searchParams.get("token") ?? "";
  const api = gymApi(args);
  try {
    await api.post(apiPath`/session/claim`, { token });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500) {
      return redirectWithToast("/", { severity: "warn", summary: "That sign-in link has expired", detail: err.message });
    }
    throw err;
  }
  throw redirect(nextSignupStep(args.request), { headers: api.headers });
}
