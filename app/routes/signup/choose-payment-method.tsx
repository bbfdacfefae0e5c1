import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { describeMethod } from "../../features/signup/methods";
import { primaryLink, secondaryButton, StepFrame } from "../../features/signup/step-frame";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "How you'll pay · Gym Membership" }];

const CANCELLED: Record<string, string> = {
  card: "You left the card page before your card was saved. Nothing was charged.",
  direct_debit: "You left the direct debit page before the mandate was set up. Nothing was charged.",
  bank: "You left your bank's page before connecting it. Nothing was charged.",
};

/**
 * The second step (issue 13): only the ways this gym has connected, each on its provider's own page. A member who
 * already connected one may use it, choose which connected one pays, or add another (after a decline, say).
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireSignupStep(args);
  try {
    const signup = await api.get("/me/signup");
    const cancelled = new URL(args.request.url).searchParams.get("cancelled");
    return { signup, notice: cancelled ? (CANCELLED[cancelled] ?? null) : null };
  } catch (err) {
    redirectForApiError(args.request, err);
  }
}

/** Makes another connected method the one that pays (POST /api/me/payment-types/{id}/switch). */
export async function action(args: ActionFunctionArgs) {
  const { api } = await requireSignupStep(args);
  const id = String((await readForm(args.request)).get("payment_type") ?? "");
  try {
    await api.post("/me/payment-types/:id/switch", { params: { id } });
  } catch (err) {
    redirectForApiError(args.request, err);
  }
  return redirectWithToast("/choose-payment-method", { summary: "Payment method changed" }, api.headers);
}

export default function ChoosePaymentMethod() {
  const { signup, notice } = useLoaderData<typeof loader>();
  const connected = signup.payment_types;
  return (
    <StepFrame step="Payment" title="How would you like to pay?" intro={`Choose how your ${signup.gym.name} membership is paid. Nothing is charged until you confirm.`}>
      {notice ? (
        <p role="status" className="mb-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {notice}
        </p>
      ) : null}
      {connected.length ? (
        <section aria-labelledby="connected-heading" className="mb-6 space-y-3">
          <h2 id="connected-heading" className="text-sm font-semibold text-slate-800">
            Connected
          </h2>
          <ul className="space-y-2">
            {connected.map((m) => (
              <li key={m.id} className="flex items-center justify-between gap-3 rounded-md border border-slate-200 px-3 py-2">
                <span className="text-slate-900">{describeMethod(m)}</span>
                {m.id === signup.default_payment_type_id ? (
                  <span className="text-sm font-medium text-green-700">Pays your membership</span>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="payment_type" value={m.id} />
                    <button type="submit" className="text-sm font-medium text-brand-700 underline">
                      Pay with this instead
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
          <Link to="/confirm-subscription" className={primaryLink}>
            Continue
          </Link>
        </section>
      ) : null}
      <section aria-labelledby="methods-heading" className="space-y-3">
        <h2 id="methods-heading" className="text-sm font-semibold text-slate-800">
          {connected.length ? "Or connect another way to pay" : "Ways to pay"}
        </h2>
        {signup.methods.length ? (
          <ul className="space-y-2">
            {signup.methods.map((m) => (
              <li key={m.kind}>
                <Link to={m.path} className={secondaryButton}>
                  {m.label}
                </Link>
                {m.surcharge ? (
                  <p className="mt-1 text-xs text-slate-600">
                    Card payments carry a {m.surcharge} surcharge.{m.surcharge_text ? ` ${m.surcharge_text}` : ""}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">{signup.gym.name} has not set up online payments yet. Ask the gym's staff to finish joining you up.</p>
        )}
      </section>
    </StepFrame>
  );
}
