import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { registerSchema } from "../../../domain/schemas/auth";
import { gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { fetchMe, guardSignupPage, nextSignupStep } from "../../lib/session.server";

/** Signed-in people do not see the register form: they go to their next step (SPEC §2). */
export async function registerLoader(args: LoaderFunctionArgs) {
  const s = await fetchMe(gymApi(args));
  if (s.state === "anonymous") return null;
  throw redirect(guardSignupPage(args.request, s) ?? nextSignupStep(args.request));
}

/** Creates the member (POST /api/register), signs them in and asks for the e-mailed code. */
export async function registerAction(args: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(args.request), { schema: registerSchema });
  const hide = { hideFields: ["password", "website"] };
  if (submission.status !== "success") return data(submission.reply(hide), { status: 400 });
  const api = gymApi(args);
  try {
    await api.post("/register", { body: submission.value });
  } catch (err) {
    return replyWithApiError(submission, err, hide);
  }
  return redirect("/verification-code", { headers: api.headers });
}
