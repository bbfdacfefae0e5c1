import { randomBytes } from "node:crypto";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { chargeDateFor, directDebitTimeline, statusAt } from "../../../../domain/direct-debit";
import type { Db } from "../../db/client";
import { sandbox_ledger } from "../../db/schema";
import type { SandboxClock } from "../clock";
import { ProviderError } from "../errors";
import { sandboxAccountBehaviour, type SandboxAccountBehaviour } from "../sandbox-accounts";
import { sandboxSessions } from "../sandbox-sessions";
import { sandboxRefunds } from "../refunds";
import type { DirectDebitCollection, DirectDebitPayment, DirectDebitProvider, MandateSetupResult } from "./direct-debit-provider";

/** How the payer's bank answers, as GoCardless reports it (`details.cause` and its description). */
const FAILURES: Partial<Record<SandboxAccountBehaviour, { cause: string; description: string }>> = {
  insufficient_funds: { cause: "insufficient_funds", description: "The customer's account had insufficient funds to make this payment." },
  refused: { cause: "refer_to_payer", description: "The customer's bank wasn't able to pay the Direct Debit. The customer should contact their bank." },
  closed: { cause: "bank_account_closed", description: "The customer's bank account was closed before the payment could be taken." },
  authority_cancelled: { cause: "mandate_cancelled", description: "The mandate for this payment was cancelled at the customer's bank." },
};

const objectId = () => `PM${randomBytes(7).toString("hex").toUpperCase()}`;

type LedgerRow = typeof sandbox_ledger.$inferSelect;

/** A ledger row's payment as GoCardless would show it at `now`: its status walks the BECS NZ timeline. */
export function sandboxDirectDebitAt(row: LedgerRow, now: Date): DirectDebitPayment {
  const chargeDate = String(row.request.charge_date);
  const status = statusAt(directDebitEvents(row), now);
  const late = status === "failed" && row.status !== "failed";
  const failure =
    status === "charged_back"
      ? { cause: "authorisation_disputed", description: "The customer disputed the payment with their bank." }
      : late
        ? { cause: "refer_to_payer", description: "The customer's bank returned the payment after it was confirmed (a late failure)." }
        : status === "failed"
          ? { cause: row.decline_code, description: String(row.request.failure_description ?? "") || null }
          : {};
  return { id: row.object_id, status, chargeDate, ...failure };
}

/**
 * The offline GoCardless. It keeps its own books in `sandbox_ledger` (provider 'gocardless'), outside the caller's
 * transaction, one row per idempotency key: asked again with the same key it answers the payment it created, as
 * GoCardless does. Whether a payment will be paid or fail is settled when it is created, from the mandate's bank
 * account (../sandbox-accounts.ts); when it happens follows the BECS NZ timeline on the sandbox's clock. As a gym's
 * own access token does, it is one creditor's (`creditor`, the gym's GoCardless organisation): it answers only for
 * the payments made for it, and its events name it (links.organisation).
 */
