import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { primaryLink, StepFrame } from "../../features/signup/step-frame";
import { ApiRequestError } from "../../lib/api.server";
import { redirectForApiError, requireSignupStep } from "../../lib/session.server";
import { redirectWithToast } from "../../lib/toast.server";
import { paymentJourney } from "../../features/signup/payment-journey";

export const meta: MetaFunction = () => [{ title: "Card connected · Gym Membership" }];

/**
 * Where the card provider's page sends the person back (?session_id=…): the saved card is read from the provider
 * and becomes their payment method. A session that is not theirs, made up, expired or unfinished saves nothing and
 * sends them back to choose, saying why. Loading it again finds the same card.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { me, api } = await requireSignupStep(args);
  const journey = paymentJourney(me);
  const sessionId = new URL(args.request.url).searchParams.get("session_id") ?? "";
  let card;
  try {
    card = await api.post("/stripe/sync-payment-method", { body: { session_id: sessionId } });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status < 500 && err.status !== 401 && !(err.status === 400 && err.error === "not_two_factor_authenticated")) {
      throw await redirectWithToast(journey.choose, { severity: "error", summary: "Your card was not saved", detail: err.message, life: 10_000 }, api.headers);
    }
    redirectForApiError(args.request, err);
  }
  // A joined member goes back to how they pay, which now shows the card (and what is owing, to pay with it).
  if (journey.joined)
    throw await redirectWithToast(
      journey.done,
      { summary: "Card saved", detail: `${brandOf(card.brand)} ending ${card.last_four} pays your membership now.` },
      api.headers,
    );
  return { card };
}

const brandOf = (brand: string | null) => (brand ? brand[0].toUpperCase() + brand.slice(1) : "Card");

export default function CardConnected() {
  const { card } = useLoaderData<typeof loader>();
  const brand = brandOf(card.brand);
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
