import { getFormProps, useForm } from "@conform-to/react";
import type { Submission, SubmissionResult } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "../../components/field";

export interface CodeFormProps {
  lastResult?: SubmissionResult<string[]> | null;
  email?: string;
  redirect?: string;
}

/**
 * The e-mailed code form with its "send a new code" button, without zod: the HTML constraints come in as data and,
 * without `onValidate`, the action alone checks the code. The sign-up host's page uses it so (its JavaScript budget,
 * issue 30), with the constraint from its loader (code-action.server.ts); the back-office's goes through code-form.tsx.
 */
export function CodeFormView({
  lastResult,
  email,
  redirect,
  constraint,
  onValidate,
}: CodeFormProps & { constraint: ReturnType<typeof getZodConstraint>; onValidate?: (formData: FormData) => Submission<{ code: string }, string[]> }) {
  const navigation = useNavigation();
  const [form, fields] = useForm<{ code: string }>({
    id: "code",
    lastResult,
    constraint,
    shouldValidate: "onSubmit",
    onValidate: onValidate && (({ formData }) => onValidate(formData)),
  });
  const intent = navigation.formData?.get("intent");
  return (
    <>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        {redirect ? <input type="hidden" name="redirect" value={redirect} /> : null}
        <Field
          field={fields.code}
          label="Code"
          hint={email ? `We sent a 6-digit code to ${email}. It works for 10 minutes.` : "We sent a 6-digit code to your e-mail. It works for 10 minutes."}
          inputProps={{ inputMode: "numeric", autoComplete: "one-time-code", maxLength: 6, autoFocus: true, pattern: "[0-9]{6}" }}
        />
        <SubmitButton name="intent" value="verify" pending={navigation.state === "submitting" && intent === "verify"}>
          Continue
        </SubmitButton>
      </Form>
      <Form method="post" className="mt-4 text-center text-sm">
        <button
          type="submit"
          name="intent"
          value="resend"
          className="font-medium text-brand-600 underline disabled:opacity-60"
          disabled={navigation.state === "submitting" && intent === "resend"}
        >
          Send a new code
        </button>
      </Form>
    </>
  );
}
