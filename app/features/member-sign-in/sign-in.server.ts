import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect } from "@remix-run/node";
import { loginSchema, signInLinkSchema, validateLinkSchema } from "../../../domain/schemas/auth";
import { type ApiContext, ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { fetchMe, guardSignupPage, nextSignupStep } from "../../lib/session.server";

/**
 * A member's sign-in on the sign-up host (issue 31): a password, or a link e-mailed to them. The fields' HTML
 * constraints go to the page as data, so no sign-up page loads zod (issue 30's budget); the action checks.
 */
export const passwordConstraint = getZodConstraint(loginSchema);
export const linkConstraint = getZodConstraint(signInLinkSchema);

/** A member already signed in goes on to where they belong; staff to the back-office. */
export async function leaveIfSignedIn(args: ApiContext) {
  const api = gymApi(args);
  const s = await fetchMe(api);
  if (s.state === "ok") throw redirect(guardSignupPage(args.request, s) ?? nextSignupStep(args.request, s.me), { headers: api.headers });
}

export type SignInResult = { intent: "password" | "link"; reply: SubmissionResult<string[]>; sent?: string };

export async function signInAction(args: ApiContext) {
  const form = await readForm(args.request);
  const api = gymApi(args);
  if (form.get("intent") === "link") {
    const submission = parseWithZod(form, { schema: signInLinkSchema });
    if (submission.status !== "success") return data<SignInResult>({ intent: "link", reply: submission.reply() }, { status: 400 });
    try {
      const { message } = await api.post("/login-link", { body: submission.value });
      // The address stays in the box: the person sees where the link went.
      return data<SignInResult>({ intent: "link", reply: submission.reply(), sent: message });
    } catch (err) {
      return withIntent("link", replyWithApiError(submission, err));
    }
  }
  const submission = parseWithZod(form, { schema: loginSchema });
  if (submission.status !== "success")
    return data<SignInResult>({ intent: "password", reply: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  try {
    const result = await api.post("/login", { body: { email: submission.value.email, password: submission.value.password } });
    // A new device: the e-mailed code first, then the next step (verification-code's action).
    throw redirect(result.two_factor_required ? "/verification-code?twoFactorAuth=1" : nextSignupStep(args.request), { headers: api.headers });
  } catch (err) {
    if (err instanceof Response) throw err;
    return withIntent("password", replyWithApiError(submission, err, { hideFields: ["password"] }));
  }
}

/** replyWithApiError's answer, marked with the form it belongs to. */
function withIntent(intent: SignInResult["intent"], answer: ReturnType<typeof replyWithApiError>) {
  return data<SignInResult>({ intent, reply: answer.data }, answer.init ?? undefined);
}

/** The e-mailed link's page: whose link it is, or why it no longer works. */
export async function checkLink(args: ApiContext) {
  const token = new URL(args.request.url).searchParams.get("token") ?? "";
  const parsed = validateLinkSchema.safeParse({ token });
  if (!parsed.success) return { token: null, problem: "This sign-in link is not complete. Ask for a new one." };
  try {
    const link = await gymApi(args).post("/login-link/check", { body: { token } });
    return { token, email: link.email, name: link.name, problem: null };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500) return { token: null, problem: err.message };
    throw err;
  }
}

export async function claimLinkAction(args: ApiContext) {
  const form = await readForm(args.request);
  const api = gymApi(args);
  try {
    await api.post("/login-link/claim", { body: { token: String(form.get("token") ?? "") } });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500) return data({ problem: err.message }, { status: err.status });
    throw err;
  }
  throw redirect(nextSignupStep(args.request), { headers: api.headers });
}
