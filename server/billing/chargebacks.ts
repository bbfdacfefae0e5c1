import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { formatDate, formatDay, localDay, startOfLocalDay } from "../../domain/dates";
import { graceEnds, type GraceUnit } from "../../domain/failures";
import { formatCents } from "../../domain/money";
import type { LocalDay } from "../../domain/periods";
import type { ChargebackStatus } from "../../domain/refunds";
import type { Db } from "../core/db/client";
import { organisations, payment_adjustments, payments, subscription_events, subscriptions } from "../core/db/schema";
import { nextAttemptOf } from "./plan";
import { settleIfPaidUp } from "./settle";

/**
 * Chargebacks (issue 28): a paid payment the payer's bank took back (a Stripe dispute, a GoCardless direct debit
 * charged back). One place for both providers' events (server/webhooks/adjustments.ts), which call it only with the
 * provider's own answer. A chargeback is its own payment_adjustments row (kind chargeback, source provider), found
 * again by its provider id, and it only moves forward: open → won | lost, decided once. The paid payment stays paid
 * (its money was collected); the revenue rollup takes a lost chargeback off on the day it was lost (settled_at).
 *
 * A lost chargeback makes the amount owing again, as a failed charge does: the period gets a new attempt, failed
 * with `charged_back` (a hard decline: the member's card or account is not charged again by the engine; staff take
 * it, or the member pays it), so the period's latest attempt is failed and everything that reads debt (the billing
 * run, the status card, "take the balance owing", the grace-ending e-mail) sees it. The grace period starts as for a
 * failed charge: the organisation's (or its term memberships') from today, unless one runs already.
 *
 * A lost chargeback can still be undone: the payer's bank cancels it (GoCardless `chargeback_cancelled`) or the gym
 * wins on appeal (a Stripe dispute lost, then won): the money is the gym's again. The row moves lost → won (the rollup
 * puts the amount back), the debt it opened goes (its unpaid attempts are removed, and the grace period ends when
 * nothing else is owed), and the history says so. If the member paid that debt meanwhile, they paid twice: the
 * history says to refund them (staff decide how).
 */
export interface Chargeback {
  paymentId: number;
  method: "stripe" | "gocardless";
  /** The provider's dispute id (Stripe), or ours for a direct debit charged back (`{payment}:chargeback`). */
  providerId: string;
  status: ChargebackStatus;
  amount: number;
  reason: string | null;
  /** Why the period is owed again, in words, for the failed attempt (error_description). */
  description: string;
}

export interface ChargebackWritten {
  adjustment: typeof payment_adjustments.$inferSelect;
  /** recorded: new; decided: an open one won or lost now; reversed: a lost one won after all; unchanged: told again. */
  change: "recorded" | "decided" | "reversed" | "unchanged";
  /** When this write lost it: the period's new failed attempt, and the day access stops unless it is paid. */
  owed: { attemptId: number | null; accessUntil: LocalDay | null } | null;
  /** When this write reversed it: the unpaid attempts removed, and whether the member had paid the debt already. */
  undone: { removed: number; paidTwice: boolean } | null;
}

/** A Stripe dispute of one of our payments, as a chargeback (the webhooks' and the reconciliation's words alike). */
export function disputeChargeback(paymentId: number, d: { id: string; status: ChargebackStatus; amount: number; reason: string | null }): Chargeback {
  const why = d.reason ? ` (${d.reason.replace(/_/g, " ")})` : "";
  return {
    paymentId,
    method: "stripe",
    providerId: d.id,
    status: d.status,
    amount: d.amount,
    reason: d.reason,
    description: `The member disputed the card payment with their bank${why} and the bank took back ${formatCents(d.amount)}.`,
  };
}

/**
 * A paid direct debit GoCardless says was charged back (the payer's bank took it back under the direct debit
 * guarantee) or failed late (returned after it was confirmed): the money is gone, for the whole payment, and
 * GoCardless chargebacks are final: lost. `said`: GoCardless's description, when the payment's state has none.
 */
export function directDebitChargeback(paymentId: number, current: { id: string; status: string; cause?: string | null; description?: string | null; made: { amount: number } }, said?: string | null): Chargeback {
  const chargedBack = current.status === "charged_back";
  const words = current.description ?? said;
  return {
    paymentId,
    method: "gocardless",
    providerId: `${current.id}:${chargedBack ? "chargeback" : "late_failure"}`,
    status: "lost",
    amount: current.made.amount,
    reason: current.cause ?? (chargedBack ? "charged_back" : "late_failure"),
    description: `${chargedBack ? "The member's bank took the direct debit back (charged back, disputed)" : "The member's bank returned the direct debit after it was confirmed (a late failure)"}${words ? `: ${words}` : "."}`,
  };
}

