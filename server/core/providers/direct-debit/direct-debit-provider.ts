import type { DirectDebitStatus } from "../../../../domain/direct-debit";
import type { LocalDay } from "../../../../domain/periods";
import type { ChargeResult, CreatedBetween, Listed, ProviderMode, Retrieved } from "../charge-result";
import type { Refunding } from "../refunds";

/**
 * Direct debit, as the billing engine asks for it (issue 11): a payment collected against the member's mandate on
 * a charge date, which takes days to settle (domain/direct-debit.ts). One interface, two adapters: the sandbox
 * (./sandbox.ts, the default: offline, GoCardless's statuses on BECS NZ timings, a ledger of its own and signed
 * webhooks) and GoCardless itself (./gocardless-live.ts, on the official SDK). Amounts are integer cents.
 */
export interface DirectDebitCollection {
  amount: number;
  currency: "nzd";
  /** The member's mandate (GoCardless: MD…), as their payment type holds it. */
  mandate: string | null;
  /** The mandate's bank account number: all the sandbox needs to know how the payer's bank will answer. */
  accountNumber?: string | null;
  /** The day we would like it taken; the provider moves it to the earliest it can meet. */
  chargeDate: LocalDay | null;
  /** Derived from our payment: asked twice, the provider creates one payment. */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

export interface DirectDebitPayment {
  id: string;
  status: DirectDebitStatus | "pending_customer_approval" | "customer_approval_denied";
  chargeDate: LocalDay | null;
  /** Why it failed (GoCardless's `details.cause`: insufficient_funds, mandate_cancelled…), when it did. */
  cause?: string | null;
  description?: string | null;
}

/**
 * A direct debit mandate set up on the provider's hosted page (issue 13): the account, already checked on our side
 * (format and checksum), is handed to the provider, and the person confirms the authority on its page. Live:
 * GoCardless's billing request with a BECS NZ mandate request and its hosted flow; sandbox: a local page like it.
 */
export interface MandateSetupRequest {
  email: string;
  givenName: string;
  familyName: string;
  accountHolder: string;
  /** The NZ account as its parts: bank (2), branch (4), account (7), suffix (2 or 3 digits). */
  account: { bank: string; branch: string; number: string; suffix: string };
  /** Ours (`{organisation}:{user}`), kept in the request's metadata and checked when the person comes back. */
  reference: string;
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

export type MandateSetupResult =
  | { status: "open" | "expired" }
  | { status: "complete"; reference: string | null; mandate: string; accountHolder: string; accountNumber: string };

export interface DirectDebitProvider extends Refunding {
  readonly name: "gocardless";
  readonly mode: ProviderMode;
  startMandate(request: MandateSetupRequest): Promise<{ id: string; url: string }>;
  /** What became of a mandate page (the billing request): still open, expired or cancelled, or a mandate made. Null when unknown. */
  readMandate(id: string): Promise<MandateSetupResult | null>;
  collect(request: DirectDebitCollection): Promise<DirectDebitPayment>;
  /** The payment's state at the provider now, with what it was made for, or null when this creditor has no such payment. */
  retrieve(id: string): Promise<Retrieved<DirectDebitPayment> | null>;
  /** Every payment of this creditor created in the window (GoCardless: payments by `created_at`): what a reconciliation reads. */
  listPayments(window: CreatedBetween): Promise<Listed<DirectDebitPayment>[]>;
  /**
   * The creditor's payments taken back in the window, whenever they were made: charged back, or failed (GoCardless:
   * its payments' `charged_back` and `failed` events by `created_at`; a failure after it was paid is a late one), each
   * in its state now, `created` the day it was taken back. A reconciliation reads chargebacks from here.
   */
  listTakenBack(window: CreatedBetween): Promise<Listed<DirectDebitPayment>[]>;
}

const SETTLED = new Set(["confirmed", "paid_out"]);
const FAILED = new Set(["failed", "cancelled", "charged_back", "customer_approval_denied"]);

/** A direct debit's state as the engine writes it down: confirmed money is paid; a failure declines with its cause. */
export function directDebitResult(p: DirectDebitPayment): ChargeResult {
  if (SETTLED.has(p.status)) return { status: "succeeded", id: p.id };
  if (FAILED.has(p.status)) {
    return { status: "declined", id: p.id, declineCode: p.cause ?? p.status, message: p.description ?? `The direct debit was ${p.status.replace(/_/g, " ")}.` };
  }
  return { status: "processing", id: p.id, chargeDate: p.chargeDate };
}

/** A member's mandate, from their payment type's details (gocardless_bank_account: name, account_number, mandate_id). */
export function savedMandate(details: Record<string, string | number> | null | undefined): Pick<DirectDebitCollection, "mandate" | "accountNumber"> {
  const text = (v: unknown) => (typeof v === "string" && v ? v : null);
  return { mandate: text(details?.mandate_id), accountNumber: text(details?.account_number) };
}
