import { randomBytes } from "node:crypto";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { sandbox_ledger } from "../db/schema";
import type { CreatedBetween } from "./charge-result";
import type { SandboxClock } from "./clock";
import { ProviderError } from "./errors";

/**
 * Refunds, as the card and direct-debit providers make them (issue 28). Amounts are integer cents. A refund is asked
 * with our idempotency key (asked twice, refunded once) against the provider's own payment (Stripe's intent,
 * GoCardless's payment), and its state is read back from the provider: a refund may take days (a direct debit's
 * refund is paid out with the creditor's next payout), so ours waits as pending until the provider says.
 */
export interface RefundRequest {
  /** The provider's payment the refund is of: pi_… (Stripe) or PM… (GoCardless). */
  paymentReference: string;
  amount: number;
  currency: "nzd";
  /** The gym's Stripe Connect account the intent lives on. */
  account?: string | null;
  /** What was refunded of this payment before this one (GoCardless asks for the running total to confirm it). */
  refundedBefore: number;
  idempotencyKey: string;
  reason?: string | null;
  metadata: Record<string, string>;
}

export interface ProviderRefund {
  id: string;
  status: "pending" | "succeeded" | "failed";
  amount: number;
  /** The provider's payment it refunds. */
  paymentReference: string;
  failureReason?: string | null;
  metadata: Record<string, string>;
  /** When the provider made it (its list calls answer it). */
  created?: Date | null;
}

export interface Refunding {
  refund(request: RefundRequest): Promise<ProviderRefund>;
  /** The refund's state now, or null when the provider knows no such refund on that account. */
  retrieveRefund(id: string, account?: string | null): Promise<ProviderRefund | null>;
  /** Every refund the provider holds of one of its payments: a refund made in its dashboard is learnt from here. */
  listRefunds(paymentReference: string, account?: string | null): Promise<ProviderRefund[]>;
  /** Every refund made in the window on that account (or creditor), whichever payment it is of: what a reconciliation reads. */
  listRefundsBetween(window: CreatedBetween, account?: string | null): Promise<ProviderRefund[]>;
}

/** A disputed card payment as Stripe reports it (needs_response, under_review… are open; won and lost are final). */
export interface ProviderDispute {
  id: string;
  status: "open" | "won" | "lost";
  amount: number;
  paymentReference: string;
  reason: string | null;
  /** When the payer's bank opened it (the list call answers it). */
  created?: Date | null;
}

export interface Disputes {
  /** The dispute's state now, on the account it belongs to, or null when the provider knows none. */
  retrieveDispute(id: string, account?: string | null): Promise<ProviderDispute | null>;
  /** Every dispute opened on the account in the window, in its state now: what a reconciliation reads. */
  listDisputesBetween(window: CreatedBetween, account?: string | null): Promise<ProviderDispute[]>;
}

const LEDGER = { stripe: "stripe_refund", gocardless: "gocardless_refund" } as const;
const DISPUTES = "stripe_dispute";

/**
 * The sandboxes' refunds, in their own books (`sandbox_ledger`, under `stripe_refund` / `gocardless_refund`, so the
 * charge ledgers are untouched): a card refund succeeds at once, as Stripe's usually do; a direct debit's is paid a
 * day after it is made, on the sandbox's clock (`GOCARDLESS_REFUND_PAID_AFTER_MS`). The same key with other
 * parameters is refused. Each is told by webhook as the real ones are (../sandbox-webhooks.ts), whoever made it.
 */
export const GOCARDLESS_REFUND_PAID_AFTER_MS = 86_400_000;

