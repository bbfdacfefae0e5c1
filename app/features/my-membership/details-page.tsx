import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "../../components/field";
import { MemberFrame } from "./member-frame";

type Details = {
  name: string;
  email: string;
  mobile_number: string | null;
  address: string | null;
  suburb: string | null;
  city: string | null;
  post_code: string | null;
  emergency_contact_name: string | null;
  emergency_contact_number: string | null;
  emergency_contact_relationship: string | null;
  email_notifications: boolean;
  push_notifications: boolean;
  payment_reminders: boolean;
};
type FormShape = Omit<Details, "email" | "email_notifications" | "push_notifications" | "payment_reminders"> & {
  email_notifications: string;
  push_notifications: string;
  payment_reminders: string;
};

function Choice({ field, label, hint }: { field: FieldMetadata<string>; label: string; hint: string }) {
  return (
    <div className="flex items-start gap-3">
      <input {...getInputProps(field, { type: "checkbox" })} key={field.key} className="mt-1 h-4 w-4 rounded border-slate-300" />
      <label htmlFor={field.id} className="text-sm text-slate-800">
        <span className="font-medium">{label}</span>
        <span className="block text-slate-600">{hint}</span>
      </label>
    </div>
  );
}

/** The member's own contact details, emergency contact and notification choices (issue 31), staff's rules. */
export function MyDetailsPage({
  details: d,
  constraint,
  lastResult,
}: {
  details: Details;
  constraint: ReturnType<typeof getZodConstraint>;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const busy = useNavigation().state === "submitting";
  const on = (v: boolean) => (v ? "on" : "");
  const [form, fields] = useForm<FormShape>({
    lastResult,
    constraint,
    shouldValidate: "onSubmit",
    defaultValue: {
      ...d,
      mobile_number: d.mobile_number ?? "",
      address: d.address ?? "",
      suburb: d.suburb ?? "",
      city: d.city ?? "",
      post_code: d.post_code ?? "",
      emergency_contact_name: d.emergency_contact_name ?? "",
      emergency_contact_number: d.emergency_contact_number ?? "",
      emergency_contact_relationship: d.emergency_contact_relationship ?? "",
      email_notifications: on(d.email_notifications),
      push_notifications: on(d.push_notifications),
      payment_reminders: on(d.payment_reminders),
    },
  });
  return (
    <MemberFrame back title="Your details">
      <Form method="post" {...getFormProps(form)} className="space-y-6 rounded-lg border border-slate-200 bg-white p-4">
        <FormErrors id={form.errorId} errors={form.errors} />
        <fieldset className="space-y-3">
          <legend className="text-base font-semibold text-slate-900">Contact</legend>
          <Field field={fields.name} label="Full name" inputProps={{ autoComplete: "name" }} />
          <p className="text-sm text-slate-700">
            E-mail: {d.email}. <span className="text-slate-600">It is how you sign in; to change it, ask the gym&apos;s staff.</span>
          </p>
          <Field field={fields.mobile_number} label="Mobile number" type="tel" inputProps={{ autoComplete: "tel" }} />
          <Field field={fields.address} label="Street address" inputProps={{ autoComplete: "address-line1" }} />
          <Field field={fields.suburb} label="Suburb (optional)" inputProps={{ autoComplete: "address-line2" }} />
          <div className="grid grid-cols-2 gap-3">
            <Field field={fields.city} label="Town or city" inputProps={{ autoComplete: "address-level2" }} />
            <Field field={fields.post_code} label="Postcode" inputProps={{ autoComplete: "postal-code", inputMode: "numeric" }} />
          </div>
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-base font-semibold text-slate-900">Emergency contact</legend>
          <Field field={fields.emergency_contact_name} label="Name" />
          <Field field={fields.emergency_contact_number} label="Phone number" type="tel" />
          <Field field={fields.emergency_contact_relationship} label="How they know you" />
        </fieldset>
        <fieldset id="notifications" className="space-y-3">
          <legend className="text-base font-semibold text-slate-900">What we send you</legend>
          <Choice
            field={fields.email_notifications}
            label="E-mails from the gym"
            hint="Receipts, changes to your membership, replies from staff and the gym's news. Sign-in codes and links you ask for always come."
          />
          <Choice field={fields.push_notifications} label="App notifications" hint="Messages from the gym in its app." />
          <Choice field={fields.payment_reminders} label="Payment reminders" hint="When a payment did not go through, and before your access stops because of it." />
        </fieldset>
        <SubmitButton pending={busy}>Save my details</SubmitButton>
      </Form>
    </MemberFrame>
  );
}
