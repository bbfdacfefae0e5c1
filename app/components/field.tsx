import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";

/** A labelled input wired to conform: label, aria-invalid, aria-describedby and the field's errors. */
export function Field({
  field,
  label,
  type = "text",
  hint,
  inputProps,
  hideValue,
  errors = field.errors,
}: {
  field: FieldMetadata<any, any, string[]>;
  label: ReactNode;
  type?: "text" | "email" | "password" | "tel" | "number";
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  /** Passwords are never sent back into the page. */
  hideValue?: boolean;
  /** Errors found outside the schema (an address already taken), shown as the field's own. */
  errors?: string[];
}) {
  // Each read of a conform field builds its metadata afresh: read what the markup needs once.
  const { id, errorId } = field;
  const hintId = hint ? `${id}-hint` : undefined;
  const props = getInputProps(field, { type, value: !hideValue, ariaDescribedBy: hintId });
  const invalid = Boolean(errors?.length);
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        {...props}
        {...inputProps}
        key={props.key}
        aria-invalid={invalid || undefined}
        aria-describedby={[hintId, invalid ? errorId : null].filter(Boolean).join(" ") || undefined}
        className={`block w-full rounded-md border px-3 py-2 text-slate-900 shadow-sm focus:outline-none focus:ring-2 read-only:bg-slate-50 read-only:text-slate-600 ${
          invalid ? "border-red-500 focus:ring-red-300" : "border-slate-300 focus:ring-brand-100 focus:border-brand-500"
        }`}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div id={id} className="min-h-[1rem] text-sm text-red-700" aria-live="polite">
      {errors?.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/** Messages that belong to the whole form (a throttle, an expired link). */
export function FormErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return <div id={id} />;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

export function SubmitButton({ children, pending, ...rest }: { children: ReactNode; pending?: boolean } & InputHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="submit"
      {...(rest as object)}
      disabled={pending}
      className="inline-flex w-full items-center justify-center rounded-md bg-brand-600 px-4 py-2 font-semibold text-white shadow-sm hover:bg-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-500 focus:ring-offset-2 disabled:opacity-60"
    >
      {children}
    </button>
  );
}
