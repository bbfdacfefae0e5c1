import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { forgotPasswordSchema } from "../../../domain/schemas/auth";
import { AuthCard } from "../../components/auth-card";
import { Field, FormErrors, SubmitButton } from "../../components/field";
import { gymApi } from "../../lib/api.server";
import { readForm, replyWithApiError } from "../../lib/forms.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Forgot password · Gym Membership" }];

export async function action(args: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(args.request), { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const api = gymApi(args);
  let answer: { message: string };
  try {
    answer = await api.post("/forgot-password", { body: submission.value });
  } catch (err) {
    return replyWithApiError(submission, err);
  }
  return redirectWithToast("/login", { severity: "info", summary: "Check your e-mail", detail: answer.message, life: 10000 });
}

export default function ForgotPassword() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(forgotPasswordSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });
  return (
    <AuthCard title="Forgot your password?" intro="Enter your e-mail address and we will send you a link to choose a new one.">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.email} label="E-mail" type="email" inputProps={{ autoComplete: "email", autoFocus: true }} />
        <SubmitButton pending={navigation.state === "submitting"}>Send the link</SubmitButton>
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link to="/login" className="font-medium text-brand-600 underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
