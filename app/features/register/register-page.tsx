import { getFormProps, useForm } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { z } from "zod";
import type { registerSchema } from "../../../domain/schemas/auth";
import { GYM_MESSAGES } from "../../../domain/schemas/messages";
import type { PublicGymWithPrice } from "./types";
import { formatCents } from "../../../domain/money";
import { AuthCard } from "../../components/auth-card";
import { Field, FormErrors, SubmitButton } from "../../components/field";
import { GymChooser, GymLogo } from "./gym-chooser";
import type { GymChoice } from "./register.server";

const EMAIL_TAKEN_HINT = "An account with this e-mail address already exists. Sign in instead.";

/**
 * The sign-up host's first page: the register form for the gym the link names, or the list of gyms to choose
 * from first. A form posted without a gym (an integrator's that left it out) comes back to the list, saying why.
 */
export function RegisterPage({
  choice,
  constraint,
  lastResult,
}: {
  choice: GymChoice;
  constraint: Constraint;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  if (choice.gym) return <RegisterForm gym={choice.gym} link={choice.link} constraint={constraint} lastResult={lastResult} />;
  const gymRefused = Boolean(lastResult?.error?.gym?.length);
  const notice = choice.unknownGym ? GYM_MESSAGES.unknown : gymRefused ? "Choose the gym you are joining first, then fill in the form again." : undefined;
  return <GymChooser gyms={choice.gyms} notice={notice} />;
}

/** The form's HTML constraints, worked out from the schema by the loader (register.server.ts). */
type Constraint = ReturnType<typeof getZodConstraint>;

/**
 * The schema is checked by the action alone (zod stays out of the browser): a refused post comes back with the
 * person's values and the messages, with or without JavaScript. With JavaScript the e-mail is also checked with
 * /api/unique-email as you leave it.
 */
function RegisterForm({
  gym,
  link,
  constraint,
  lastResult,
}: {
  gym: PublicGymWithPrice;
  link: string | null;
  constraint: Constraint;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  // The address the unique-e-mail check found taken (as the person leaves the field).
  const [takenEmail, setTakenEmail] = useState<string | null>(null);
  // No onValidate, so only submitting checks: conform would post every blur to the action to check it there.
  const [form, fields] = useForm<z.input<typeof registerSchema>>({ lastResult, constraint, shouldValidate: "onSubmit" });

  useEffect(() => {
    const input = document.getElementById(fields.email.id) as HTMLInputElement | null;
    if (!input) return;
    const check = async () => {
      const email = input.value.trim();
      if (!email || !input.checkValidity()) return setTakenEmail(null);
      const res = await fetch("/api/unique-email", {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
        body: JSON.stringify({ email }),
      }).catch(() => null);
      const body = res?.ok ? await res.json() : null;
      setTakenEmail(body && !body.data.unique ? email : null);
    };
    input.addEventListener("blur", check);
    // An address typed before the page's scripts arrived (they come after the first paint) is checked at once.
    if (input.value && document.activeElement !== input) void check();
    return () => input.removeEventListener("blur", check);
  }, [fields.email.id]);

  const emailErrors = fields.email.errors ?? (takenEmail ? [EMAIL_TAKEN_HINT] : undefined);
  // Taken, by the check or by the server's answer to the post: the way to sign in instead (issue 31).
  const signInAs = takenEmail ?? (fields.email.errors?.includes(EMAIL_TAKEN_HINT) ? fields.email.value ?? "" : null);
  return (
    <AuthCard
      badge={<GymLogo gym={gym} size="lg" />}
      title={`Join ${gym.name}`}
      intro={
        <>
          <p>Create your account with {gym.organisation.name}. Next we e-mail you a code to check your address.</p>
          {gym.price ? (
            <p className="mt-2 rounded-md bg-brand-50 px-3 py-2 text-slate-800" data-testid="chosen-price">
              Joining on <strong>{gym.price.offering}</strong>: {formatCents(gym.price.amount)} {gym.price.frequency_label.toLowerCase()}
              {gym.price.term ? ` (${gym.price.term})` : ""}. You can change it before you confirm.
            </p>
          ) : null}
          <p className="mt-2">
            Not your gym?{" "}
            <Link to="/" className="font-medium text-brand-700 underline">
              Choose another
            </Link>
          </p>
        </>
      }
      footer={
        <span>
          Already a member or part way through joining?{" "}
          <Link to="/sign-in" className="font-medium text-brand-700 underline">
            Sign in
          </Link>
        </span>
      }
    >
      {/* The gym stays in the address after a refused post, so the page still shows it without JavaScript. */}
      <Form
        method="post"
        action={`/?${new URLSearchParams({
          index: "",
          gym: gym.uuid,
          ...(gym.price && !link ? { price: String(gym.price.id) } : {}),
          ...(link ? { link } : {}),
        })}`}
        {...getFormProps(form)}
        className="space-y-4"
      >
        <FormErrors id={form.errorId} errors={[...(form.errors ?? []), ...(fields.gym.errors ?? [])]} />
        <input type="hidden" name="gym" value={gym.uuid} />
        {/* What the link named goes with the account, so every later step (and a return days later) keeps it. */}
        {gym.price && !link ? <input type="hidden" name="price" value={gym.price.id} /> : null}
        {link ? <input type="hidden" name="link" value={link} /> : null}
        <Field field={fields.name} label="Full name" inputProps={{ autoComplete: "name", autoFocus: true }} />
        <Field field={fields.email} errors={emailErrors} label="E-mail" type="email" inputProps={{ autoComplete: "email" }} />
        {signInAs !== null ? (
          <p className="-mt-2 text-sm">
            <Link to={`/sign-in?${new URLSearchParams(signInAs ? { email: signInAs } : {})}`} className="font-medium text-brand-700 underline">
              Sign in instead
            </Link>
          </p>
        ) : null}
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
