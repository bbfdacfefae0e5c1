import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { KEY_AREA_NAMES, KEY_AREAS } from "../../../domain/api-key-scopes";
import { apiKeyCreateSchema } from "../../../domain/schemas/api-keys";
import { Field, FieldErrors, FormErrors } from "../../components/field";

const LEVELS = [
  { value: "none", label: "No access" },
  { value: "read", label: "Read" },
  { value: "write", label: "Read and write" },
] as const;

/** A new API key: its name, a level per area, and its requests a minute. Plain radios, so it works without scripts. */
export function ApiKeyForm({ lastResult, pending }: { lastResult: SubmissionResult<string[]> | undefined; pending: boolean }) {
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(apiKeyCreateSchema.innerType()),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: apiKeyCreateSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4" noValidate>
      <h2 className="text-lg font-semibold">Create an API key</h2>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name="intent" value="create" />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field field={fields.name} label="Name" hint="Who or what uses it, such as “Zapier” or “Our website”" inputProps={{ autoComplete: "off" }} />
        <Field
          field={fields.rate_limit_per_minute}
          label="Requests a minute"
          type="number"
          hint="10 to 6,000; past it the API answers 429 until the minute ends"
          inputProps={{ min: 10, max: 6000, placeholder: "600" }}
        />
      </div>
      <table className="w-full text-left text-sm">
        <caption className="pb-2 text-left text-sm text-slate-700">What the key may do, in every gym of the organisation</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-600">
            <th scope="col" className="py-2 pr-4 font-medium">
              Area
            </th>
            {LEVELS.map((l) => (
              <th key={l.value} scope="col" className="px-2 py-2 text-center font-medium">
                {l.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {KEY_AREA_NAMES.map((area) => {
            const field = fields[area];
            const chosen = (field.initialValue as string | undefined) ?? "none";
            return (
              <tr key={area} className="border-b border-slate-100">
                <th scope="row" className="py-2 pr-4 font-medium text-slate-800">
                  {KEY_AREAS[area].label}
                </th>
                {LEVELS.map((l) => (
                  <td key={l.value} className="px-2 py-2 text-center">
                    <input
                      {...getInputProps(field, { type: "radio", value: l.value })}
                      key={`${field.key}-${l.value}`}
                      defaultChecked={chosen === l.value}
                      aria-label={`${KEY_AREAS[area].label}: ${l.label}`}
                      className="h-4 w-4"
                    />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      <FieldErrors id={fields.members.errorId} errors={fields.members.errors} />
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white shadow-sm hover:bg-brand-800 focus:outline-none focus:ring-2 focus:ring-brand-500 focus:ring-offset-2 disabled:opacity-60"
      >
        Create key
      </button>
    </Form>
  );
}
