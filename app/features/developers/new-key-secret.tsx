import { CopyButton } from "../../components/copy-button";

/** The new key, shown once: the page that answers the form is the only place it ever appears. */
export function NewKeySecret({ name, secret }: { name: string; secret: string }) {
  return (
    <section role="status" aria-labelledby="new-key-heading" className="space-y-2 rounded-lg border border-green-300 bg-green-50 p-4 text-sm">
      <h2 id="new-key-heading" className="text-base font-semibold text-green-900">
        {name} is ready: copy its key now
      </h2>
      <p className="text-green-900">This is the only time it is shown. Keep it somewhere safe, such as your integration&apos;s secret settings.</p>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="new-key-secret" className="sr-only">
          The new API key
        </label>
        <input id="new-key-secret" readOnly value={secret} className="w-full max-w-md rounded-md border border-green-300 bg-white px-3 py-2 font-mono text-slate-900" />
        <CopyButton text={secret} label="Copy the new API key" />
      </div>
    </section>
  );
}