export function sandboxRefunds(db: Db, service: "stripe" | "gocardless", clock: SandboxClock, scope: string | null = null): Refunding {
  const provider = LEDGER[service];
  const prefix = service === "stripe" ? "re_sandbox_" : "RF";
  const answer = (row: typeof sandbox_ledger.$inferSelect): ProviderRefund => {
    const paidAt = row.created_at.getTime() + GOCARDLESS_REFUND_PAID_AFTER_MS;
    return {
      id: row.object_id,
      status: service === "stripe" || clock.now().getTime() >= paidAt ? "succeeded" : "pending",
      amount: row.amount,
      paymentReference: String(row.request.payment),
      metadata: (row.request.metadata as Record<string, string> | undefined) ?? {},
      created: row.created_at,
    };
  };
  const mine = (row: typeof sandbox_ledger.$inferSelect, account?: string | null) => (row.request.scope ?? null) === (account ?? scope ?? null);
  return {
    async refund(req) {
      if (!Number.isSafeInteger(req.amount) || req.amount < 1) throw new ProviderError("Refund amount must be a positive whole number of cents.", false);
      // As the real services: a payment they never made cannot be refunded, nor more of it than is left. The demo's
      // seeded history (pi_demo…, PM00…) was "charged" before the sandbox kept books, so it is taken on trust.
      const [charge] = await db.select().from(sandbox_ledger).where(and(eq(sandbox_ledger.provider, service), eq(sandbox_ledger.object_id, req.paymentReference)));
      if (!charge && !/^(pi_demo|PM00)/.test(req.paymentReference)) throw new ProviderError(`No such payment: '${req.paymentReference}'`, false);
      const [done] = await db.select().from(sandbox_ledger).where(and(eq(sandbox_ledger.provider, provider), eq(sandbox_ledger.idempotency_key, req.idempotencyKey)));
      if (charge && !done) {
        const [{ refunded }] = await db
          .select({ refunded: sql<number>`coalesce(sum(${sandbox_ledger.amount}), 0)::int` })
          .from(sandbox_ledger)
          .where(and(eq(sandbox_ledger.provider, provider), sql`${sandbox_ledger.request}->>'payment' = ${req.paymentReference}`));
        if (refunded + req.amount > charge.amount) throw new ProviderError(`Refund amount (${req.amount}) is greater than the unrefunded amount (${charge.amount - refunded}).`, false);
      }
      const request = { payment: req.paymentReference, amount: req.amount, metadata: req.metadata, scope: req.account ?? scope ?? null, reason: req.reason ?? null };
      const [written] = await db
        .insert(sandbox_ledger)
        .values({
          provider,
          idempotency_key: req.idempotencyKey,
          request,
          object_id: `${prefix}${randomBytes(8).toString("hex").toUpperCase()}`,
          amount: req.amount,
          currency: req.currency,
          status: "refund",
          // Its webhooks (charge.refunded; GoCardless's refunds created and paid) are owed from now (../sandbox-webhooks.ts).
          next_event_at: clock.now(),
          created_at: clock.now(),
        })
        .onConflictDoNothing()
        .returning();
      const row = written ?? (await db.select().from(sandbox_ledger).where(and(eq(sandbox_ledger.provider, provider), eq(sandbox_ledger.idempotency_key, req.idempotencyKey))))[0];
      if (row.amount !== req.amount || row.request.payment !== req.paymentReference) {
        throw new ProviderError("Keys for idempotent requests can only be used with the same parameters they were first used with.", false);
      }
      return answer(row);
    },
    async retrieveRefund(id, account) {
      const [row] = await db.select().from(sandbox_ledger).where(and(eq(sandbox_ledger.provider, provider), eq(sandbox_ledger.object_id, id)));
      return row && mine(row, account) ? answer(row) : null;
    },
    async listRefunds(paymentReference, account) {
      const rows = await db
        .select()
        .from(sandbox_ledger)
        .where(and(eq(sandbox_ledger.provider, provider), sql`${sandbox_ledger.request}->>'payment' = ${paymentReference}`))
        .orderBy(sandbox_ledger.id);
      return rows.filter((row) => mine(row, account)).map(answer);
    },
    async listRefundsBetween(window, account) {
      const rows = await db
        .select()
        .from(sandbox_ledger)
        .where(and(eq(sandbox_ledger.provider, provider), gte(sandbox_ledger.created_at, window.from), lt(sandbox_ledger.created_at, window.until)))
        .orderBy(sandbox_ledger.id);
      return rows.filter((row) => mine(row, account)).map(answer);
    },
  };
}

/** The sandbox Stripe's disputes: opened by a test or the dev pages as a payer's bank would (`openSandboxDispute`). */
export function sandboxDisputes(db: Db): Disputes {
  const answer = (row: typeof sandbox_ledger.$inferSelect): ProviderDispute => ({
    id: row.object_id,
    status: row.status as ProviderDispute["status"],
    amount: row.amount,
    paymentReference: String(row.request.payment),
    reason: (row.request.reason as string | null) ?? null,
    created: row.created_at,
  });
  const mine = (row: typeof sandbox_ledger.$inferSelect, account?: string | null) => (row.request.account ?? null) === (account ?? null);
  return {
    async retrieveDispute(id, account) {
      const [row] = await db.select().from(sandbox_ledger).where(and(eq(sandbox_ledger.provider, DISPUTES), eq(sandbox_ledger.object_id, id)));
      return row && mine(row, account) ? answer(row) : null;
    },
    /** As `disputes.list({ created: { gte, lt } })` on the account. */
    async listDisputesBetween(window, account) {
      const rows = await db
        .select()
        .from(sandbox_ledger)
        .where(and(eq(sandbox_ledger.provider, DISPUTES), gte(sandbox_ledger.created_at, window.from), lt(sandbox_ledger.created_at, window.until)))
        .orderBy(sandbox_ledger.id);
      return rows.filter((row) => mine(row, account)).map(answer);
    },
  };
}

/** A payer's bank disputes a card payment at the sandbox Stripe, or decides one (won or lost): what a test plays. */
export async function openSandboxDispute(db: Db, d: { paymentReference: string; amount: number; account: string | null; reason?: string; at?: Date }): Promise<string> {
  const id = `dp_sandbox_${randomBytes(8).toString("hex")}`;
  await db.insert(sandbox_ledger).values({
    provider: DISPUTES,
    idempotency_key: id,
    request: { payment: d.paymentReference, account: d.account, reason: d.reason ?? "fraudulent" },
    object_id: id,
    amount: d.amount,
    currency: "nzd",
    status: "open",
    next_event_at: null,
    ...(d.at ? { created_at: d.at } : {}),
  });
  return id;
}

export async function decideSandboxDispute(db: Db, id: string, status: "won" | "lost"): Promise<void> {
  await db.update(sandbox_ledger).set({ status }).where(and(eq(sandbox_ledger.provider, DISPUTES), eq(sandbox_ledger.object_id, id)));
}

/** Stripe's refund status as ours: pending and requires_action are still on their way; failed and canceled did not happen. */
export function stripeRefundStatus(status: string | null): ProviderRefund["status"] {
  if (status === "succeeded") return "succeeded";
  if (status === "failed" || status === "canceled") return "failed";
  return "pending";
}

/** GoCardless's refund status as ours (created, pending_submission, submitted… are on their way; paid and refund_settled are done). */
export function gocardlessRefundStatus(status: string | null): ProviderRefund["status"] {
  if (status === "paid" || status === "refund_settled") return "succeeded";
  if (status === "failed" || status === "cancelled" || status === "bounced") return "failed";
  return "pending";
}

/** Stripe's dispute status as ours. */
export function stripeDisputeStatus(status: string): ProviderDispute["status"] {
  if (status === "won" || status === "warning_closed") return "won";
  if (status === "lost") return "lost";
  return "open";
}
