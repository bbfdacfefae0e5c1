import type { Tenant } from "../core/db/tenant";
import { ApiError } from "../core/errors";
import type { Providers } from "../core/providers/registry";
import type { SignupGym } from "./methods";
import { savePaymentType } from "./payment-types";

/**
 * A card saved on the provider's hosted page (issue 13; PCI SAQ A: the number never reaches us). Our reference
 * (organisation and member) travels with the session and is checked when the person comes back: a session id
 * from someone else's sign-up, or made up, saves nothing.
 */
const referenceOf = (t: Tenant, userId: number) => `${t.organisationId}:${userId}`;

export async function startCardSetup(
  t: Tenant,
  providers: Providers,
  member: { id: number; name: string; email: string },
  gym: SignupGym,
  origin: string,
  nonce: string,
) {
  if (!gym.stripe_id) throw new ApiError(409, "This gym does not take cards.", "method_unavailable");
  return providers.cards.startSetup({
    account: gym.stripe_id,
    email: member.email,
    name: member.name,
    reference: referenceOf(t, member.id),
    successUrl: `${origin}/card-connected?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${origin}/choose-payment-method?cancelled=card`,
    idempotencyKey: `card-setup:${t.organisationId}:${member.id}:${nonce}`,
  });
}

export async function finishCardSetup(t: Tenant, providers: Providers, userId: number, gym: SignupGym, sessionId: string) {
  const setup = await providers.cards.readSetup(sessionId, gym.stripe_id);
  if (!setup || (setup.status === "complete" && setup.reference !== referenceOf(t, userId))) {
    throw new ApiError(422, "That card page was not yours, or has gone: add your card again.", "invalid_session", { session_id: ["Unknown card session"] });
  }
  if (setup.status !== "complete") {
    throw new ApiError(409, setup.status === "expired" ? "The card page expired before the card was saved: add it again." : "The card was not saved yet.", `setup_${setup.status}`);
  }
  return savePaymentType(
    t,
    userId,
    "stripe_card",
    {
      type: setup.card.brand,
      last_four: setup.card.last_four,
      exp_month: setup.card.exp_month,
      exp_year: setup.card.exp_year,
      country: setup.card.country ?? "",
      customer: setup.customer,
      payment_method: setup.paymentMethod,
    },
    "payment_method",
  );
}