export async function recordChargeback(db: Db, c: Chargeback, now: Date): Promise<ChargebackWritten> {
  return db.transaction(async (tx) => {
    // The payment's row is locked while its chargeback is written: two deliveries of one dispute take turns.
    const [p] = await tx.select().from(payments).where(eq(payments.id, c.paymentId)).for("update");
    if (!p) throw new Error(`Payment ${c.paymentId} is gone.`);
    const sameChargeback = and(eq(payment_adjustments.method, c.method), eq(payment_adjustments.provider_id, c.providerId));
    const [held] = await tx.select().from(payment_adjustments).where(sameChargeback);
    const decided = c.status === "open" ? null : now;
    let written: typeof payment_adjustments.$inferSelect | undefined;
    let change: ChargebackWritten["change"] = "unchanged";
    if (!held) {
      [written] = await tx
        .insert(payment_adjustments)
        .values({
          organisation_id: p.organisation_id,
          gym_id: p.gym_id,
          user_id: p.user_id,
          payment_id: p.id,
          kind: "chargeback",
          status: c.status,
          amount: c.amount,
          reason: c.reason,
          source: "provider",
          method: c.method,
          provider_id: c.providerId,
          settled_at: decided,
          created_at: now,
        })
        .onConflictDoNothing()
        .returning();
      if (written) change = "recorded";
    } else if (held.kind === "chargeback" && held.payment_id === p.id && held.status === "open" && c.status !== "open") {
      [written] = await tx
        .update(payment_adjustments)
        .set({ status: c.status, amount: c.amount, settled_at: decided })
        .where(and(eq(payment_adjustments.id, held.id), eq(payment_adjustments.status, "open")))
        .returning();
      if (written) change = "decided";
    } else if (held.kind === "chargeback" && held.payment_id === p.id && held.status === "lost" && c.status === "won") {
      [written] = await tx
        .update(payment_adjustments)
        .set({ status: "won", settled_at: now, note: `Reversed by the bank after it was lost${held.settled_at ? ` on ${formatDate(held.settled_at)}` : ""}.` })
        .where(and(eq(payment_adjustments.id, held.id), eq(payment_adjustments.status, "lost")))
        .returning();
      if (written) change = "reversed";
    }
    const adjustment = written ?? held ?? (await tx.select().from(payment_adjustments).where(sameChargeback))[0];
    const owed = written?.status === "lost" ? await oweAgain(tx as unknown as Db, p, c, now) : null;
    const undone = change === "reversed" ? await oweNoMore(tx as unknown as Db, p, adjustment, now) : null;
    return { adjustment, change, owed, undone };
  });
}

