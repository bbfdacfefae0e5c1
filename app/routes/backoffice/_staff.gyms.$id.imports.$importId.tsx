import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { readForm } from "../../lib/forms.server";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import type { ColumnTarget, ImportField } from "../../../domain/imports";
import { formatCents } from "../../../domain/money";
import { controlClass } from "../../components/control-class";
import { Counts, ErrorRows, ImportStatus, SampleRows, StateCounts } from "../../features/imports/import-parts";
import { importsRoute } from "../../features/imports/import-route.server";
import { orRefusal } from "../../features/members/member-route.server";
import { ApiRequestError } from "../../lib/api.server";
import { idParam } from "../../lib/params.server";
import { redirectForApiError } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.imp.filename ?? "Import"} · Member import · Gym Membership` }];

export async function loader(args: LoaderFunctionArgs) {
  const { api, gymId, gymName } = await importsRoute(args);
  const id = idParam(args.params, "importId");
  const [imp, prices] = await orRefusal(args.request, Promise.all([api.get("/imports/:id", { params: { id } }), api.get("/imports/:id/prices", { params: { id } })]));
  if (imp.gym_id !== gymId) throw redirect(`/gyms/${imp.gym_id}/imports/${imp.id}`);
  // Before the first check the plans come from the file itself (matches guessed at upload), so the check already counts them.
  const plans = imp.summary?.plans ?? (imp.status === "draft" ? (await orRefusal(args.request, api.get("/imports/:id/plans", { params: { id } }))).data : []);
  return { gymId, gymName, imp, prices: prices.data, plans };
}

type Result = { message: string; errors: Record<string, string[]> };

/** The page's buttons: check (save the settings and dry-run), import, discard, invite. */
export async function action(args: ActionFunctionArgs) {
  const { api, gymId } = await importsRoute(args);
  const id = idParam(args.params, "importId");
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");
  const here = `/gyms/${gymId}/imports/${id}`;
  try {
    if (intent === "check" || intent === "confirm") {
      const mapping = form.getAll("mapping").map(String) as ColumnTarget[];
      const names = form.getAll("plan_name").map(String);
      const chosen = form.getAll("plan_price").map(String);
      // Without plan rows on the page (the file has no plan column), the matches so far stay.
      const plans = names.length ? Object.fromEntries(names.flatMap((n, i) => (chosen[i] === "" || chosen[i] === undefined ? [] : [[n, Number(chosen[i])]]))) : undefined;
      const saved = await api.put("/imports/:id", {
        params: { id },
        body: { mapping, date_order: String(form.get("date_order") ?? "") as "dmy", plans, import_errors: form.get("import_errors") === "on", invite: form.get("invite") === "on" },
      });
      if (intent === "check") return redirect(`${here}#check-heading`, { headers: api.headers });
      if (saved.summary) await api.post("/imports/:id/confirm", { params: { id } });
      return redirectWithToast(here, { summary: "Import started", detail: "You can leave this page: it carries on." }, api.headers);
    }
    if (intent === "discard") {
      await api.delete("/imports/:id", { params: { id } });
      return redirectWithToast(`/gyms/${gymId}/imports`, { summary: "Import discarded" }, api.headers);
    }
    if (intent === "invite") {
      const sent = await api.post("/imports/:id/invite", { params: { id } });
      return redirectWithToast(here, { summary: sent.invited ? `${sent.invited} invitations sent` : "Nobody left to invite", detail: sent.invited ? "Each has a link to set a password, valid for seven days." : undefined }, api.headers);
    }
    return data<Result>({ message: "That button is not one of this page's. Reload the page and try again.", errors: {} }, { status: 400 });
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    return data<Result>({ message: err.message, errors: err.errors ?? {} }, { status: err.status >= 500 ? 503 : err.status });
  }
}

/** While the job runs: a bar that moves with JavaScript (the page re-reads itself), a page that reloads itself without. */
function Progress({ percent, processed, total }: { percent: number; processed: number; total: number }) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => state === "idle" && revalidate(), 1500);
    return () => clearInterval(timer);
  }, [revalidate, state]);
  return (
    <section aria-labelledby="progress-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <noscript>
        <meta httpEquiv="refresh" content="3" />
      </noscript>
      <h2 id="progress-heading" className="font-semibold">
        Importing
      </h2>
      <progress value={processed} max={total} aria-labelledby="progress-heading" className="h-3 w-full">
        {percent}%
      </progress>
      <p className="text-sm text-slate-700">
        {processed.toLocaleString("en-NZ")} of {total.toLocaleString("en-NZ")} rows ({percent}%). You can leave this page: the import carries on.
      </p>
    </section>
  );
}

