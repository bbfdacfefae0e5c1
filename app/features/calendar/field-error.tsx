/** A field's first error under it, named `${name}-error` for the field's aria-describedby. */
export function FieldError({ errors, name }: { errors?: Record<string, string[]>; name: string }) {
  const e = errors?.[name];
  return e ? (
    <p id={`${name}-error`} className="text-sm text-red-700">
      {e[0]}
    </p>
  ) : null;
}

/** aria-invalid and aria-describedby for a field with errors under `name`. */
export const describedBy = (errors: Record<string, string[]> | undefined, name: string) =>
  errors?.[name] ? { "aria-invalid": true as const, "aria-describedby": `${name}-error` } : {};
