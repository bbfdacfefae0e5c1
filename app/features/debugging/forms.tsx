import { Form } from "@remix-run/react";
import { controlClass } from "../../components/control-class";

/** A labelled control with its error under it, for the debug pages' GET forms (they change nothing and work without JavaScript). */
export function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const invalidProps = (id: string, error?: string) => ({ "aria-invalid": Boolean(error) || undefined, "aria-describedby": error ? `${id}-error` : undefined });

export function DateInput({ id, name, value, error }: { id: string; name: string; value: string; error?: string }) {
  return <input key={value} id={id} name={name} type="date" defaultValue={value} required className={controlClass(Boolean(error))} {...invalidProps(id, error)} />;
}

export function SubmitRow({ label }: { label: string }) {
  return (
    <div className="flex items-end">
      <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
        {label}
      </button>
    </div>
  );
}

export { Form };
