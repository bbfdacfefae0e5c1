import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { newGymRequest } from "../../../domain/schemas/gyms";
import { Field, FormErrors } from "../../components/field";
import { CheckboxField, TextAreaField } from "../../components/form-controls";

/**
 * /gyms/new (issue 32): a new location's name, address, bank account, logo and visit tracking. One multipart form,
 * so the logo goes with it without JavaScript too. The time zone is shown, not asked: every gym is on Auckland time.
 */
export function NewGymForm({ lastResult, pending }: { lastResult: SubmissionResult<string[]> | undefined; pending: boolean }) {
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(newGymRequest.innerType().innerType()),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newGymRequest }),
  });
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-6" noValidate>
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <legend className="px-1 font-semibold">The gym</legend>
        <Field field={fields.name} label="Name" inputProps={{ autoComplete: "off", autoFocus: true }} />
        <TextAreaField field={fields.address} label="Address" rows={3} />
        <div className="space-y-1 text-sm">
          <p className="font-medium text-slate-800">Time zone</p>
          <p className="text-slate-700">Pacific/Auckland: every gym&apos;s dates and times are shown in New Zealand time.</p>
        </div>
        <div className="space-y-1">
          <label htmlFor="new-gym-logo" className="block text-sm font-medium text-slate-800">
            Logo <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <input
            id="new-gym-logo"
            name="file"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            aria-describedby="new-gym-logo-hint"
            className="block text-sm"
          />
          <p id="new-gym-logo-hint" className="text-xs text-slate-600">
            JPEG, PNG or WebP up to 10 MB: shown in the sidebar and on the gym&apos;s sign-up pages.
          </p>
        </div>
        <CheckboxField field={fields.tracks_visits} label="Count door openings as visits" />
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2">
        <legend className="px-1 font-semibold">Bank account</legend>
        <p className="text-sm text-slate-700 sm:col-span-2">Where members&apos; payments at this gym go. You can add it later on the gym&apos;s settings.</p>
        <div className="sm:col-span-2">
          <Field field={fields.bank_account_name} label="Account name" />
        </div>
        <Field
          field={fields.bank_account_number}
          label="Account number"
          hint="For example 12-3140-0171323-50"
          inputProps={{ inputMode: "numeric", autoComplete: "off" }}
        />
        <Field field={fields.bank_account_number_confirmation} label="Account number again" inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
      </fieldset>
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white shadow-sm hover:bg-brand-800 focus:outline-none focus:ring-2 focus:ring-brand-500 focus:ring-offset-2 disabled:opacity-60"
        >
          Open the gym
        </button>
        <Link to="/gyms" className="text-sm font-medium text-brand-700 underline">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