export default function ImportPage() {
  const { gymId, gymName, imp, prices, plans } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const s = imp.summary;
  const fields = Object.entries(imp.fields) as [ImportField, string][];
  const working = imp.status === "queued" || imp.status === "running";
  return (
    <div className="max-w-5xl space-y-4">
      <p className="text-sm">
        <Link to={`/gyms/${gymId}/imports`} className="text-brand-700 hover:underline">
          {gymName}: member imports
        </Link>
      </p>
      <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold">
        {imp.filename} <ImportStatus status={imp.status} />
      </h1>
      <p className="text-sm text-slate-700">{imp.row_count.toLocaleString("en-NZ")} rows</p>
      {result?.message ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {result.message}
        </p>
      ) : null}

      {working ? <Progress {...imp.progress} /> : null}

      {imp.status === "done" || imp.status === "failed" ? (
        <section aria-labelledby="outcome-heading" className="space-y-3">
          <h2 id="outcome-heading" className="font-semibold">
            {imp.status === "done" ? "Imported" : "Stopped"}
          </h2>
          {imp.error ? <p className="text-sm text-red-800">{imp.error}</p> : null}
          <Counts
            items={[
              ["Created", imp.created_count],
              ["Updated", imp.updated_count],
              ["Already up to date", imp.unchanged_count],
              ["Invited to join", imp.invited_to_join_count],
              ["Not imported", imp.rejected_count],
            ]}
          />
          {imp.invited_to_join_count ? (
            <p className="text-sm text-slate-700">
              Invited to join: they already have an account with another organisation, so we e-mailed each an invitation. They appear in your members
              when they accept it.
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Link to="/members" className="rounded-md bg-white px-4 py-2 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
              See the members
            </Link>
            {imp.rejected_count ? (
              <a href={`/gyms/${gymId}/imports/${imp.id}/rejected`} className="rounded-md bg-white px-4 py-2 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
                Download the rows not imported (CSV)
              </a>
            ) : null}
          </div>
          {imp.status === "done" ? (
            <Form method="post" className="rounded-lg border border-slate-200 bg-white p-4">
              <input type="hidden" name="intent" value="invite" />
              <p className="text-sm text-slate-700">
                {imp.invited_count ? `${imp.invited_count.toLocaleString("en-NZ")} invitations sent. ` : ""}Invite the members this import brought who have not set a password: each gets a link to set one, then chooses how to pay.
              </p>
              <button type="submit" className="mt-3 rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                Send invitations
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}

      {imp.status === "draft" ? (
        <Form method="post" className="space-y-4" noValidate>
          <section aria-labelledby="columns-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="columns-heading" className="font-semibold">
              Match the columns
            </h2>
            <p className="text-sm text-slate-600">We guessed from the column names. Each column goes to one member field, or is ignored.</p>
            {result?.errors.mapping ? <p className="text-sm text-red-700">{result.errors.mapping[0]}</p> : null}
            <div className="overflow-x-auto">
              <table className="stack-table min-w-full divide-y divide-slate-200 text-sm">
                <thead className="text-left text-slate-700">
                  <tr>
                    <th scope="col" className="px-2 py-2 font-semibold">Column</th>
                    <th scope="col" className="px-2 py-2 font-semibold">First rows</th>
                    <th scope="col" className="px-2 py-2 font-semibold">Member field</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {imp.headers.map((h, i) => (
                    <tr key={i}>
                      <td data-label="Column" data-title="" className="px-2 py-2 font-medium">
                        <label htmlFor={`mapping-${i}`}>{h || `Column ${i + 1}`}</label>
                      </td>
                      <td data-label="First rows" className="px-2 py-2 text-slate-600">
                        {imp.preview.map((row) => row[i]).filter(Boolean).join(" · ") || "—"}
                      </td>
                      <td data-label="Member field" className="px-2 py-2">
                        <select id={`mapping-${i}`} name="mapping" defaultValue={imp.mapping[i]} className={controlClass(Boolean(result?.errors.mapping))}>
                          <option value="ignore">Ignore</option>
                          {fields.map(([k, label]) => (
                            <option key={k} value={k}>
                              {label}
                            </option>
                          ))}
                        </select>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="max-w-sm space-y-1">
              <label htmlFor="date_order" className="block text-sm font-medium text-slate-800">
                Dates in the file
              </label>
              <select id="date_order" name="date_order" defaultValue={imp.date_order} className={controlClass(false)}>
                {Object.entries(imp.date_orders).map(([k, label]) => (
                  <option key={k} value={k}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
          </section>

          {plans.length ? (
            <section aria-labelledby="plans-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="plans-heading" className="font-semibold">
                Match the plans to your prices
              </h2>
              <p className="text-sm text-slate-600">
                Members join on the price chosen here when they set up how to pay. {s ? "" : "We matched the plans whose names are like your offerings': check each. "}A plan
                left unmatched makes its rows errors; skip a plan to import its members without a membership.
              </p>
              {plans.map((p, j) => (
                <div key={p.name} className="flex flex-wrap items-center gap-3">
                  <input type="hidden" name="plan_name" value={p.name} />
                  <label htmlFor={`plan-${j}`} className="w-56 text-sm">
                    {p.name} <span className="text-slate-600">({p.count.toLocaleString("en-NZ")})</span>
                  </label>
                  <select id={`plan-${j}`} name="plan_price" defaultValue={p.price_id === null ? "" : String(p.price_id)} className={`${controlClass(false)} max-w-md`}>
                    <option value="">Not matched</option>
                    <option value="0">Skip: no membership yet</option>
                    {prices.map((pr) => (
                      <option key={pr.id} value={pr.id}>
                        {pr.offering}: {formatCents(pr.amount)} {pr.billing_frequency.replace("_", " ")}
                      </option>
                    ))}
                  </select>
                </div>
              ))}
            </section>
          ) : null}

          <section aria-labelledby="options-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="options-heading" className="font-semibold">
              Options
            </h2>
            <div className="flex items-center gap-2">
              <input id="import_errors" name="import_errors" type="checkbox" defaultChecked={imp.import_errors} aria-invalid={result?.errors.import_errors ? true : undefined} aria-describedby={result?.errors.import_errors ? "import_errors-error" : undefined} className="h-4 w-4" />
              <label htmlFor="import_errors" className="text-sm">
                Import the good rows even if some have errors
              </label>
            </div>
            {result?.errors.import_errors ? (
              <p id="import_errors-error" className="text-sm text-red-700">
                {result.errors.import_errors[0]}
              </p>
            ) : null}
            <div className="flex items-center gap-2">
              <input id="invite" name="invite" type="checkbox" defaultChecked={imp.invite} className="h-4 w-4" />
              <label htmlFor="invite" className="text-sm">
                When it is done, e-mail the new members an invitation to set a password and choose how to pay
              </label>
            </div>
          </section>

          <div className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value="check" disabled={pending} className="rounded-md bg-white px-4 py-2 text-sm font-semibold text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
              Check the file
            </button>
            {s ? (
              <button type="submit" name="intent" value="confirm" disabled={pending} className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
                Import {(s.create + s.update).toLocaleString("en-NZ")} members
              </button>
            ) : null}
            <button type="submit" name="intent" value="discard" formNoValidate className="rounded-md px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50">
              Discard
            </button>
          </div>
        </Form>
      ) : null}

      {s && imp.status === "draft" ? (
        <section aria-labelledby="check-heading" className="space-y-4">
          <h2 id="check-heading" className="text-lg font-semibold">
            What the import will do
          </h2>
          <Counts
            items={[
              ["New members", s.create],
              ["Updated (matched by e-mail)", s.update],
              ["Already up to date", s.unchanged],
              ["Invited to join (they have an account elsewhere)", s.invite ?? 0],
              ["Rows with errors", s.errors],
            ]}
          />
          {s.states ? <StateCounts states={s.states} labels={imp.states} /> : null}
          <SampleRows summary={s} states={imp.states} />
          <ErrorRows summary={s} />
        </section>
      ) : null}
    </div>
  );
}
