import { eq } from "drizzle-orm";
import type { PaymentTypeKind } from "../../domain/surcharge";
import { formatSurcharge } from "../../domain/surcharge";
import { destination_accounts, gyms } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import type { Providers } from "../core/providers/registry";

export interface OfferedMethod {
  kind: PaymentTypeKind;
  /** The sign-up page that connects it. */
  path: "/card-details" | "/direct-debit" | "/connect-akahu";
  label: string;
  /** The card surcharge in words and the gym's own text about it, for a card. */
  surcharge: string | null;
  surcharge_text: string | null;
}

/** The gym a member joins, with what the providers need to know about its accounts. */
export async function signupGym(t: Tenant, gymId: number) {
  const [gym] = await t.db.select().from(gyms).where(t.where(gyms, eq(gyms.id, gymId)));
  if (!gym) return null;
  const [account] = await t.db.select({ id: destination_accounts.id }).from(destination_accounts).where(t.where(destination_accounts, eq(destination_accounts.gym_id, gymId))).limit(1);
  return { ...gym, hasDestinationAccount: Boolean(account) };
}
export type SignupGym = NonNullable<Awaited<ReturnType<typeof signupGym>>>;

/**
 * The ways a member may pay this gym (issue 13): only what the gym has connected, and only where a provider can
 * take it (a configured live adapter, or the sandbox): a card with a Stripe Connect account; direct debit with a
 * GoCardless organisation; a bank payment through Akahu with a destination account for the money to go to.
 */
export function offeredMethods(gym: SignupGym, providers: Providers): OfferedMethod[] {
  const methods: OfferedMethod[] = [];
  if (gym.stripe_id && providers.cards.mode !== "unconfigured") {
    const surcharge = formatSurcharge({ basisPoints: gym.card_surcharge_basis_points, fixed: gym.card_surcharge_fixed });
    methods.push({ kind: "stripe_card", path: "/card-details", label: "Credit or debit card", surcharge, surcharge_text: surcharge ? gym.general_card_surcharge_text : null });
  }
  if (gym.gocardless_organisation_id && providers.directDebit(gym).mode !== "unconfigured") {
    methods.push({ kind: "gocardless_bank_account", path: "/direct-debit", label: "Direct debit from your bank account", surcharge: null, surcharge_text: null });
  }
  if (gym.hasDestinationAccount && providers.bank(gym).mode !== "unconfigured") {
    methods.push({ kind: "bank_account", path: "/connect-akahu", label: "Pay from your bank account (connect your bank)", surcharge: null, surcharge_text: null });
  }
  return methods;
}
