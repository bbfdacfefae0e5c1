import type { ChargeResult, CreatedBetween, Listed, ProviderMode, Retrieved } from "../charge-result";
import type { Disputes, Refunding } from "../refunds";

/**
 * Card payments, as the billing engine asks for them (issue 11). One interface, two adapters: the sandbox
 * (./sandbox.ts, the default: offline, with Stripe's test cards and decline codes and a ledger of its own) and
 * Stripe itself (./stripe-live.ts, on the official SDK). Amounts are integer cents.
 */
export interface CardCharge {
  amount: number;
  currency: "nzd";
  /** The provider's customer and saved payment method (Stripe: cus_…, pm_…), as the payment type holds them. */
  customer: string | null;
  paymentMethod: string | null;
  /** The gym's Stripe Connect account (gyms.stripe_id) the charge is made on, when it has one. */
  account?: string | null;
  /** The card's last four digits: all the sandbox needs when no payment method id was saved (the seed's cards). */
  lastFour?: string | null;
  /** Derived from our payment (`charge:{subscription}:{period}:{attempt}`): the same charge sent twice is charged once. */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

/** Succeeded, declined (`declineCode`: Stripe's decline_code, else its error code) or processing (3-D Secure…). */
export type CardChargeResult = Exclude<ChargeResult, { status: "awaiting_approval" }>;

/**
 * Saving a member's card (issue 13) on the provider's hosted page (PCI SAQ A: card numbers never reach us): Stripe
 * Checkout in setup mode, live; a local page that behaves like it, in the sandbox.
 */
export interface CardSetupRequest {
  /** The gym's Connect account the customer and card are saved on. */
  account?: string | null;
  email: string;
  name: string;
  /** Ours (`{organisation}:{user}`), sent as the session's client_reference_id and checked when the person comes back. */
  reference: string;
  /** Where the page sends the person: `{CHECKOUT_SESSION_ID}` in successUrl is replaced with the session's id. */
  successUrl: string;
  cancelUrl: string;
  /** The same form sent twice opens one session. */
  idempotencyKey: string;
}

export interface SavedCardDetails {
  brand: string;
  last_four: string;
  exp_month: number;
  exp_year: number;
  country: string | null;
}

export type CardSetupResult =
  | { status: "open" | "expired" }
  | { status: "complete"; reference: string | null; customer: string; paymentMethod: string; card: SavedCardDetails };

export interface CardProvider extends Refunding, Disputes {
  readonly name: "stripe";
  readonly mode: ProviderMode;
  charge(request: CardCharge): Promise<CardChargeResult>;
  /** Opens a hosted page where the member enters a card to save; answers its id and where to send them. */
  startSetup(request: CardSetupRequest): Promise<{ id: string; url: string }>;
  /** What became of a setup page: still open, expired (or cancelled), or complete with the saved card. Null when unknown. */
  readSetup(id: string, account?: string | null): Promise<CardSetupResult | null>;
  /**
   * A charge's state at the provider now, with what it was made for, or null when the account holds no such charge
   * (an intent of another account is unknown on this one, as Stripe answers): webhooks apply this, never the event's copy.
   */
  retrieve(id: string, account?: string | null): Promise<Retrieved<CardChargeResult> | null>;
  /** Every charge made on the account in the window (Stripe: its PaymentIntents, by `created`): what a reconciliation reads. */
  listCharges(window: CreatedBetween, account?: string | null): Promise<Listed<CardChargeResult>[]>;
}

/** A member's saved card, from their payment type's details (stripe_card: customer, payment_method, last_four). */
export function savedCard(details: Record<string, string | number> | null | undefined): Pick<CardCharge, "customer" | "paymentMethod" | "lastFour"> {
  const text = (v: unknown) => (typeof v === "string" && v ? v : null);
  return { customer: text(details?.customer), paymentMethod: text(details?.payment_method), lastFour: details?.last_four == null ? null : String(details.last_four) };
}
