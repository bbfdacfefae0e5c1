import type { ReactNode } from "react";
import { controlClass } from "../../components/control-class";
import { describedBy, FieldError } from "../calendar/field-error";
import { colourClasses } from "./colours";

/**
 * The class pages' form controls (issue 34): plain inputs that post without JavaScript, each with its label, its
 * first error under it (aria-describedby) and the value the person typed when the form comes back with errors.
 */
export type Errors = Record<string, string[]> | undefined;

export function Input({
  name,
  label,
  value,
  errors,
  type = "text",
  hint,
  id = name,
  ...rest
}: {
  name: string;
  label: ReactNode;
  value: string;
  errors: Errors;
  type?: string;
  hint?: string;
  id?: string;
  min?: number;
  max?: number;
  step?: string;
  required?: boolean;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={value}
        className={type === "color" ? "h-10 w-20 rounded-md border border-slate-300 bg-white p-1" : controlClass(Boolean(errors?.[name]))}
        {...describedBy(errors, name)}
        {...rest}
      />
      {hint ? <p className="text-xs text-slate-600">{hint}</p> : null}
      <FieldError errors={errors} name={name} />
    </div>
  );
}

export function Select({
  name,
  label,
  value,
  errors,
  options,
  id = name,
}: {
  name: string;
  label: ReactNode;
  value: string;
  errors: Errors;
  options: { value: string | number; label: string }[];
  id?: string;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={controlClass(Boolean(errors?.[name]))} {...describedBy(errors, name)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError errors={errors} name={name} />
    </div>
  );
}

/** The form's message when the refusal names no field of it (a whole-form rule, or a field the form does not show). */
export function FormMessage({ result, fields }: { result?: { message: string; errors: Record<string, string[]> } | null; fields: string[] }) {
  if (!result) return null;
  const elsewhere = Object.entries(result.errors).filter(([k]) => !fields.includes(k));
  const onFields = Object.keys(result.errors).length > elsewhere.length;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {/* The API's message repeats a field's first error: the field shows that one under it. */}
      {onFields ? <p>Please check the highlighted fields.</p> : elsewhere.length ? null : <p>{result.message}</p>}
      {elsewhere.map(([k, v]) => (
        <p key={k}>{v[0]}</p>
      ))}
    </div>
  );
}

export const DAYS = [
  { value: 1, label: "Monday" },
  { value: 2, label: "Tuesday" },
  { value: 3, label: "Wednesday" },
  { value: 4, label: "Thursday" },
  { value: 5, label: "Friday" },
  { value: 6, label: "Saturday" },
  { value: 7, label: "Sunday" },
];

export function DayBoxes({ chosen, errors, idPrefix = "day" }: { chosen: string[]; errors: Errors; idPrefix?: string }) {
  return (
    <fieldset className="space-y-1" {...describedBy(errors, "days")}>
      <legend className="text-sm font-medium text-slate-800">Days</legend>
      <div className="flex flex-wrap gap-3">
        {DAYS.map((d) => (
          <label key={d.value} htmlFor={`${idPrefix}-${d.value}`} className="inline-flex items-center gap-1 text-sm">
            <input id={`${idPrefix}-${d.value}`} type="checkbox" name="days" value={d.value} defaultChecked={chosen.includes(String(d.value))} />
            {d.label.slice(0, 3)}
          </label>
        ))}
      </div>
      <FieldError errors={errors} name="days" />
    </fieldset>
  );
}

/** The colour swatch of a class type, beside its name. */
export function TypeDot({ colour }: { colour: string }) {
  return <span aria-hidden="true" className={`inline-block h-3 w-3 shrink-0 rounded-full ${colourClasses(colour).dot}`} />;
}
