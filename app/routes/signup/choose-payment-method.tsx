import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ConnectedMethods, LEFT_PROVIDER_PAGE, WaysToPay } from "../../features/signup/payment-methods";
import { primaryLink, StepFrame } from "../../features/signup/step-frame";
import { readForm } from "../../lib/forms.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "How you'll pay · Gym Membership" }];

/**
 * The second step (issue 13): only the ways this gym has connected, each on its provider's own page. A member who
 * already connected one may use it, choose which connected one pays, or add another (after a decline, say).
 */
export async function loader(args: LoaderFunctionArgs) {
  const { me, api } = await requireSignupStep(args);
  const url = new URL(args.request.url);
  // A joined member back from a provider's page they left: to how they pay, which says so.
  if (me.membership_confirmed) throw redirect(`/membership/payment${url.search}`, { headers: api.headers });
  try {
    const signup = await api.get("/me/signup");
    const cancelled = url.searchParams.get("cancelled");
    return { signup, notice: cancelled ? LEFT_PROVIDER_PAGE[cancelled] ?? null : null };
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
    <StepFrame
      step="Payment"
      title="How would you like to pay?"
      intro={`Choose how your ${signup.gym.name} membership is paid. Nothing is charged until you confirm.`}
    >
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
          <ConnectedMethods signup={signup} />
          <Link to="/confirm-subscription" className={primaryLink}>
            Continue
          </Link>
        </section>
      ) : null}
      <section aria-labelledby="methods-heading" className="space-y-3">
        <h2 id="methods-heading" className="text-sm font-semibold text-slate-800">
          {connected.length ? "Or connect another way to pay" : "Ways to pay"}
        </h2>
        <WaysToPay signup={signup} none={`${signup.gym.name} has not set up online payments yet. Ask the gym's staff to finish joining you up.`} />
      </section>
    </StepFrame>
  );
}
