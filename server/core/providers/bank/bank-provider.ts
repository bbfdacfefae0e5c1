import type { ChargeResult, ProviderMode, Retrieved } from "../charge-result";

/**
 * Bank payments through an open-banking provider (Akahu), as the billing engine asks for them (issue 11): the
 * member connected their bank when they signed up (a user token and the account they chose), and each due period
 * is paid from that account to the gym's destination account. One interface, two adapters: the sandbox
 * (./sandbox.ts, the default: offline, Akahu's statuses, a ledger of its own and RSA-signed webhooks) and Akahu
 * itself (./akahu-live.ts, on the official SDK). Amounts are integer cents here; Akahu takes dollars.
 */
export type BankPaymentStatus = "READY" | "PENDING_APPROVAL" | "PAUSED" | "SENT" | "DECLINED" | "ERROR" | "CANCELLED";

export interface BankPaymentRequest {
  amount: number;
  /** The member's Akahu user token. */
  token: string;
  /** The Akahu account the member pays from (acc_…). */
  fromAccount: string;
  /** That account's number: all the sandbox needs to know how the member's bank will answer. */
  accountNumber?: string | null;
  /** The gym's account, as its destination account holds it. */
  to: { name: string; account_number: string };
  /** What the gym's statement shows (12 characters each at most, as the banks allow). */
  statement: { particulars: string; code: string; reference: string };
  idempotencyKey: string;
}

export interface BankPayment {
  id: string;
  status: BankPaymentStatus;
  /** Akahu's status_code when it failed (INSUFFICIENT_FUNDS, INVALID_ACCOUNT…), and its words. */
  statusCode?: string | null;
  statusText?: string | null;
}

/** What Akahu posts to a webhook endpoint (https://developers.akahu.nz/docs/reference-webhooks), as far as we act on it. */
export interface AkahuWebhookPayload {
  webhook_type: string;
  webhook_code: string;
  state: string;
  item_id?: string;
  status?: string;
  status_code?: string;
  status_text?: string;
  received_at?: string;
}

/** An account the member shared when they connected their bank (issue 13): `canPay` when payments can be made from it. */
export interface SharedAccount {
  id: string;
  name: string;
  accountNumber: string | null;
  bank: string;
  canPay: boolean;
}

export interface BankProvider {
  readonly name: "akahu";
  readonly mode: ProviderMode;
  /**
   * Connecting a member's bank (Akahu OAuth, issue 13): where to send them to consent, with our `state` echoed back
   * to `redirectUri` with a code (or an error); the code exchanged for their user token; the accounts they shared.
   */
  authorisationUrl(request: { redirectUri: string; state: string; email: string }): Promise<string>;
  exchange(code: string, redirectUri: string): Promise<{ token: string }>;
  accounts(token: string): Promise<SharedAccount[]>;
  pay(request: BankPaymentRequest): Promise<BankPayment>;
  /** A payment's state at Akahu now, with what it was made for, or null when the member (their token) has no such payment. */
  retrieve(token: string, id: string): Promise<Retrieved<BankPayment> | null>;
  /** Checks a webhook's RSA signature against Akahu's published key `keyId`; answers the payload, or throws. */
  verifyWebhook(body: string, keyId: string | undefined, signature: string | undefined): Promise<AkahuWebhookPayload>;
}

/** A bank payment's state as the engine writes it down. */
export function bankPaymentResult(p: BankPayment): ChargeResult {
  if (p.status === "SENT") return { status: "succeeded", id: p.id };
  if (p.status === "PENDING_APPROVAL") return { status: "awaiting_approval", id: p.id };
  if (p.status === "READY" || p.status === "PAUSED") return { status: "processing", id: p.id };
  return {
    status: "declined",
    id: p.id,
    declineCode: (p.statusCode ?? p.status).toLowerCase(),
    message: p.statusText ?? `The bank payment was ${p.status.toLowerCase()}.`,
  };
}

/** The account a member pays from, from their bank_account payment type's details (account_number, name, status, akahu_account_id). */
export function savedBankAccount(details: Record<string, string | number> | null | undefined): { fromAccount: string | null; accountNumber: string | null } {
  const text = (v: unknown) => (typeof v === "string" && v ? v : null);
  return { fromAccount: text(details?.akahu_account_id), accountNumber: text(details?.account_number) };
}

/** Akahu takes dollars with at most two decimals. */
export const toDollars = (cents: number) => Math.round(cents) / 100;

/** A statement field: letters, digits, spaces and - only, 12 characters at most. */
export const statementField = (text: string) =>
  text
    .replace(/[^A-Za-z0-9 -]/g, "")
    .slice(0, 12)
    .trim();
