import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { readForm } from "../../lib/forms.server";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { importsRoute } from "../../features/imports/import-route.server";
import { controlClass } from "../../components/control-class";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError } from "../../lib/session.server";

export const meta: MetaFunction = () => [{ title: "New member import · Gym Membership" }];

export async function loader(args: LoaderFunctionArgs) {
  const { gymId, gymName } = await importsRoute(args);
  return { gymId, gymName };
}

type Result = { errors: Record<string, string[]>; message: string; pasted: string };

/** The file (or pasted text) to the API, which reads its header and guesses the columns; then its page. */
export async function action(args: ActionFunctionArgs) {
  const { api, gymId } = await importsRoute(args);
  const form = await readForm(args.request);
  const file = form.get("file");
  const pasted = String(form.get("csv") ?? "");
  try {
    let created;
    if (file instanceof Blob && file.size > 0) {
      const body = new FormData();
      body.set("file", file, (file as File).name || "upload.csv");
      created = (await (await api.raw("post", "/gyms/:id/imports", { params: { id: gymId }, body })).json()).data as { id: number };
    } else {
      created = await api.post("/gyms/:id/imports", { params: { id: gymId }, body: { csv: pasted, filename: "pasted.csv" } });
    }
    return redirect(`/gyms/${gymId}/imports/${created.id}`, { headers: api.headers });
  } catch (err) {
    if (!(err instanceof ApiRequestError) || err.status === 401) redirectForApiError(args.request, err);
    const errors = err.errors ?? {};
    // The API names the pasted text `csv` and the upload `file`: both are this form's one question.
    const message = errors.file?.[0] ?? (pasted ? errors.csv?.[0] : undefined) ?? (errors.csv ? "Choose the file to upload, or paste its text" : err.message);
    // A pasted file of thousands of rows is not sent back into the page; a short one is, to fix in place.
    return data<Result>({ errors, message, pasted: pasted.length <= 20_000 ? pasted : "" }, { status: err.status >= 500 ? 503 : err.status });
  }
}

export default function NewImport() {
  const { gymId, gymName } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  return (
    <div className="max-w-3xl space-y-4">
      <p className="text-sm">
        <Link to={`/gyms/${gymId}/imports`} className="text-brand-700 hover:underline">
          {gymName}: member imports
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">New member import</h1>
      <p className="text-sm text-slate-700">
        Export your members from your old system as CSV (Glofox, Mindbody, Fitness GM and Quoox all can). The first row must name the columns. Nothing is imported until you have checked
        the file and confirmed.
      </p>
      <Form method="post" encType="multipart/form-data" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4" noValidate>
        {result?.message ? (
          <p role="alert" id="import-error" className="text-sm text-red-700">
            {result.message}
          </p>
        ) : null}
        <div className="space-y-1">
          <label htmlFor="import-file" className="block text-sm font-medium text-slate-800">
            CSV file
          </label>
          <input id="import-file" name="file" type="file" accept=".csv,text/csv,text/plain" aria-describedby={result?.message ? "import-error" : undefined} className="block w-full text-sm" />
        </div>
        <div className="space-y-1">
          <label htmlFor="import-csv" className="block text-sm font-medium text-slate-800">
            Or paste its text
          </label>
          <textarea id="import-csv" name="csv" rows={8} defaultValue={result?.pasted ?? ""} className={`${controlClass(false)} font-mono`} placeholder={"First Name,Last Name,Email,Mobile\nAna,Smith,ana@example.com,021 555 0101"} />
        </div>
        <button type="submit" disabled={pending} className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60">
          {pending ? "Reading the file…" : "Continue"}
        </button>
      </Form>
    </div>
  );
}
