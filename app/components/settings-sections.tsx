import { Form, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { controlClass } from "./control-class";

/** What a settings section's post came back with: its own errors and the values sent, so nothing typed is lost. */
export type SectionResult = { intent: string; errors: Record<string, string[]>; values: Record<string, string>; message?: string } | undefined;

/** One section of a settings page (/organisation/settings, /gyms/{id}/edit): a form of its own, saved on its own, with its own errors. */
export function SettingsSection({
  id,
  title,
  intent,
  children,
  result,
  submit = "Save",
  hint,
  files = false,
}: {
  id: string;
  title: string;
  intent: string;
  children: ReactNode;
  result: SectionResult;
  submit?: string;
  hint?: ReactNode;
  /** The section sends a file (multipart). */
  files?: boolean;
}) {
  const mine = result?.intent === intent ? result : undefined;
  // Drawn afresh after each save (a new location): what was typed, secrets included, does not linger in the fields.
  const { key } = useLocation();
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={`${id}-heading`} className="font-semibold">
        {title}
      </h2>
      {hint ? <p className="mt-1 text-sm text-slate-600">{hint}</p> : null}
      <Form key={key} method="post" encType={files ? "multipart/form-data" : undefined} className="mt-3 space-y-3" noValidate>
        <input type="hidden" name="intent" value={intent} />
        {mine?.message && !Object.keys(mine.errors).length ? (
          <p role="alert" className="text-sm text-red-700">
            {mine.message}
          </p>
        ) : null}
        {children}
        <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
          {submit}
        </button>
      </Form>
    </section>
  );
}

const errorOf = (result: SectionResult, intent: string, name: string) => (result?.intent === intent ? result.errors[name] : undefined);
const sentValue = (result: SectionResult, intent: string, name: string) => (result?.intent === intent ? result.values[name] : undefined);

/** A labelled control with its error: the control gets the id, aria-invalid and aria-describedby it should carry. */
function Setting({ intent, name, label, result, children }: { intent: string; name: string; label: string; result: SectionResult; children: (aria: Record<string, unknown>) => ReactNode }) {
  const errors = errorOf(result, intent, name);
  const id = `${intent}-${name}`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({ id, name, "aria-invalid": invalid || undefined, "aria-describedby": invalid ? `${id}-error` : undefined, className: controlClass(invalid) })}
      {invalid ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {errors![0]}
        </p>
      ) : null}
    </div>
  );
}

export function TextSetting({ result, intent, name, label, value, type = "text" }: { result: SectionResult; intent: string; name: string; label: string; value: string; type?: string }) {
  const shown = sentValue(result, intent, name) ?? value;
  return (
    <Setting intent={intent} name={name} label={label} result={result}>
      {(aria) => <input {...aria} type={type} defaultValue={shown} key={shown} autoFocus={Boolean(aria["aria-invalid"])} />}
    </Setting>
  );
}

/** Several lines of text (an organisation's membership terms). */
export function TextAreaSetting({ result, intent, name, label, value, rows = 6 }: { result: SectionResult; intent: string; name: string; label: string; value: string; rows?: number }) {
  const shown = sentValue(result, intent, name) ?? value;
  return (
    <Setting intent={intent} name={name} label={label} result={result}>
      {(aria) => <textarea {...aria} rows={rows} defaultValue={shown} key={shown} autoFocus={Boolean(aria["aria-invalid"])} />}
    </Setting>
  );
}

export function SelectSetting({ result, intent, name, label, value, options }: { result: SectionResult; intent: string; name: string; label: string; value: string; options: { value: string; label: string }[] }) {
  const shown = sentValue(result, intent, name) ?? value;
  return (
    <Setting intent={intent} name={name} label={label} result={result}>
      {(aria) => (
        <select {...aria} defaultValue={shown} key={shown}>
          <option value="">Choose</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Setting>
  );
}

export function FileSetting({ result, intent, name, label, accept }: { result: SectionResult; intent: string; name: string; label: string; accept: string }) {
  return (
    <Setting intent={intent} name={name} label={label} result={result}>
      {(aria) => <input {...aria} type="file" accept={accept} className="block w-full text-sm" />}
    </Setting>
  );
}

/** A switch: a checkbox. An unticked box sends nothing, which the API reads as off. */
export function SwitchSetting({ result, intent, name, label, on }: { result: SectionResult; intent: string; name: string; label: string; on: boolean }) {
  const errors = errorOf(result, intent, name);
  const id = `${intent}-${name}`;
  const sent = sentValue(result, intent, name);
  const checked = sent === undefined ? on : sent === "on";
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2">
        <input
          id={id}
          name={name}
          type="checkbox"
          defaultChecked={checked}
          key={String(checked)}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? `${id}-error` : undefined}
          className="h-4 w-4 rounded border-slate-300 text-brand-600"
        />
        <label htmlFor={id} className="text-sm text-slate-800">
          {label}
        </label>
      </div>
      {errors?.length ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}
