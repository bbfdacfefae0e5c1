import { createHash, createPublicKey, createSign, createVerify, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { bankPaymentTimeline } from "../../../../domain/bank-payment";
import type { Db } from "../../db/client";
import { sandbox_ledger } from "../../db/schema";
import type { SandboxClock } from "../clock";
import { ProviderError } from "../errors";
import { sandboxAccountBehaviour, type SandboxAccountBehaviour } from "../sandbox-accounts";
import { sandboxSessions } from "../sandbox-sessions";
import type { AkahuWebhookPayload, BankPayment, BankPaymentRequest, BankProvider, SharedAccount } from "./bank-provider";
import { sandboxAkahuKey } from "../../webhooks/secrets";

/**
 * The id of the sandbox Akahu's signing key (Akahu names the key each call is signed with, X-Akahu-Signing-Key). The
 * key itself is this installation's own, made at its first start (server/core/webhooks/secrets.ts), never in the source.
 */
export const SANDBOX_SIGNING_KEY_ID = 1;

/** How the member's bank answers, as Akahu reports it (status_code and status_text). */
const DECLINES: Partial<Record<SandboxAccountBehaviour, { code: string; text: string }>> = {
  insufficient_funds: { code: "INSUFFICIENT_FUNDS", text: "The account does not have sufficient funds to make this payment." },
  refused: { code: "BANK_ERROR", text: "The bank declined the payment." },
  closed: { code: "INVALID_ACCOUNT", text: "The account cannot make payments." },
  authority_cancelled: { code: "AUTHENTICATION_FAILED", text: "The connection to the bank needs to be re-authorised by the user." },
};

type LedgerRow = typeof sandbox_ledger.$inferSelect;

/** Whose token made a payment: kept as a digest, so the sandbox's books hold no member's credential. */
const userOf = (token: string) => createHash("sha256").update(token).digest("hex").slice(0, 32);

const outcomeOf = (row: LedgerRow) => (row.status === "PENDING_APPROVAL" ? "approval" : row.status === "SENT" ? "sent" : "declined");

/** The statuses a ledger row's payment passes through (its state now; the sandbox's webhooks tell of each after the first). */
export function bankPaymentEvents(row: LedgerRow) {
  return bankPaymentTimeline(row.created_at, outcomeOf(row));
}

/** A ledger row's payment as Akahu would show it at `now`. */
export function sandboxBankPaymentAt(row: LedgerRow, now: Date): BankPayment {
  const happened = bankPaymentEvents(row).filter((e) => e.at <= now);
  const status = (happened.at(-1) ?? bankPaymentEvents(row)[0]).status;
  const failed = status === "DECLINED";
  return { id: row.object_id, status, statusCode: failed ? row.decline_code : null, statusText: failed ? String(row.request.status_text ?? "") || null : null };
}

/** The sandbox's webhook signature, as Akahu makes it: base64 RSA-SHA256 over the raw body, with the installation's key. */
export function sandboxAkahuSignature(body: string, privateKey: string): string {
  return createSign("sha256").update(body).end().sign(privateKey, "base64");
}

/**
 * The offline Akahu: payments from a member's connected account, kept in its own books (`sandbox_ledger`,
 * provider 'akahu'), one per idempotency key, outside the caller's transaction. How the member's bank answers is
 * settled from their account number (../sandbox-accounts.ts) when the payment is made; when it answers follows
 * domain/bank-payment.ts on the sandbox's clock.
 */
export function sandboxBank(db: Db, clock: SandboxClock, signingKey?: string): BankProvider {
  const provider = "akahu";
  const consents = sandboxSessions(db, "akahu", "auth");
  return {
    name: provider,
    mode: "sandbox",
    async authorisationUrl(req) {
      const session = await consents.open({
        idempotencyKey: `${req.state}`,
        successUrl: req.redirectUri,
        cancelUrl: req.redirectUri,
        request: { email: req.email, state: req.state, redirect_uri: req.redirectUri },
      });
      // "Akahu's" consent page is served by this app (app/routes/sandbox.akahu.authorize.$id.tsx).
      return new URL(`/sandbox/akahu/authorize/${session.id}`, req.redirectUri).href;
    },
    /** The code is the consent's own id, good once and only for the address it was given to, as an OAuth code is. */
    async exchange(code, redirectUri) {
      const session = await consents.read(code);
      const result = session?.result as { shared?: SharedAccount[]; exchanged?: boolean } | null | undefined;
      if (!session || session.status !== "complete" || result?.exchanged || session.request.redirect_uri !== redirectUri) {
        throw new ProviderError("Akahu: the authorisation code is invalid, used or expired (invalid_grant).", false);
      }
      await consents.finish(code, "complete", { ...result, exchanged: true });
      return { token: `user_token_sandbox_${code}` };
    },
    async accounts(token) {
      const session = await consents.read(token.replace(/^user_token_sandbox_/, ""));
      if (!session || session.status !== "complete") throw new ProviderError("Akahu: the user token is not valid (unauthorized).", false);
      return (session.result as { shared: SharedAccount[] }).shared;
    },
    /** As Akahu: a member's token shows only the payments made with it. */
    async retrieve(token, id) {
      const [row] = await db
        .select()
        .from(sandbox_ledger)
        .where(and(eq(sandbox_ledger.provider, provider), eq(sandbox_ledger.object_id, id)));
      if (!row || row.request.user !== userOf(token)) return null;
      const reference = (row.request.meta as { destination?: { reference?: string } } | undefined)?.destination?.reference;
      return { ...sandboxBankPaymentAt(row, clock.now()), made: { amount: row.amount, currency: row.currency, account: null, metadata: (reference ? { reference } : {}) as Record<string, string> } };
    },
    async pay(req: BankPaymentRequest) {
      if (!Number.isSafeInteger(req.amount) || req.amount < 1) throw new ProviderError("amount must be more than $0.00 (400).", false);
      const now = clock.now();
      const behaviour = sandboxAccountBehaviour(req.accountNumber);
      const decline = DECLINES[behaviour];
      const status = decline ? "DECLINED" : behaviour === "needs_approval" ? "PENDING_APPROVAL" : "SENT";
      const request = { amount: req.amount, from: req.fromAccount, to: req.to, meta: { destination: req.statement }, user: userOf(req.token), status_text: decline?.text ?? null };
      const [written] = await db
        .insert(sandbox_ledger)
        .values({
          provider,
          idempotency_key: req.idempotencyKey,
          request,
          object_id: `payment_${randomBytes(12).toString("hex")}`,
          amount: req.amount,
          currency: "nzd",
          status,
          decline_code: decline?.code ?? null,
          created_at: now,
          // Akahu tells of each change after the first (the answer to the request says that one).
          next_event_at: bankPaymentTimeline(now, status === "PENDING_APPROVAL" ? "approval" : status === "SENT" ? "sent" : "declined")[1].at,
        })
        .onConflictDoNothing()
        .returning();
      const row =
        written ??
        (await db
          .select()
          .from(sandbox_ledger)
          .where(and(eq(sandbox_ledger.provider, provider), eq(sandbox_ledger.idempotency_key, req.idempotencyKey))))[0];
      if (row.amount !== req.amount || row.request.from !== req.fromAccount) {
        throw new ProviderError("This idempotency key was used with a different request (409).", false);
      }
      return sandboxBankPaymentAt(row, now);
    },
    async verifyWebhook(body, keyId, signature) {
      if (!signature) throw new Error("No X-Akahu-Signature header.");
      if (Number(keyId) !== SANDBOX_SIGNING_KEY_ID) throw new Error(`Signing key ${keyId ?? "(none)"} is not the sandbox's key ${SANDBOX_SIGNING_KEY_ID}.`);
      const publicKey = createPublicKey(await sandboxAkahuKey(db, signingKey));
      if (!createVerify("sha256").update(body).end().verify(publicKey, signature, "base64")) throw new Error("The X-Akahu-Signature does not match the body.");
      return JSON.parse(body) as AkahuWebhookPayload;
    },
  };
}

/**
 * The accounts a person has at the sandbox's bank, as Akahu would list them once connected: an everyday account
 * that pays, a bills account whose payments fail for want of funds (its number ends 9995: ../sandbox-accounts.ts),
 * and a savings account payments cannot be made from.
 */
export const SANDBOX_BANK_ACCOUNTS: SharedAccount[] = [
  { id: "acc_sandbox_everyday", name: "Everyday", accountNumber: "12-3140-0071234-00", bank: "ASB (sandbox)", canPay: true },
  { id: "acc_sandbox_bills", name: "Bills", accountNumber: "12-3140-0089995-00", bank: "ASB (sandbox)", canPay: true },
  { id: "acc_sandbox_savings", name: "Savings", accountNumber: "12-3140-0071234-01", bank: "ASB (sandbox)", canPay: false },
];

/** The person allowed access on the sandbox's consent page, sharing these accounts: back to the app with a code. */
export async function allowSandboxConsent(db: Db, id: string, accountIds: string[]): Promise<string | null> {
  const consents = sandboxSessions(db, "akahu", "auth");
  const session = await consents.read(id);
  if (session?.status !== "open") return null;
  const shared = SANDBOX_BANK_ACCOUNTS.filter((a) => accountIds.includes(a.id));
  await consents.finish(id, "complete", { shared });
  return `${session.success_url}${session.success_url.includes("?") ? "&" : "?"}${new URLSearchParams({ code: id, state: session.request.state ?? "" })}`;
}

/** The person declined: back to the app with Akahu's error, as OAuth says. */
export async function denySandboxConsent(db: Db, id: string): Promise<string | null> {
  const consents = sandboxSessions(db, "akahu", "auth");
  const session = await consents.read(id);
  if (!session) return null;
  if (session.status === "open") await consents.finish(id, "cancelled", null);
  return `${session.cancel_url}${session.cancel_url.includes("?") ? "&" : "?"}${new URLSearchParams({ error: "access_denied", state: session.request.state ?? "" })}`;
}
