import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { Form, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { registerSchema } from "../../../domain/schemas/auth";
import { AuthCard } from "../../components/auth-card";
import { Field, FormErrors, SubmitButton } from "../../components/field";

const EMAIL_TAKEN_HINT = "An account with this e-mail address already exists. Sign in instead.";

/** The sign-up host's first page. With JavaScript the e-mail is checked with /api/unique-email as you leave it. */
export function RegisterPage({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [emailTaken, setEmailTaken] = useState(false);
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(registerSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: registerSchema }),
  });

  useEffect(() => {
    const input = document.getElementById(fields.email.id) as HTMLInputElement | null;
    if (!input) return;
    const check = async () => {
      const email = input.value.trim();
      if (!email || !input.checkValidity()) return setEmailTaken(false);
      const res = await fetch("/api/unique-email", {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
        body: JSON.stringify({ email }),
      }).catch(() => null);
      const body = res?.ok ? await res.json() : null;
      setEmailTaken(body ? !body.data.unique : false);
    };
    input.addEventListener("blur", check);
    return () => input.removeEventListener("blur", check);
  }, [fields.email.id]);

  const emailErrors = fields.email.errors ?? (emailTaken ? [EMAIL_TAKEN_HINT] : undefined);
  return (
    <AuthCard
      title="Join the gym"
      intro="Create your account. Next we e-mail you a code to check your address."
      footer={
        <span>
          Already a member? Ask the gym's staff for help signing in.
        </span>
      }
    >
      <Form method="post" action="/?index" {...getFormProps(form)} className="space-y-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <input type="hidden" name="gym" value={params.get("gym") ?? ""} />
        <Field field={fields.name} label="Full name" inputProps={{ autoComplete: "name", autoFocus: true }} />
        <Field field={fields.email} errors={emailErrors} label="E-mail" type="email" inputProps={{ autoComplete: "email" }} />
        <Field field={fields.mobile_number} label="Mobile number" type="tel" inputProps={{ autoComplete: "tel" }} />
        <Field
          field={fields.password}
          label="Password"
          type="password"
          hideValue
          hint="At least 8 characters. A few unrelated words make a strong password."
          inputProps={{ autoComplete: "new-password" }}
        />
        {/* Honeypot: hidden from people and screen readers; bots that fill every field give themselves away. */}
        <div aria-hidden="true" className="absolute left-[-10000px] h-px w-px overflow-hidden">
          <label htmlFor="website">Website</label>
          <input id="website" name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <SubmitButton pending={navigation.state === "submitting"}>Create account</SubmitButton>
      </Form>
    </AuthCard>
  );
}
