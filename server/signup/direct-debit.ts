import { parseNzAccount } from "../../domain/bank-account";
import type { Tenant } from "../core/db/tenant";
import { ApiError, invalid } from "../core/errors";
import type { Providers } from "../core/providers/registry";
import type { SignupGym } from "./methods";
import { savePaymentType } from "./payment-types";

/**
 * Direct debit (issue 13): the account is checked here (format, branch, checksum) before anything is sent, then
 * the provider's hosted page takes the person's authority and makes the mandate. Our reference travels with the
 * billing request and is checked when they come back, as for cards (./card.ts).
 */
const referenceOf = (t: Tenant, userId: number) => `${t.organisationId}:${userId}`;

export async function startMandateSetup(
  t: Tenant,
  providers: Providers,
  member: { id: number; name: string; email: string },
  gym: SignupGym,
  origin: string,
  given: { account_holder: string; account_number: string; nonce: string },
) {
  const parsed = parseNzAccount(given.account_number);
  if (!parsed.ok) throw invalid({ account_number: [parsed.message] });
  const [givenName, ...rest] = member.name.trim().split(/\s+/);
  return providers.directDebit(gym).startMandate({
    email: member.email,
    givenName,
    familyName: rest.join(" ") || givenName,
    accountHolder: given.account_holder,
    account: parsed.account,
    reference: referenceOf(t, member.id),
    successUrl: `${origin}/direct-debit?billing_request={BILLING_REQUEST_ID}`,
    cancelUrl: `${origin}/choose-payment-method?cancelled=direct_debit`,
    idempotencyKey: `mandate-setup:${t.organisationId}:${member.id}:${given.nonce}`,
  });
}

export async function finishMandateSetup(t: Tenant, providers: Providers, userId: number, gym: SignupGym, billingRequest: string) {
  const setup = await providers.directDebit(gym).readMandate(billingRequest);
  if (!setup || (setup.status === "complete" && setup.reference !== referenceOf(t, userId))) {
    throw new ApiError(422, "That direct debit page was not yours, or has gone: set it up again.", "invalid_session", { billing_request: ["Unknown direct debit request"] });
  }
  if (setup.status !== "complete") {
    throw new ApiError(409, setup.status === "expired" ? "The direct debit was not set up: the page was left or expired. Set it up again." : "The direct debit is not set up yet.", `setup_${setup.status}`);
  }
  return savePaymentType(t, userId, "gocardless_bank_account", { name: setup.accountHolder, account_number: setup.accountNumber, mandate_id: setup.mandate }, "mandate_id");
}
