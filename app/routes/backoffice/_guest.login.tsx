import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { loginSchema } from "../../../domain/schemas/auth";
import { AuthCard } from "../../components/auth-card";
import { Field, FormErrors, SubmitButton } from "../../components/field";
import { gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { safeRedirect } from "../../lib/redirect";

export const meta: MetaFunction = () => [{ title: "Sign in · Gym Membership" }];

const constraint = getZodConstraint(loginSchema);

export async function action(args: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(args.request), { schema: loginSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const api = gymApi(args);
  let result: { two_factor_required: boolean };
  try {
    result = await api.post("/login", { body: { email: submission.value.email, password: submission.value.password } });
  } catch (err) {
    return replyWithApiError(submission, err, { hideFields: ["password"] });
  }
  const next = safeRedirect(submission.value.redirect);
  const to = result.two_factor_required ? `/two-factor-authentication?${new URLSearchParams({ redirect: next })}` : next;
  return redirect(to, { headers: api.headers });
}

export default function Login() {
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  return (
    <AuthCard title="Sign in" intro="Staff sign-in for the back-office.">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="redirect" value={params.get("redirect") ?? ""} />
        <Field field={fields.email} label="E-mail" type="email" inputProps={{ autoComplete: "username", autoFocus: true }} />
        <Field field={fields.password} label="Password" type="password" hideValue inputProps={{ autoComplete: "current-password" }} />
        <SubmitButton pending={navigation.state === "submitting"}>Sign in</SubmitButton>
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link to="/forgot-password" className="font-medium text-brand-600 underline">
          Forgot your password?
        </Link>
      </p>
    </AuthCard>
  );
}