/** The charged-back amount owed again for the payment's period, and the grace period started (see above). */
async function oweAgain(db: Db, p: typeof payments.$inferSelect, c: Chargeback, now: Date): Promise<ChargebackWritten["owed"]> {
  let attemptId: number | null = null;
  let accessUntil: LocalDay | null = null;
  const on = formatDate(p.created_at);
  if (p.subscription_id && p.period_start_at) {
    const [{ last }] = await db
      .select({ last: sql<number>`max(${payments.attempt})`.mapWith(Number) })
      .from(payments)
      .where(and(eq(payments.subscription_id, p.subscription_id), eq(payments.period_start_at, p.period_start_at)));
    const [attempt] = await db
      .insert(payments)
      .values({
        ...nextAttemptOf(p, (last ?? p.attempt) + 1, now),
        amount: c.amount,
        surcharge: 0,
        status: "failed",
        error_status: "charged_back",
        error_description: c.description,
        failed_at: now,
        idempotency_key: null,
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    attemptId = attempt?.id ?? null;
    const [org] = await db
      .select({ amount: organisations.failed_payment_grace_period, unit: organisations.failed_payment_grace_period_unit, termAmount: organisations.term_membership_grace_period, termUnit: organisations.term_membership_grace_period_unit })
      .from(organisations)
      .where(eq(organisations.id, p.organisation_id));
    const ends = p.is_term_membership ? graceEnds(localDay(now), org.termAmount, org.termUnit as GraceUnit) : graceEnds(localDay(now), org.amount, org.unit as GraceUnit);
    // As a failed charge: a running grace period is not extended, and a membership stopped already stays stopped.
    const [started] = await db
      .update(subscriptions)
      .set({ grace_period_ends_at: startOfLocalDay(ends), updated_at: now })
      .where(and(eq(subscriptions.id, p.subscription_id), isNull(subscriptions.grace_period_ends_at), isNull(subscriptions.upcoming_state)))
      .returning({ ends: subscriptions.grace_period_ends_at });
    const [running] = started ? [started] : await db.select({ ends: subscriptions.grace_period_ends_at }).from(subscriptions).where(eq(subscriptions.id, p.subscription_id));
    accessUntil = running?.ends ? localDay(running.ends) : null;
  }
  await db.insert(subscription_events).values({
    organisation_id: p.organisation_id,
    subscription_id: p.subscription_id,
    user_id: p.user_id,
    actor_id: null,
    action: "payment.charged_back",
    summary: `The member's bank took back ${formatCents(c.amount)} of the payment on ${on}${c.reason ? ` (${c.reason.replace(/_/g, " ")})` : ""}: ${attemptId ? "owing again" : "to be settled with the member"}.`,
  });
  return { attemptId, accessUntil };
}

/**
 * A lost chargeback reversed: the period's attempts after the paid one exist only for the debt it opened (the paid
 * payment was the period's last attempt until then). Unpaid ones are removed, so the paid payment is the period's
 * latest attempt again and nothing is owed for it; the grace period ends when nothing else is (settleIfPaidUp). One
 * paid or under way means the member paid the debt: nothing is removed, and the history says to refund them.
 */
async function oweNoMore(db: Db, p: typeof payments.$inferSelect, a: typeof payment_adjustments.$inferSelect, now: Date): Promise<ChargebackWritten["undone"]> {
  let removed = 0;
  let paidTwice = false;
  if (p.subscription_id && p.period_start_at) {
    const later = and(eq(payments.subscription_id, p.subscription_id), eq(payments.period_start_at, p.period_start_at), gt(payments.attempt, p.attempt));
    const attempts = await db.select({ id: payments.id, status: payments.status }).from(payments).where(later);
    paidTwice = attempts.some((x) => x.status !== "failed");
    if (!paidTwice && attempts.length) {
      removed = (await db.delete(payments).where(and(later, inArray(payments.id, attempts.map((x) => x.id)), eq(payments.status, "failed"))).returning({ id: payments.id })).length;
      await settleIfPaidUp(db, p.subscription_id, now);
    }
  }
  await db.insert(subscription_events).values({
    organisation_id: p.organisation_id,
    subscription_id: p.subscription_id,
    user_id: p.user_id,
    actor_id: null,
    action: "payment.chargeback_reversed",
    summary: `The member's bank reversed its chargeback of ${formatCents(a.amount)} of the payment on ${formatDate(p.created_at)}: the money is the gym's again${
      paidTwice ? `, and the member has paid that amount again since: refund them ${formatCents(a.amount)}.` : removed ? ", and nothing is owed for it any more." : "."
    }`,
  });
  return { removed, paidTwice };
}

/** A chargeback's outcome in words, for the webhook call's result. `what`: how the provider names it ("Dispute dp_…"). */
export function chargebackInWords(what: string, w: ChargebackWritten): string {
  const amount = formatCents(w.adjustment.amount);
  if (w.change === "unchanged") return `${what} is ${w.adjustment.status} already; nothing changes.`;
  if (w.adjustment.status === "open") return `${what} open: ${amount} disputed at the member's bank; nothing is owed unless it is lost.`;
  if (w.change === "reversed") return `${what} reversed after it was lost: ${amount} is the gym's again; ${w.undone?.paidTwice ? "the member had paid it again since: refund them." : "nothing is owed for it any more."}`;
  if (w.adjustment.status === "won") return `${what} won: ${amount} stays the gym's; nothing is owed.`;
  if (!w.owed?.attemptId) return `${what} lost: ${amount} charged back; it is not a membership's period, so staff settle it with the member.`;
  return `${what} lost: ${amount} charged back, owing again (payment ${w.owed.attemptId}, a hard decline: not charged again by the billing run)${w.owed.accessUntil ? `; access stops on ${formatDay(w.owed.accessUntil)} unless it is paid` : ""}.`;
}
