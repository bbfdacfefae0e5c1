import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { primaryLink, StepFrame } from "../../features/signup/step-frame";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Card connected · Gym Membership" }];

/**
 * Where the card provider's page sends the person back (?session_id=…): the saved card is read from the provider
 * and becomes their payment method. A session that is not theirs, made up, expired or unfinished saves nothing and
 * sends them back to choose, saying why. Loading it again finds the same card.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireSignupStep(args);
  const sessionId = new URL(args.request.url).searchParams.get("session_id") ?? "";
  try {
    const card = await api.post("/stripe/sync-payment-method", { body: { session_id: sessionId } });
    return { card };
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401 && !(err.status === 400 && err.error === "not_two_factor_authenticated")) {
      throw await redirectWithToast("/choose-payment-method", { severity: "error", summary: "Your card was not saved", detail: err.message, life: 10_000 }, api.headers);
    }
    redirectForApiError(args.request, err);
  }
}

export default function CardConnected() {
  const { card } = useLoaderData<typeof loader>();
  const brand = card.brand ? card.brand[0].toUpperCase() + card.brand.slice(1) : "Card";
  return (
    <StepFrame step="Payment" title="Card connected">
      <p className="mb-6 text-slate-700" data-testid="connected-card">
        {brand} ending <strong>{card.last_four}</strong> will pay your membership.
      </p>
      <Link to="/confirm-subscription" className={primaryLink}>
        Continue
      </Link>
    </StepFrame>
  );
}
