import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ApiRequestError, gymApi } from "../lib/api.server";
import { readForm } from "../lib/forms.server";

export const meta: MetaFunction = () => [{ title: "Save a card · Stripe (sandbox)" }, { name: "robots", content: "noindex" }];

/**
 * The sandbox's stand-in for Stripe Checkout in setup mode (issue 13): what the live adapter sends a person to at
 * checkout.stripe.com, served here when the card provider is the offline sandbox (the demo and the tests). It takes
 * Stripe's test cards and answers as Stripe does, then sends the person back to the gym's return or cancel address.
 * A live deployment has no such page (the API answers 404).
 */
export async function loader(args: LoaderFunctionArgs) {
  try {
    const session = await gymApi(args).get("/sandbox/stripe/checkout/:id", { params: { id: args.params.id! } });
    if (session.return_url) throw redirect(session.return_url);
    return session;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404) throw new Response("No such checkout page.", { status: 404 });
    throw err;
  }
}

export async function action(args: ActionFunctionArgs) {
  const api = gymApi(args);
  const form = await readForm(args.request);
  const id = args.params.id!;
  try {
    if (form.get("intent") === "cancel") return redirect((await api.post("/sandbox/stripe/checkout/:id/cancel", { params: { id } })).redirect);
    const entry = { number: String(form.get("number") ?? ""), expiry: String(form.get("expiry") ?? ""), cvc: String(form.get("cvc") ?? ""), name: String(form.get("name") ?? "") };
    const done = await api.post("/sandbox/stripe/checkout/:id", { params: { id }, body: entry });
    return redirect(done.redirect);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 422) {
      // As Stripe's page does, what was typed stays (the security code excepted).
      return data({ errors: err.errors ?? {}, values: { number: String(form.get("number") ?? ""), expiry: String(form.get("expiry") ?? ""), name: String(form.get("name") ?? "") } }, { status: 422 });
    }
    if (err instanceof ApiRequestError && err.status === 404) throw new Response("No such checkout page.", { status: 404 });
    throw err;
  }
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
    <div className="min-h-screen bg-slate-100 px-4 py-10">
      <header className="mx-auto mb-4 flex max-w-md items-center justify-between">
        <p className="text-lg font-bold text-indigo-700">stripe</p>
        <p className="rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-900">Sandbox: test cards only</p>
      </header>
      <main className="mx-auto max-w-md rounded-xl bg-white p-6 shadow">
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
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="cancel" />
          <button type="submit" className="w-full rounded-md px-4 py-2 text-sm font-medium text-slate-700 underline">
            Cancel and go back
          </button>
        </Form>
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
      </main>
    </div>
  );
}
