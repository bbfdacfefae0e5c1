import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { twoFactorSchema } from "../../../domain/schemas/auth";
import { Field, FormErrors, SubmitButton } from "../../components/field";

/** The e-mailed code form with its "send a new code" button: shared by staff two-factor and member verification. */
export function CodeForm({ lastResult, email, redirect }: { lastResult?: SubmissionResult<string[]> | null; email?: string; redirect?: string }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "code",
    lastResult,
    constraint: getZodConstraint(twoFactorSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: twoFactorSchema }),
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
