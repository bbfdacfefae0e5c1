import { sql } from "drizzle-orm";
import { startOfLocalDay } from "../../domain/dates";
import type { LocalDay } from "../../domain/periods";
import type { Db } from "../db/client";
import { rowsOf, unnestRows } from "../db/values";
import { latestAttempt } from "./plan";

/**
 * What a provider said about our payments, written down: the one place a payment becomes paid or failed and a
 * subscription's grace period starts or ends (the billing run now; provider webhooks call it too). Set-based, one
 * transaction per batch. A payment's state only moves forward: only a `pending` payment is settled here.
 */
export type ProviderName = "stripe" | "gocardless";

export type ChargeOutcome =
  | { kind: "paid"; paymentId: number; subscriptionId: number | null; provider: ProviderName; reference: string }
  | {
      kind: "failed";
      paymentId: number;
      subscriptionId: number | null;
      provider: ProviderName;
      reference: string | null;
      code: string;
      message: string;
      /** The day access stops if this stays unpaid (domain/failures.ts graceEnds): a running grace period is not extended. */
      graceEnds: LocalDay;
    }
  /** Accepted, not settled yet (3-D Secure, a direct debit on its way): its reference is kept for the webhook. */
  | { kind: "processing"; paymentId: number; provider: ProviderName; reference: string }
  /** Paid by the member from their bank (an automatic payment to the gym's account): nothing to charge; it waits to be seen arriving. */
  | { kind: "awaiting"; paymentId: number };

const stripeRef = (o: { provider: ProviderName; reference: string | null }) => (o.provider === "stripe" ? o.reference : null);
const gocardlessRef = (o: { provider: ProviderName; reference: string | null }) => (o.provider === "gocardless" ? o.reference : null);

export async function recordOutcomes(db: Db, outcomes: ChargeOutcome[]): Promise<void> {
  if (!outcomes.length) return;
  const paid = outcomes.filter((o) => o.kind === "paid");
  const failed = outcomes.filter((o) => o.kind === "failed");
  const processing = outcomes.filter((o) => o.kind === "processing");
  const awaiting = outcomes.filter((o) => o.kind === "awaiting");
  await db.transaction(async (tx) => {
    if (paid.length || processing.length || awaiting.length) {
      const rows = [
        ...paid.map((o) => [o.paymentId, "sent", stripeRef(o), gocardlessRef(o)]),
        ...processing.map((o) => [o.paymentId, "pending", stripeRef(o), gocardlessRef(o)]),
        ...awaiting.map((o) => [o.paymentId, "awaiting_payment", null, null]),
      ];
      await tx.execute(sql`
        update payments p set status = v.status,
          stripe_id = coalesce(v.stripe_id, p.stripe_id), gocardless_payment_id = coalesce(v.gocardless_payment_id, p.gocardless_payment_id)
        from ${unnestRows(rows, ["int", "text", "text", "text"])} v(id, status, stripe_id, gocardless_payment_id)
        where p.id = v.id and p.status = 'pending'`);
    }
    if (failed.length) {
      const rows = failed.map((o) => [o.paymentId, stripeRef(o), gocardlessRef(o), o.code, o.message]);
      await tx.execute(sql`
        update payments p set status = 'failed', error_status = v.code, error_description = v.message,
          stripe_id = coalesce(v.stripe_id, p.stripe_id), gocardless_payment_id = coalesce(v.gocardless_payment_id, p.gocardless_payment_id)
        from ${unnestRows(rows, ["int", "text", "text", "text", "text"])} v(id, stripe_id, gocardless_payment_id, code, message)
        where p.id = v.id and p.status = 'pending'`);
      // The member keeps access until the grace period ends; the earliest end wins when a batch holds two failures.
      const graces = new Map<number, LocalDay>();
      for (const o of failed) {
        if (o.subscriptionId && (!graces.has(o.subscriptionId) || o.graceEnds < graces.get(o.subscriptionId)!)) graces.set(o.subscriptionId, o.graceEnds);
      }
      if (graces.size) {
        await tx.execute(sql`
          update subscriptions s set grace_period_ends_at = v.ends, updated_at = now()
          from ${unnestRows([...graces].map(([id, day]) => [id, startOfLocalDay(day)]), ["int", "timestamptz"])} v(id, ends)
          where s.id = v.id and s.grace_period_ends_at is null and s.upcoming_state is null`);
      }
    }
    // Paid up again: the grace period ends once no period's latest attempt has failed.
    const cleared = [...new Set(paid.map((o) => o.subscriptionId).filter((id): id is number => id !== null))];
    if (cleared.length) {
      await tx.execute(sql`
        update subscriptions s set grace_period_ends_at = null, updated_at = now()
        where s.id in ${sql`(${sql.join(cleared.map((id) => sql`${id}`), sql`, `)})`} and s.grace_period_ends_at is not null
          and not exists (select 1 from payments where payments.subscription_id = s.id and payments.status = 'failed' and ${latestAttempt})`);
    }
  });
}

/**
 * Grace periods that ran out unpaid (issue 11): access stops. The subscription's grace period ends and it becomes
 * `upcoming_state = 'failed'` (SPEC §4: Upcoming, value failed), so its state, the status card and the door all
 * say the member is not paid up; it is not charged or retried again until staff or the member settle it (issue 12).
 * A cancelled subscription keeps its grace date: "cancelled while in a grace period" is how its card shows red.
 */
export async function endLapsedGraces(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx.execute(sql`
      update subscriptions set upcoming_state = 'failed', grace_period_ends_at = null, updated_at = now()
      where grace_period_ends_at <= ${now.toISOString()}::timestamptz and cancelled_at is null and upcoming_state is null
      returning id`);
    return rowsOf(ended).length;
  });
}