export function sandboxDirectDebits(db: Db, clock: SandboxClock, creditor: string | null = null): DirectDebitProvider {
  const provider = "gocardless";
  const flows = sandboxSessions(db, "gocardless", "BRQ");
  return {
    ...sandboxRefunds(db, "gocardless", clock, creditor),
    async startMandate(req) {
      const account = `${req.account.bank}-${req.account.branch}-${req.account.number}-${req.account.suffix}`;
      const session = await flows.open({
        idempotencyKey: req.idempotencyKey,
        successUrl: req.successUrl,
        cancelUrl: req.cancelUrl,
        request: { email: req.email, name: `${req.givenName} ${req.familyName}`.trim(), account_holder: req.accountHolder, account_number: account, reference: req.reference },
      });
      // "GoCardless's" page is served by this app (app/routes/sandbox.gocardless.flow.$id.tsx).
      return { id: session.id, url: new URL(`/sandbox/gocardless/flow/${session.id}`, req.successUrl).href };
    },
    async readMandate(id): Promise<MandateSetupResult | null> {
      const session = await flows.read(id);
      if (!session) return null;
      if (session.status !== "complete") return { status: session.status === "open" ? "open" : "expired" };
      return {
        status: "complete",
        reference: session.request.reference ?? null,
        mandate: String(session.result!.mandate),
        accountHolder: session.request.account_holder ?? "",
        accountNumber: session.request.account_number ?? "",
      };
    },
    name: provider,
    mode: "sandbox",
    async retrieve(id) {
      const [row] = await db
        .select()
        .from(sandbox_ledger)
        .where(and(eq(sandbox_ledger.provider, provider), eq(sandbox_ledger.object_id, id)));
      if (!row || (row.request.organisation ?? null) !== creditor) return null;
      const made = { amount: row.amount, currency: row.currency, account: null, metadata: (row.request.metadata as Record<string, string> | undefined) ?? {} };
      return { ...sandboxDirectDebitAt(row, clock.now()), made };
    },
    /** As `payments.list({ created_at: { gte, lt } })` with the creditor's token: its payments made in the window. */
    async listPayments(window) {
      const rows = await db
        .select()
        .from(sandbox_ledger)
        .where(and(eq(sandbox_ledger.provider, provider), gte(sandbox_ledger.created_at, window.from), lt(sandbox_ledger.created_at, window.until)))
        .orderBy(sandbox_ledger.id);
      const now = clock.now();
      return rows
        .filter((row) => (row.request.organisation ?? null) === creditor)
        .map((row) => ({
          ...sandboxDirectDebitAt(row, now),
          made: { amount: row.amount, currency: row.currency, account: null, metadata: (row.request.metadata as Record<string, string> | undefined) ?? {} },
          created: row.created_at,
        }));
    },
    /** As the creditor's `charged_back` and `failed` payment events in the window: its payments taken back then. */
    async listTakenBack(window) {
      const rows = await db
        .select()
        .from(sandbox_ledger)
        .where(
          and(
            eq(sandbox_ledger.provider, provider),
            sql`(${sandbox_ledger.request}->'taken_back'->>'at')::timestamptz >= ${window.from.toISOString()}::timestamptz`,
            sql`(${sandbox_ledger.request}->'taken_back'->>'at')::timestamptz < ${window.until.toISOString()}::timestamptz`,
          ),
        )
        .orderBy(sandbox_ledger.id);
      const now = clock.now();
      return rows
        .filter((row) => (row.request.organisation ?? null) === creditor)
        .map((row) => ({
          ...sandboxDirectDebitAt(row, now),
          made: { amount: row.amount, currency: row.currency, account: null, metadata: (row.request.metadata as Record<string, string> | undefined) ?? {} },
          created: new Date(String((row.request.taken_back as { at: string }).at)),
        }));
    },
    async collect(req: DirectDebitCollection) {
      if (!Number.isSafeInteger(req.amount) || req.amount < 1) throw new ProviderError("amount must be a whole number of cents above 0 (validation_failed).", false);
      if (!req.mandate) throw new ProviderError("links.mandate is required (validation_failed).", false);
      const now = clock.now();
      const failure = FAILURES[sandboxAccountBehaviour(req.accountNumber)];
      const chargeDate = chargeDateFor(now, req.chargeDate);
      const request = { amount: req.amount, currency: req.currency, mandate: req.mandate, charge_date: chargeDate, metadata: req.metadata, organisation: creditor, failure_description: failure?.description ?? null };
      const [written] = await db
        .insert(sandbox_ledger)
        .values({
          provider,
          idempotency_key: req.idempotencyKey,
          request,
          object_id: objectId(),
          amount: req.amount,
          currency: req.currency,
          status: failure ? "failed" : "paid_out",
          decline_code: failure?.cause ?? null,
          created_at: now,
          next_event_at: now,
        })
        .onConflictDoNothing()
        .returning();
      const row =
        written ??
        (await db
          .select()
          .from(sandbox_ledger)
          .where(and(eq(sandbox_ledger.provider, provider), eq(sandbox_ledger.idempotency_key, req.idempotencyKey))))[0];
      // GoCardless answers a key used again with the payment it made; other parameters under the same key are a conflict.
      if (row.amount !== req.amount || row.request.mandate !== req.mandate) {
        throw new ProviderError("A payment was already created with this idempotency key and other parameters (idempotent_creation_conflict).", false);
      }
      return sandboxDirectDebitAt(row, now);
    },
  };
}

