import type { ImportedState, ImportSummary } from "../../../domain/imports";

const STATUS = {
  draft: ["Not started", "bg-slate-100 text-slate-700 ring-slate-300"],
  queued: ["Waiting to start", "bg-amber-50 text-amber-900 ring-amber-200"],
  running: ["Importing", "bg-blue-50 text-blue-800 ring-blue-200"],
  done: ["Done", "bg-green-50 text-green-800 ring-green-200"],
  failed: ["Stopped", "bg-red-50 text-red-800 ring-red-200"],
} as const;

export function ImportStatus({ status }: { status: keyof typeof STATUS }) {
  const [label, style] = STATUS[status];
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style}`}>{label}</span>;
}

/** A dry run's or an import's counts, as a row of figures. */
export function Counts({ items }: { items: [string, number][] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map(([label, n]) => (
        <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
          <dt className="text-xs font-medium text-slate-600">{label}</dt>
          <dd className="text-xl font-semibold tabular-nums">{n.toLocaleString("en-NZ")}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The rows in error, with why (the first ones; the rest are in the rejected rows file after the import). */
export function ErrorRows({ summary }: { summary: ImportSummary }) {
  if (!summary.errors) return null;
  return (
    <section aria-labelledby="errors-heading" className="space-y-2">
      <h2 id="errors-heading" className="font-semibold">
        Rows with errors ({summary.errors.toLocaleString("en-NZ")})
      </h2>
      {summary.errors > summary.error_rows.length ? <p className="text-sm text-slate-600">The first {summary.error_rows.length} are shown.</p> : null}
      <div className="max-h-96 overflow-auto rounded-lg border border-slate-200 bg-white">
        <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-4 py-2 font-semibold">Row</th>
              <th scope="col" className="px-4 py-2 font-semibold">E-mail</th>
              <th scope="col" className="px-4 py-2 font-semibold">Why</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {summary.error_rows.map((e) => (
              <tr key={e.line}>
                <td data-label="Row" className="px-4 py-2 tabular-nums">{e.line}</td>
                <td data-label="E-mail" className="px-4 py-2">{e.email || "—"}</td>
                <td data-label="Why" className="px-4 py-2">{e.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The good rows by the status the file gives them, and what the import does with each. */
export function StateCounts({ states, labels }: { states: Record<ImportedState, number>; labels: Record<ImportedState, string> }) {
  return (
    <section aria-labelledby="states-heading" className="space-y-2">
      <h2 id="states-heading" className="font-semibold">
        By membership status
      </h2>
      <Counts items={(Object.keys(labels) as ImportedState[]).map((k) => [labels[k], states[k]])} />
      <p className="text-sm text-slate-700">
        Active and paused members join on their plan&apos;s price when they set up how to pay; the import starts no membership and charges nobody.
        Cancelled members are kept as former members, with no price to join on, and get no invitation. Paused and cancelled members are tagged
        &ldquo;imported as paused&rdquo; or &ldquo;imported as cancelled&rdquo;, so you can find them in the members list.
      </p>
    </section>
  );
}

/** The first good rows as they will be read: a wrong date order shows here. */
export function SampleRows({ summary, states }: { summary: ImportSummary; states: Record<ImportedState, string> }) {
  if (!summary.sample.length) return null;
  return (
    <section aria-labelledby="sample-heading" className="space-y-2">
      <h2 id="sample-heading" className="font-semibold">
        How the first rows will be read
      </h2>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-4 py-2 font-semibold">Row</th>
              <th scope="col" className="px-4 py-2 font-semibold">Name</th>
              <th scope="col" className="px-4 py-2 font-semibold">E-mail</th>
              <th scope="col" className="px-4 py-2 font-semibold">Date of birth</th>
              <th scope="col" className="px-4 py-2 font-semibold">Joined on</th>
              {summary.states ? <th scope="col" className="px-4 py-2 font-semibold">Status</th> : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {summary.sample.map((s) => (
              <tr key={s.line}>
                <td data-label="Row" className="px-4 py-2 tabular-nums">{s.line}</td>
                <td data-label="Name" className="px-4 py-2">{s.member.name}</td>
                <td data-label="E-mail" className="px-4 py-2">{s.member.email}</td>
                <td data-label="Date of birth" className="px-4 py-2">{s.member.dob ? longDate(s.member.dob) : "—"}</td>
                <td data-label="Joined on" className="px-4 py-2">{s.member.joined_on ? longDate(s.member.joined_on) : "—"}</td>
                {summary.states ? <td data-label="Status" className="px-4 py-2">{states[s.member.state]}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** "1990-12-31" → "31 December 1990": written out, so day and month cannot be mistaken for each other. */
export function longDate(iso: string) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString("en-NZ", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}
