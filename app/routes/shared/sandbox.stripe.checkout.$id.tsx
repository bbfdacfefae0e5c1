import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { gymApi } from "../../lib/api.server";
import { SandboxCancel, SandboxFrame } from "../../features/signup/sandbox-frame";
import { sandboxLoad, sandboxSubmit } from "../../features/signup/sandbox-page.server";
import { readForm } from "../../lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Save a card · Stripe (sandbox)" }, { name: "robots", content: "noindex" }];

/**
 * The sandbox's stand-in for Stripe Checkout in setup mode (issue 13): what the live adapter sends a person to at
 * checkout.stripe.com, served here when the card provider is the offline sandbox (the demo and the tests). It takes
 * Stripe's test cards and answers as Stripe does, then sends the person back to the gym's return or cancel address.
 * A live deployment has no such page (the API answers 404).
 */
export async function loader(args: LoaderFunctionArgs) {
  const session = await sandboxLoad(() => gymApi(args).get("/sandbox/stripe/checkout/:id", { params: { id: args.params.id! } }));
  if (session.return_url) throw redirect(session.return_url);
  return session;
}

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const params = { id: args.params.id! };
  const entry = { number: String(form.get("number") ?? ""), expiry: String(form.get("expiry") ?? ""), cvc: String(form.get("cvc") ?? ""), name: String(form.get("name") ?? "") };
  return sandboxSubmit(
    async () => (form.get("intent") === "cancel" ? api.post("/sandbox/stripe/checkout/:id/cancel", { params }) : api.post("/sandbox/stripe/checkout/:id", { params, body: entry })).then((r) => r.redirect),
    // As Stripe's page does, what was typed stays (the security code excepted).
    (err) => ({ errors: err.errors ?? {}, values: { number: entry.number, expiry: entry.expiry, name: entry.name } }),
  );
}

const input = (invalid: boolean) =>
  `block w-full rounded-md border px-3 py-2 text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-indigo-300 ${invalid ? "border-red-600" : "border-slate-300"}`;

export default function SandboxCheckout() {
  const session = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors = answer?.errors ?? {};
  const field = (name: "number" | "expiry" | "cvc" | "name", label: string, props: Record<string, string>) => (
    <div className="space-y-1">
      <label htmlFor={`card-${name}`} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={`card-${name}`}
        name={name}
        defaultValue={name === "cvc" ? undefined : answer?.values?.[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `card-${name}-error` : undefined}
        className={input(Boolean(errors[name]))}
        {...props}
      />
      {errors[name] ? (
        <p id={`card-${name}-error`} className="text-sm text-red-700">
          {errors[name]![0]}
        </p>
      ) : null}
    </div>
  );
  return (
    <SandboxFrame provider="stripe" brand="text-indigo-700" badge="Sandbox: test cards only">
        <h1 className="text-xl font-semibold text-slate-900">Save a card for future payments</h1>
        {session.email ? <p className="mt-1 text-sm text-slate-600">For {session.email}</p> : null}
        {errors.form ? (
          <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
            {errors.form[0]}
          </p>
        ) : null}
        <Form method="post" className="mt-6 space-y-4" aria-label="Card details">
          {field("number", "Card number", { inputMode: "numeric", autoComplete: "cc-number", placeholder: "1234 1234 1234 1234" })}
          <div className="grid grid-cols-2 gap-3">
            {field("expiry", "Expiry (MM / YY)", { autoComplete: "cc-exp", placeholder: "MM / YY" })}
            {field("cvc", "Security code", { inputMode: "numeric", autoComplete: "cc-csc", placeholder: "CVC" })}
          </div>
          {field("name", "Name on card", { autoComplete: "cc-name" })}
          <button type="submit" disabled={busy} className="w-full rounded-md bg-indigo-600 px-4 py-2 font-semibold text-white hover:bg-indigo-700 disabled:opacity-60">
            {busy ? "Saving…" : "Save card"}
          </button>
        </Form>
        <SandboxCancel />
        <details className="mt-6 text-sm text-slate-600">
          <summary className="cursor-pointer font-medium">Test cards</summary>
          <ul className="mt-2 space-y-1">
            <li>4242 4242 4242 4242: saved, payments succeed</li>
            <li>5555 5555 5555 4444: Mastercard, payments succeed</li>
            <li>4000 0000 0000 9995: saved, payments declined (insufficient funds)</li>
            <li>4000 0000 0000 0341: saved, payments declined</li>
            <li>4000 0000 0000 0002: declined here</li>
          </ul>
          <p className="mt-1">Any future expiry date and any 3 digits.</p>
        </details>
    </SandboxFrame>
  );
}
