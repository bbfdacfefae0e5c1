import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { CONFIDENCE_ANSWERS, CONFIDENCE_LABELS, HEAR_ABOUT_US_ANSWERS, HEAR_ABOUT_US_LABELS } from "../../../domain/member";
import { memberUpdateSchema, PERSON_FIELDS } from "../../../domain/schemas/members";
import { Field, FormErrors, SubmitButton } from "../../components/field";
import { CheckboxField, SelectField, TextAreaField } from "../../components/form-controls";
import type { MemberDetail } from "./detail-types";

/**
 * The edit form. Without JavaScript the server validates with the same schema and answers the form with
 * the user's values and the messages; the first field in error takes the focus (autoFocus when the page
 * is rendered by the server, an effect when the answer arrives by fetch).
 */
/** Shown read-only when another organisation holds the person: their own fields, the e-mail (their sign-in) too. */
const PERSON_TEXT = new Set<string>([...PERSON_FIELDS, "email"]);

export function MemberForm({
  member,
  gyms,
  lastResult,
  pending,
}: {
  member: MemberDetail;
  gyms: { id: number; name: string }[];
  lastResult: SubmissionResult<string[]> | undefined;
  pending: boolean;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(memberUpdateSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: memberUpdateSchema }),
    defaultValue: {
      ...Object.fromEntries(Object.entries(member).map(([k, v]) => [k, v ?? undefined])),
      tags: member.tags.join(", "),
      home_gym_id: member.home_gym ? String(member.home_gym.id) : undefined,
      email_notifications: member.email_notifications ? "on" : undefined,
      push_notifications: member.push_notifications ? "on" : undefined,
      payment_reminders: member.payment_reminders ? "on" : undefined,
    },
  });
  useEffect(() => {
    if (lastResult?.error) formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [lastResult]);
  const firstError = lastResult?.error ? Object.keys(lastResult.error).find((k) => lastResult.error?.[k]?.length) : undefined;
  // Someone another organisation also holds keeps their own details (decision 0048): shown, not editable here.
  const locked = member.details_held_elsewhere;
  const focus = (name: string) => ({ ...(firstError === name ? { autoFocus: true } : {}), ...(locked && PERSON_TEXT.has(name) ? { readOnly: true } : {}) });

  return (
    <Form method="post" {...getFormProps(form)} ref={formRef} className="space-y-6" noValidate>
      <FormErrors id={form.errorId} errors={form.errors} />
      {locked ? (
        <p className="rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900">
          This person also belongs to another organisation, so their own details (name, e-mail, phone, date of birth, address, emergency contact,
          preferences and photo) are theirs to change. Your notes, tags and home gym save here.
        </p>
      ) : null}
      <fieldset className="grid grid-cols-1 gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2">
        <legend className="px-1 font-semibold">Contact</legend>
        <Field field={fields.name} label="Name" inputProps={{ autoComplete: "off", ...focus("name") }} />
        <Field field={fields.email} label="E-mail" type="email" inputProps={{ autoComplete: "off", ...focus("email") }} />
        <Field field={fields.mobile_number} label="Mobile" type="tel" inputProps={focus("mobile_number")} />
        <div className="space-y-1">
          <Field field={fields.dob} label="Date of birth" inputProps={{ type: "date", ...focus("dob") } as object} />
        </div>
        <Field field={fields.address} label="Address" inputProps={focus("address")} />
        <Field field={fields.suburb} label="Suburb" inputProps={focus("suburb")} />
        <Field field={fields.city} label="City" inputProps={focus("city")} />
        <Field field={fields.post_code} label="Post code" inputProps={focus("post_code")} />
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3">
        <legend className="px-1 font-semibold">Emergency contact</legend>
        <Field field={fields.emergency_contact_name} label="Contact name" inputProps={focus("emergency_contact_name")} />
        <Field field={fields.emergency_contact_number} label="Contact phone" type="tel" inputProps={focus("emergency_contact_number")} />
        <Field field={fields.emergency_contact_relationship} label="Relationship" inputProps={focus("emergency_contact_relationship")} />
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2">
        <legend className="px-1 font-semibold">At this gym</legend>
        {gyms.length > 1 ? (
          <SelectField field={fields.home_gym_id} label="Home gym" placeholder="No home gym" options={gyms.map((g) => ({ value: String(g.id), label: g.name }))} />
        ) : (
          <input type="hidden" name={fields.home_gym_id.name} value={member.home_gym ? String(member.home_gym.id) : ""} />
        )}
        <Field field={fields.tags} label="Tags" hint="Separate tags with commas, such as student, early-bird." inputProps={focus("tags")} />
        <div className="sm:col-span-2">
          <TextAreaField field={fields.notes} label="Notes" />
        </div>
        <SelectField
          field={fields.confidence_and_experience}
          label="Gym experience"
          placeholder="Not answered"
          options={CONFIDENCE_ANSWERS.map((a) => ({ value: a, label: CONFIDENCE_LABELS[a] }))}
        />
        <SelectField field={fields.hear_about_us} label="Heard about us" placeholder="Not answered" options={HEAR_ABOUT_US_ANSWERS.map((a) => ({ value: a, label: HEAR_ABOUT_US_LABELS[a] }))} />
        <Field field={fields.hear_about_us_other} label="Heard about us: other" hint="Only when they chose Other." inputProps={focus("hear_about_us_other")} />
      </fieldset>
      <fieldset className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
        <legend className="px-1 font-semibold">Notifications</legend>
        <CheckboxField field={fields.email_notifications} label="E-mail notifications" />
        <CheckboxField field={fields.push_notifications} label="Push notifications" />
        <CheckboxField field={fields.payment_reminders} label="Payment reminders" />
      </fieldset>
      <div className="flex items-center gap-4">
        <div className="w-40">
          <SubmitButton pending={pending}>Save</SubmitButton>
        </div>
        <Link to=".." relative="path" className="text-sm font-medium text-brand-700 hover:underline">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
