import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { SandboxCancel, SandboxFrame } from "../../features/signup/sandbox-frame";
import { sandboxLoad, sandboxSubmit } from "../../features/signup/sandbox-page.server";
import { gymApi } from "../../lib/api.server";
import { readForm } from "../../lib/forms.server";

const PROVIDERS = { stripe: { name: "Stripe", brand: "text-indigo-700" }, gocardless: { name: "GoCardless", brand: "text-slate-900" } } as const;
const serviceOf = (v: string | undefined): keyof typeof PROVIDERS => {
  if (v !== "stripe" && v !== "gocardless") throw new Response("No such page.", { status: 404 });
  return v;
};

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Connect your account · ${data ? PROVIDERS[data.service].name : "Provider"} (sandbox)` }, { name: "robots", content: "noindex" }];

/**
 * The sandbox's stand-in for Stripe Connect's and GoCardless's account-connection pages (issue 15): the gym's admin
 * approves, the sandbox makes the gym a sandbox account and sends them back with a code. A live deployment has no
 * such page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const service = serviceOf(args.params.service);
  const page = await sandboxLoad(() => gymApi(args).get("/sandbox/:service/connect/:id", { params: { service, id: args.params.id! } }));
  if (page.return_url) throw redirect(page.return_url);
  return { ...page, service: service as keyof typeof PROVIDERS };
}

export async function action(args: ActionFunctionArgs) {
  const service = serviceOf(args.params.service);
  const api = gymApi(args);
  const params = { service, id: args.params.id! };
  const cancel = (await readForm(args.request)).get("intent") === "cancel";
  return sandboxSubmit(
    async () => (cancel ? api.post("/sandbox/:service/connect/:id/cancel", { params }) : api.post("/sandbox/:service/connect/:id", { params })).then((r) => r.redirect),
    (err) => ({ error: err.message }),
  );
}

export default function SandboxConnect() {
  const page = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  const p = PROVIDERS[page.service];
  return (
    <SandboxFrame provider={p.name} brand={p.brand} badge="Sandbox: no real account">
      <h1 className="text-xl font-semibold text-slate-900">Connect {page.gym} to {p.name}</h1>
      <p className="mt-2 text-sm text-slate-700">
        Gym Membership asks to take payments into your {p.name} account for {page.gym}. Signed in as {page.email}.
      </p>
      <Form method="post" className="mt-6">
        <button type="submit" disabled={busy} className="w-full rounded-md bg-slate-900 px-4 py-2 font-semibold text-white hover:bg-slate-700 disabled:opacity-60">
          {busy ? "Connecting…" : "Connect account"}
        </button>
      </Form>
      <SandboxCancel />
    </SandboxFrame>
  );
}
