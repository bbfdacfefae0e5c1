import { data, redirect } from "@remix-run/node";
import type { AnswerOf } from "./api-contract";
import { type ApiContext, ApiRequestError, gymApi, type GymApi } from "./api.server";
import { appFor, originOf } from "./host.server";
import { nextSignupStep as nextStep, signupRedirect, type SignupProgress } from "../../domain/signup";

/** The signed-in user as GET /api/me returns it (SPEC §3). */
export type Me = AnswerOf<"get", "/me">;

export type MeState = { state: "ok"; me: Me } | { state: "anonymous" } | { state: "unverified" };

export async function fetchMe(api: GymApi): Promise<MeState> {
  // No cookie, no session: a first visit to the login page costs no API call (and no 401).
  if (!api.hasCookies) return { state: "anonymous" };
  try {
    return { state: "ok", me: await api.get("/me") };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 400 && err.error === "not_two_factor_authenticated") return { state: "unverified" };
    if (err instanceof ApiRequestError && err.status === 401) return { state: "anonymous" };
    throw err;
  }
}

const here = (request: Request) => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

export const loginUrl = (request: Request) => `/login?${new URLSearchParams({ redirect: here(request) })}`;

/**
 * Where a signed-in member belongs: the next unfinished sign-up step (SPEC §2; domain/signup.ts). Without the
 * member at hand (just verified, just handed over), /next-steps reads them and sends them on.
 */
export function nextSignupStep(request: Request, me?: SignupProgress) {
  return `${originOf(request, "signup")}/${me ? nextStep(me) : "next-steps"}`;
}

/**
 * The navigation guards of SPEC §2, run in loaders on the server. Each answers the redirect a person
 * in that state should get, or null when they may stay.
 */
export function guardStaffPage(request: Request, s: MeState): string | null {
  if (s.state === "anonymous") return loginUrl(request);
  if (s.state === "unverified") return "/two-factor-authentication";
  // A member belongs on the sign-up host: the handoff page carries the session there.
  if (!s.me.is_staff) return "/session-handoff";
  return null;
}

export function guardGuestPage(s: MeState): string | null {
  return s.state === "ok" && s.me.is_staff ? "/dashboard" : null;
}

/**
 * The guest pages open on both hosts (the privacy policy, contact us; SPEC §2): staff already signed in go to the
 * dashboard, as from the back-office's other guest pages. Everyone else reads them, members during sign-up too.
 */
export async function leaveIfSignedInStaff(args: ApiContext) {
  if (guardGuestPage(await fetchMe(gymApi(args)))) throw redirect(`${originOf(args.request, "backoffice")}/dashboard`);
}

export function guardSignupPage(request: Request, s: MeState): string | null {
  if (s.state === "anonymous") return "/";
  if (s.state === "unverified") return "/verification-code?twoFactorAuth=1";
  if (s.me.is_staff) return `${originOf(request, "backoffice")}/dashboard`;
  return null;
}

/**
 * For a sign-up step's loader and action: the member and an API client, or a redirect thrown, to sign in, to the
 * back-office for staff, or to the step they belong on (domain/signup.ts: nobody skips ahead; once the membership
 * stands, the welcome page). `step`: the step a resource route serves (its own path is not one).
 */
export async function requireSignupStep(args: ApiContext, step: string = new URL(args.request.url).pathname) {
  const api = gymApi(args);
  const s = await fetchMe(api);
  const to = guardSignupPage(args.request, s) ?? signupRedirect(step, (s as { me: Me }).me);
  if (to) throw redirect(to, { headers: api.headers });
  return { me: (s as { me: Me }).me, api };
}

/**
 * For a staff page's loader: the user and an API client, or a redirect thrown. With `othersNotFound`
 * (an address no page claims), anyone but staff gets the plain 404 instead of being sent to sign in:
 * there is nothing there to sign in for.
 */
export async function requireStaff(args: ApiContext, { othersNotFound = false } = {}) {
  const api = gymApi(args);
  const s = await fetchMe(api);
  const to = guardStaffPage(args.request, s);
  if (to) throw othersNotFound ? data({ message: "Not found" }, { status: 404, headers: api.headers }) : redirect(to, { headers: api.headers });
  return { me: (s as { me: Me }).me, api };
}

/**
 * A data call on a guarded page may still find the session gone (expired between requests):
 * send the person where the guard would.
 */
export function redirectForApiError(request: Request, err: unknown): never {
  if (err instanceof ApiRequestError) {
    const signup = appFor(request) === "signup";
    if (err.status === 401) throw redirect(signup ? "/" : loginUrl(request));
    // A check-in kiosk (issue 32): the API answers it nothing else, so it goes back to its page.
    if (err.status === 403 && err.error === "kiosk_mode" && !signup) throw redirect("/kiosk");
    if (err.status === 400 && err.error === "not_two_factor_authenticated") {
      throw redirect(signup ? "/verification-code?twoFactorAuth=1" : "/two-factor-authentication");
    }
    // Not found (another organisation's record looks the same), not allowed, and any other refusal the page did
    // not handle itself (a body too large, say): the error page with the API's status and message, not a 500.
    if (err.status >= 400 && err.status < 500) throw new Response(err.message, { status: err.status });
  }
  throw err;
}
