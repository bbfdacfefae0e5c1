import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { gymApi } from "../../lib/api.server";
import { SandboxCancel, SandboxFrame } from "../../features/signup/sandbox-frame";
import { sandboxLoad, sandboxSubmit } from "../../features/signup/sandbox-page.server";
import { readForm } from "../../lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Set up a Direct Debit · GoCardless (sandbox)" }, { name: "robots", content: "noindex" }];

/**
 * The sandbox's stand-in for GoCardless's hosted billing request flow (issue 13): the person checks the details and
 * confirms the authority, and GoCardless makes the mandate and sends them back. A live deployment has no such page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const flow = await sandboxLoad(() => gymApi(args).get("/sandbox/gocardless/flow/:id", { params: { id: args.params.id! } }));
  if (flow.return_url) throw redirect(flow.return_url);
  return flow;
}

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const params = { id: args.params.id! };
  return sandboxSubmit(
    async () =>
      (form.get("intent") === "cancel"
        ? api.post("/sandbox/gocardless/flow/:id/cancel", { params })
        : api.post("/sandbox/gocardless/flow/:id", { params, body: { authorised: form.get("authorised") === "on" } })
      ).then((r) => r.redirect),
    (err) => ({ error: err.errors?.authorised?.[0] ?? err.message }),
  );
}

export default function SandboxMandate() {
  const flow = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <SandboxFrame provider="GoCardless" brand="text-slate-900" badge="Sandbox: no money moves">
        <h1 className="text-xl font-semibold text-slate-900">Set up a Direct Debit</h1>
        <dl className="mt-4 space-y-2 text-sm">
          <div>
            <dt className="text-slate-600">Name</dt>
            <dd className="font-medium text-slate-900">{flow.name}</dd>
          </div>
          <div>
            <dt className="text-slate-600">E-mail</dt>
            <dd className="font-medium text-slate-900">{flow.email}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Account holder</dt>
            <dd className="font-medium text-slate-900">{flow.account_holder}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Account number</dt>
            <dd className="font-medium text-slate-900">{flow.account_number}</dd>
          </div>
        </dl>
        <Form method="post" className="mt-6 space-y-4">
          <div className="flex items-start gap-2">
            <input id="authorised" name="authorised" type="checkbox" className="mt-1 h-4 w-4" aria-describedby={answer?.error ? "authorised-error" : undefined} aria-invalid={answer?.error ? true : undefined} />
            <label htmlFor="authorised" className="text-sm text-slate-800">
              I am the account holder, or can authorise debits from this account on my own, and I authorise this Direct Debit under the BECS scheme.
            </label>
          </div>
          {answer?.error ? (
            <p id="authorised-error" className="text-sm text-red-700">
              {answer.error}
            </p>
          ) : null}
          <button type="submit" disabled={busy} className="w-full rounded-md bg-slate-900 px-4 py-2 font-semibold text-white hover:bg-slate-700 disabled:opacity-60">
            {busy ? "Setting up…" : "Set up Direct Debit"}
          </button>
        </Form>
        <SandboxCancel />
    </SandboxFrame>
  );
}
