import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { FieldErrors } from "./field";

/** Select, textarea and checkbox wired to conform the way Field wires an input: label, aria-invalid, aria-describedby. */
const controlClass = (invalid: boolean) =>
  `block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm focus:outline-none focus:ring-2 ${
    invalid ? "border-red-500 focus:ring-red-300" : "border-slate-300 focus:ring-brand-100 focus:border-brand-500"
  }`;

type AnyField = FieldMetadata<any, any, string[]>;
const describedBy = (field: AnyField, invalid: boolean) => (invalid ? field.errorId : undefined);

export function SelectField({ field, label, options, placeholder }: { field: AnyField; label: ReactNode; options: { value: string; label: string }[]; placeholder: string }) {
  const invalid = Boolean(field.errors?.length);
  const { key, ...props } = getSelectProps(field);
  return (
    <div className="space-y-1">
      <label htmlFor={field.id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select key={key} {...props} aria-invalid={invalid || undefined} aria-describedby={describedBy(field, invalid)} className={controlClass(invalid)}>
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function TextAreaField({ field, label, rows = 4 }: { field: AnyField; label: ReactNode; rows?: number }) {
  const invalid = Boolean(field.errors?.length);
  const { key, ...props } = getTextareaProps(field);
  return (
    <div className="space-y-1">
      <label htmlFor={field.id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea key={key} {...props} rows={rows} aria-invalid={invalid || undefined} aria-describedby={describedBy(field, invalid)} className={controlClass(invalid)} />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function CheckboxField({ field, label }: { field: AnyField; label: ReactNode }) {
  const { key, ...props } = getInputProps(field, { type: "checkbox" });
  return (
    <div className="flex items-center gap-2">
      <input key={key} {...props} className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500" />
      <label htmlFor={field.id} className="text-sm text-slate-800">
        {label}
      </label>
    </div>
  );
}
