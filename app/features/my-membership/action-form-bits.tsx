import type { ReactNode } from "react";
import { FieldErrors, FormErrors } from "../../components/field";

/**
 * What a member's action page (pause, cancel) reads from its action's answer without a form library on the phone
 * (issue 30's sign-up budget): conform's reply as the server wrote it: the values sent, the errors per field, and
 * the form's own.
 */
export type Reply = { initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> | null } | undefined;

export const sent = (reply: Reply, name: string) => {
  const v = reply?.initialValue?.[name];
  return Array.isArray(v) ? v.map(String) : v == null ? undefined : String(v);
};
export const errorsOf = (reply: Reply, name: string) => reply?.error?.[name] ?? undefined;

export function FormProblems({ reply }: { reply: Reply }) {
  const errors = [...(reply?.error?.[""] ?? []), ...(reply?.error?._ ?? [])];
  return <FormErrors id="form-errors" errors={errors.length ? errors : undefined} />;
}

export function DateField({ name, label, min, reply, hint }: { name: string; label: string; min: string; reply: Reply; hint?: string }) {
  const errors = errorsOf(reply, name);
  return (
    <div className="space-y-1">
      <label htmlFor={name} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint ? <p className="text-xs text-slate-600">{hint}</p> : null}
      <input
        id={name}
        name={name}
        type="date"
        min={min}
        required
        defaultValue={(sent(reply, name) as string | undefined) ?? ""}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? `${name}-error` : undefined}
        className="block w-full rounded-md border border-slate-300 px-3 py-2 text-base"
      />
      <FieldErrors id={`${name}-error`} errors={errors} />
    </div>
  );
}

/** Where a member is sent when their gym keeps an action to itself. */
export function AskTheGym({ children }: { children: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
      <p>{children}</p>
    </section>
  );
}
