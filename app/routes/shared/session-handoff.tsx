import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { AuthCard } from "../../components/auth-card";
import { SubmitButton } from "../../components/field";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { appFor, originOf } from "../../lib/host.server";
import { fetchMe, guardStaffPage, nextSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { readForm } from "../../lib/forms.server";

export const meta: MetaFunction = () => [
  { title: "Continue to sign-up · Gym Membership" },
  // Our pages send no Referer, and so a null Origin, to other sites (entry.server.tsx); the sign-up host must
  // see this page's origin to accept its post. A meta tag, as the page may be reached without a document load.
  { name: "referrer", content: "origin" },
];

/**
 * A member signed in on the back-office belongs on the sign-up host, which has cookies of its own. The
 * back-office page makes a one-minute, single-use token for this session and posts it to the sign-up host,
 * which redeems it for a session there. A POST, accepted from a back-office origin only (see
 * app/lib/same-origin.server.ts): a GET link anyone could send would sign a victim into the sender's account.
 */
export async function loader(args: LoaderFunctionArgs) {
  // On the sign-up host a GET signs nobody in.
  if (appFor(args.request) === "signup") throw redirect("/");
  const api = gymApi(args);
  const s = await fetchMe(api);
  if (s.state !== "ok" || s.me.is_staff) throw redirect(guardStaffPage(args.request, s) ?? "/dashboard", { headers: api.headers });
  // Made from this browser's own session, never taken from the URL: no link can hand it someone else's.
  const { token } = await api.post("/session/handoff");
  return { token, to: `${originOf(args.request, "signup")}/session-handoff` };
}

/** The page holds a one-time token: never kept in a cache. */
export const headers: HeadersFunction = ({ parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  headers.set("Cache-Control", "no-store");
  return headers;
};

export async function action(args: ActionFunctionArgs) {
  // A shared route: only the sign-up host takes this post (the back-office's is not a page of its app).
  if (appFor(args.request) !== "signup") throw data({ message: "Not found" }, { status: 404 });
  const form = await readForm(args.request);
  const api = gymApi(args);
  try {
    await api.post("/session/claim", { body: { token: String(form.get("token") ?? "") } });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500) {
      return redirectWithToast("/", { severity: "warn", summary: "That sign-in link has expired", detail: err.message });
    }
    throw err;
  }
  throw redirect(nextSignupStep(args.request), { headers: api.headers });
}

export default function SessionHandoff() {
  const { token, to } = useLoaderData<typeof loader>();
  const form = useRef<HTMLFormElement>(null);
  // With JavaScript the page carries on by itself; without, the button does.
  useEffect(() => form.current?.submit(), []);
  return (
    <AuthCard title="You're signed in" intro="Your membership continues on the sign-up site.">
      <form ref={form} method="post" action={to} className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <SubmitButton>Continue</SubmitButton>
      </form>
    </AuthCard>
  );
}
