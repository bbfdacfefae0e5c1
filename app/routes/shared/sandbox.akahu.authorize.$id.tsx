import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { gymApi } from "../../lib/api.server";
import { SandboxFrame } from "../../features/signup/sandbox-frame";
import { sandboxLoad, sandboxSubmit } from "../../features/signup/sandbox-page.server";
import { readForm } from "../../lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Connect your bank · Akahu (sandbox)" }, { name: "robots", content: "noindex" }];

/**
 * The sandbox's stand-in for Akahu's OAuth consent (issue 13): the person chooses which accounts to share and allows
 * access, or declines; Akahu sends them back with a code (or an error) and the app's state. A live deployment has
 * no such page.
 */
export const loader = (args: LoaderFunctionArgs) => sandboxLoad(() => gymApi(args).get("/sandbox/akahu/authorize/:id", { params: { id: args.params.id! } }));

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const params = { id: args.params.id! };
  return sandboxSubmit(
    async () =>
      (form.get("intent") === "deny"
        ? api.post("/sandbox/akahu/authorize/:id/deny", { params })
        : api.post("/sandbox/akahu/authorize/:id", { params, body: { accounts: form.getAll("accounts").map(String) } })
      ).then((r) => r.redirect),
    (err) => ({ error: err.errors?.accounts?.[0] ?? err.message }),
  );
}

export default function SandboxAkahuConsent() {
  const consent = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const done = consent.status !== "open";
  return (
    <SandboxFrame provider="akahu" brand="text-slate-900" badge="Sandbox: a pretend bank">
        <h1 className="text-xl font-semibold text-slate-900">Share your accounts</h1>
        <p className="mt-1 text-sm text-slate-600">
          {consent.email ? `Signed in to ASB (sandbox) as ${consent.email}. ` : ""}Choose the accounts the gym may see and make payments from.
        </p>
        {done ? (
          <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
            This request has already been answered. Go back to the gym&apos;s site and start again.
          </p>
        ) : (
          <>
            <Form method="post" className="mt-6 space-y-4">
              <fieldset className="space-y-2" aria-describedby={answer?.error ? "accounts-error" : undefined}>
                <legend className="text-sm font-medium text-slate-800">Accounts to share</legend>
                {consent.accounts.map((a) => (
                  <label key={a.id} className="flex items-start gap-3 rounded-md border border-slate-200 p-3">
                    <input type="checkbox" name="accounts" value={a.id} defaultChecked className="mt-1 h-4 w-4" />
                    <span>
                      <span className="block font-medium text-slate-900">{a.name}</span>
                      <span className="block text-sm text-slate-600">{a.account_number}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
              {answer?.error ? (
                <p id="accounts-error" className="text-sm text-red-700">
                  {answer.error}
                </p>
              ) : null}
              <button type="submit" disabled={busy} className="w-full rounded-md bg-slate-900 px-4 py-2 font-semibold text-white hover:bg-slate-700 disabled:opacity-60">
                {busy ? "Connecting…" : "Allow access"}
              </button>
            </Form>
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="deny" />
              <button type="submit" className="w-full rounded-md px-4 py-2 text-sm font-medium text-slate-700 underline">
                Decline
              </button>
            </Form>
          </>
        )}
    </SandboxFrame>
  );
}
