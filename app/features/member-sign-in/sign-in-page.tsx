import { getFormProps, useForm } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { AuthCard } from "../../components/auth-card";
import { Field, FormErrors, SubmitButton } from "../../components/field";
import type { SignInResult } from "./sign-in.server";

type Constraint = ReturnType<typeof getZodConstraint>;

/**
 * The sign-up host's sign-in for members (issue 31): their password, or a link by e-mail for those who never set
 * one or forgot it. Two plain forms that work without JavaScript; the action's answer says which one it is for.
 */
export function MemberSignInPage({
  email,
  result,
  constraints,
}: {
  email: string;
  result?: SignInResult;
  constraints: { password: Constraint; link: Constraint };
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const [passwordForm, passwordFields] = useForm<{ email: string; password: string }>({
    id: "password-sign-in",
    lastResult: result?.intent === "password" ? result.reply : undefined,
    constraint: constraints.password,
    shouldValidate: "onSubmit",
    defaultValue: { email },
  });
  const [linkForm, linkFields] = useForm<{ email: string }>({
    id: "link-sign-in",
    lastResult: result?.intent === "link" ? result.reply : undefined,
    constraint: constraints.link,
    shouldValidate: "onSubmit",
    defaultValue: { email },
  });
  return (
    <AuthCard
      title="Sign in"
      intro="For members: see your membership, or carry on with your sign-up where you left it."
      footer={<span>Staff sign in on the back-office.</span>}
    >
      <Form method="post" {...getFormProps(passwordForm)} className="space-y-4">
        <input type="hidden" name="intent" value="password" />
        <FormErrors id={passwordForm.errorId} errors={passwordForm.errors} />
        <Field field={passwordFields.email} label="E-mail" type="email" inputProps={{ autoComplete: "username", autoFocus: !email }} />
        <Field
          field={passwordFields.password}
          label="Password"
          type="password"
          hideValue
          inputProps={{ autoComplete: "current-password", autoFocus: Boolean(email) }}
        />
        <SubmitButton pending={pending === "password"}>Sign in</SubmitButton>
      </Form>

      <section aria-labelledby="link-heading" className="mt-8 border-t border-slate-200 pt-6">
        <h2 id="link-heading" className="text-base font-semibold text-slate-900">
          No password, or forgotten it?
        </h2>
        <p className="mt-1 text-sm text-slate-600">We can e-mail you a link that signs you in. It works once, for 15 minutes.</p>
        <Form method="post" {...getFormProps(linkForm)} className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="link" />
          <FormErrors id={linkForm.errorId} errors={linkForm.errors} />
          {result?.sent ? (
            <p role="status" className="rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-800">
              {result.sent}
            </p>
          ) : null}
          <Field field={linkFields.email} label="E-mail for the link" type="email" inputProps={{ autoComplete: "email" }} />
          <button
            type="submit"
            disabled={pending === "link"}
            className="inline-flex w-full items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 shadow-sm hover:bg-slate-50 focus:outline-none focus:ring-2 focus:ring-brand-500 focus:ring-offset-2 disabled:opacity-60"
          >
            E-mail me a sign-in link
          </button>
        </Form>
      </section>
    </AuthCard>
  );
}
