import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { setPasswordSchema } from "../../../domain/schemas/auth";
import { AuthCard } from "../../components/auth-card";
import { Field, FormErrors, SubmitButton } from "../../components/field";
import { ApiRequestError, gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { redirectWithToast } from "../../lib/toast.server";

/**
 * /reset-password (from a reset e-mail) and /set-password (from an invite): the link is checked with
 * POST /api/validate-link before the form shows, and used once by POST /api/reset-password.
 */
export async function setPasswordLoader(args: LoaderFunctionArgs) {
  const token = new URL(args.request.url).searchParams.get("token") ?? "";
  if (!token) return { token, link: null, problem: "This page needs the link from your e-mail. Open the link in the e-mail again, or ask for a new one." };
  try {
    const link = await gymApi(args).post("/validate-link", { body: { token } });
    return { token, link, problem: null };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500) return { token, link: null, problem: err.message };
    throw err;
  }
}

export async function setPasswordAction(args: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(args.request), { schema: setPasswordSchema });
  const hide = { hideFields: ["password", "password_confirmation"] };
  if (submission.status !== "success") return data(submission.reply(hide), { status: 400 });
  const api = gymApi(args);
  try {
    await api.post("/reset-password", { body: submission.value });
  } catch (err) {
    return replyWithApiError(submission, err, hide);
  }
  return redirectWithToast("/login", { severity: "success", summary: "Password saved", detail: "Sign in with your new password." }, api.headers);
}

export function SetPasswordPage({ title }: { title: string }) {
  const { token, link, problem } = useLoaderData<typeof setPasswordLoader>();
  const lastResult = useActionData<typeof setPasswordAction>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(setPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: setPasswordSchema }),
  });
  if (!link) {
    return (
      <AuthCard title={title}>
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
        <p className="mt-4 text-center text-sm">
          <Link to="/forgot-password" className="font-medium text-brand-600 underline">
            Send me a new link
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title} intro={`For ${link.email}. Use at least 8 characters; a few unrelated words make a strong password.`}>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="token" value={token} />
        <input type="email" name="username" value={link.email} autoComplete="username" readOnly hidden />
        {link.needs_name ? <Field field={fields.name} label="Your name" inputProps={{ autoComplete: "name", autoFocus: true, required: true }} /> : null}
        <Field field={fields.password} label="New password" type="password" hideValue inputProps={{ autoComplete: "new-password", autoFocus: !link.needs_name }} />
        <Field field={fields.password_confirmation} label="Repeat the password" type="password" hideValue inputProps={{ autoComplete: "new-password" }} />
        <SubmitButton pending={navigation.state === "submitting"}>Save password</SubmitButton>
      </Form>
    </AuthCard>
  );
}
