import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { data, redirect } from "@remix-run/node";
import { twoFactorSchema } from "../../../domain/schemas/auth";
import { type ApiContext, ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { redirectWithToast } from "../../lib/toast.server";

/** The code field's HTML constraints, for a page that sends them to CodeFormView as data rather than load zod. */
export const codeConstraint = getZodConstraint(twoFactorSchema);

/** Handles both forms of the code page: verify the code, or send a new one. */
export async function codeAction(args: ApiContext, onVerified: (form: FormData) => string, signedOut: string) {
  const form = await readForm(args.request);
  const api = gymApi(args);
  const submission = parseWithZod(form, { schema: twoFactorSchema });
  try {
    if (form.get("intent") === "resend") {
      await api.post("/email/resend");
      const here = new URL(args.request.url);
      return redirectWithToast(here.pathname + here.search, { severity: "info", summary: "We sent a new code.", detail: "Check your e-mail." }, api.headers);
    }
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    await api.post("/email/verify", { body: { code: submission.value.code } });
    return redirect(onVerified(form), { headers: api.headers });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) throw redirect(signedOut);
    return replyWithApiError(submission, err);
  }
}