/** Every status a ledger row's payment passes through, with when (for the sandbox's webhooks). */
export function directDebitEvents(row: LedgerRow) {
  const timeline = directDebitTimeline(row.created_at, String(row.request.charge_date), row.status === "failed" ? "failed" : "paid");
  // A paid payment the payer's bank took back later (`chargeBackSandboxDirectDebit`): charged back, or a late failure.
  const back = row.request.taken_back as { status: "charged_back" | "failed"; at: string; cancelled_at?: string } | undefined;
  if (!back || row.status === "failed") return timeline;
  const taken = [...timeline, { status: back.status, at: new Date(back.at) }];
  // The payer's bank cancelled its chargeback (GoCardless `chargeback_cancelled`): the payment is paid out again.
  return back.cancelled_at ? [...taken, { status: "paid_out" as const, at: new Date(back.cancelled_at) }] : taken;
}

/**
 * The payer's bank takes a paid direct debit back, as GoCardless reports it (payment actions `charged_back`, or
 * `failed` after it was confirmed: a late failure): what a test or the dev pages play. From `at` the sandbox answers
 * the new status, and its webhooks send the event.
 */
export async function chargeBackSandboxDirectDebit(db: Db, id: string, at: Date, status: "charged_back" | "failed" = "charged_back"): Promise<void> {
  await db
    .update(sandbox_ledger)
    .set({
      request: sql`${sandbox_ledger.request} || ${JSON.stringify({ taken_back: { status, at: at.toISOString() } })}::jsonb`,
      next_event_at: sql`coalesce(${sandbox_ledger.next_event_at}, ${at.toISOString()}::timestamptz)`,
    })
    .where(and(eq(sandbox_ledger.provider, "gocardless"), eq(sandbox_ledger.object_id, id)));
}


/** The payer's bank cancels the chargeback of a direct debit it took back (`chargeback_cancelled`): paid out again from `at`. */
export async function cancelSandboxChargeback(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(sandbox_ledger)
    .set({
      request: sql`jsonb_set(${sandbox_ledger.request}, '{taken_back,cancelled_at}', to_jsonb(${at.toISOString()}::text))`,
      next_event_at: sql`least(coalesce(${sandbox_ledger.next_event_at}, ${at.toISOString()}::timestamptz), ${at.toISOString()}::timestamptz)`,
    })
    .where(and(eq(sandbox_ledger.provider, "gocardless"), eq(sandbox_ledger.object_id, id), sql`${sandbox_ledger.request} ? 'taken_back'`));
}

/**
 * The person confirmed the authority on the sandbox's mandate page: GoCardless makes the mandate (its id, MD…). A
 * page cancelled, expired or already done makes nothing.
 */
export async function confirmSandboxMandate(db: Db, id: string): Promise<boolean> {
  const flows = sandboxSessions(db, "gocardless", "BRQ");
  const session = await flows.read(id);
  if (session?.status !== "open") return false;
  await flows.finish(id, "complete", { mandate: `MD${randomBytes(7).toString("hex").toUpperCase()}` });
  return true;
}

export async function cancelSandboxMandate(db: Db, id: string) {
  const flows = sandboxSessions(db, "gocardless", "BRQ");
  if ((await flows.read(id))?.status === "open") await flows.finish(id, "cancelled", null);
}
