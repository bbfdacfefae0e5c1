import { and, asc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { formatDate } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import { adjustmentInWords, isProviderMethod, REFUND_METHOD_LABELS, REFUND_REASON_LABELS, refundErrors, refundable, refundMethodFor, type AdjustmentFacts, type RefundMethod } from "../../domain/refunds";
import type { RefundRequest } from "../../domain/schemas/refunds";
import { invalid } from "../core/errors";
import type { Db } from "../core/db/client";
import { billing_notices, gyms, payment_adjustments, payment_types, payments, subscriptions, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { chargebackMail, refundMail } from "../member-mail/templates";
import { brandFor, type MemberMailer } from "../member-mail/brand";
import { logWarning } from "../core/observability/log";
import { ProviderError } from "../core/providers/errors";
import type { Providers } from "../core/providers/registry";
import type { ProviderRefund, Refunding } from "../core/providers/refunds";
import { recordEvent } from "../core/membership-history";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * Refunds staff give (issue 28), as charges are made: written down first (`pending`, with its key) in the request's
 * transaction, under a lock on the payment so two refunds at once cannot give back more than was paid; the provider is
 * asked after the commit with the same key, and the refund settles only on the provider's answer. A refund the
 * provider could not be asked about stays pending and is asked again by each billing run (`pursueRefunds`). Money
 * given back by hand (cash, EFTPOS, a bank transfer from the gym) is done when recorded.
 */
type Payment = typeof payments.$inferSelect;

export async function adjustmentsOf(db: Db, paymentId: number) {
  return db.select().from(payment_adjustments).where(eq(payment_adjustments.payment_id, paymentId)).orderBy(asc(payment_adjustments.id));
}

/** The payment staff want to refund, with what the rules need; null when it is not this organisation's. */
export async function refundTarget(t: Tenant, paymentId: number, lock = false) {
  const q = t.db
    .select({ p: payments, kind: payment_types.type, gym: { id: gyms.id, name: gyms.name, stripe_id: gyms.stripe_id } })
    .from(payments)
    .innerJoin(gyms, eq(gyms.id, payments.gym_id))
    .leftJoin(payment_types, eq(payment_types.id, payments.payment_type_id))
    .where(t.where(payments, eq(payments.id, paymentId)));
  const [row] = lock ? await q.for("update", { of: payments }) : await q;
  if (!row) return null;
  const adjustments = await t.db.select().from(payment_adjustments).where(t.where(payment_adjustments, eq(payment_adjustments.payment_id, paymentId))).orderBy(asc(payment_adjustments.id));
  return { ...row, adjustments };
}

type Target = NonNullable<Awaited<ReturnType<typeof refundTarget>>>;

const paidOf = (p: Payment) => p.amount + p.surcharge;

/** What a refund would do, for the preview and for the answer: the amount, how it goes back, what is left after. */
export function refundEffect(target: Target, req: Pick<RefundRequest, "amount" | "reason">) {
  const method = refundMethodFor({ paymentKind: target.kind, pifPayment: target.p.pif_payment });
  const paid = paidOf(target.p);
  const errors = refundErrors({ status: target.p.status, paid }, target.adjustments, req.amount);
  if (errors) throw invalid(errors);
  const { left } = refundable(paid, target.adjustments);
  return {
    payment_id: target.p.id,
    amount: req.amount,
    paid,
    left_before: left,
    left_after: left - req.amount,
    method,
    method_label: REFUND_METHOD_LABELS[method],
    reason_label: REFUND_REASON_LABELS[req.reason],
    /** Refunds through a provider are settled by its answer; the others are done as soon as they are recorded. */
    through_provider: isProviderMethod(method),
    /** What the member is told (the e-mail's first lines). */
    member_sees: `${target.gym.name} has refunded ${formatCents(req.amount)} of your payment of ${formatCents(paid)} on ${formatDate(target.p.created_at)}. ${REFUND_METHOD_LABELS[method]}.`,
  };
}

/**
 * Writes the refund down (the request's transaction): once per form (its key), never more than is left of the
 * payment, the payment's row locked while it is decided. Answers the refund and whether it was made before.
 */
export async function applyRefund(t: Tenant, paymentId: number, req: RefundRequest, actorId: number | null, now: Date) {
  const key = `refund:${paymentId}:${req.key}`;
  const target = await refundTarget(t, paymentId, true);
  if (!target) return null;
  // Looked for under the lock: a double click waits for the first, then finds it.
  const earlier = target.adjustments.find((a) => a.idempotency_key === key);
  if (earlier) return { refund: earlier, effect: null, repeated: true };
  const effect = refundEffect(target, req);
  const [refund] = await t.db
    .insert(payment_adjustments)
    .values(
      t.owned({
        gym_id: target.p.gym_id,
        user_id: target.p.user_id,
        payment_id: target.p.id,
        kind: "refund" as const,
        status: effect.through_provider ? ("pending" as const) : ("succeeded" as const),
        amount: req.amount,
        reason: req.reason,
        note: req.note ?? null,
        source: "staff" as const,
        actor_id: actorId,
        method: effect.method,
        idempotency_key: key,
        settled_at: effect.through_provider ? null : now,
        created_at: now,
      }),
    )
    .returning();
  // Money given back at the desk (cash, a transfer) is refunded as it is written down; a provider's when it answers.
  if (refund.status === "succeeded") await recordWebhookEvent(t, "payment.refunded", target.p.id, now);
  await recordEvent(t, {
    subscriptionId: target.p.subscription_id,
    userId: target.p.user_id,
    actorId,
    action: "payment.refund",
    summary: `Refund of ${formatCents(req.amount)} of the payment of ${formatCents(effect.paid)} on ${formatDate(target.p.created_at)}: ${effect.reason_label.toLowerCase()}${req.note ? ` (${req.note})` : ""}. ${effect.method_label}.`,
  });
  return { refund, effect, repeated: false };
}

/** The provider a refund goes through, and the reference of the payment at it. */
function refundRail(providers: Providers, method: RefundMethod, p: Payment, gym: { stripe_id: string | null; gocardless_organisation_id: string | null; integrations: unknown }) {
  if (method === "stripe") return { rail: providers.cards as Refunding, reference: p.stripe_id, account: gym.stripe_id };
  if (method === "gocardless") return { rail: providers.directDebit(gym as Parameters<Providers["directDebit"]>[0]) as Refunding, reference: p.gocardless_payment_id, account: null };
  return null;
}

/**
 * Asks the providers about refunds still pending: one never sent (or whose answer was lost) goes with its key
 * again, and the provider answers what it did the first time; one sent is read back. The answers are written down,
 * and each refund that settled is e-mailed to its member. `only`: these refunds (a request's, after its commit).
 */
export async function pursueRefunds(db: Db, providers: Providers, tell: MemberMailer | null, now: Date, only?: number[]): Promise<{ succeeded: number; failed: number; pending: number }> {
  const report = { succeeded: 0, failed: 0, pending: 0 };
  const rows = await db
    .select({ a: payment_adjustments, p: payments, gym: { name: gyms.name, stripe_id: gyms.stripe_id, gocardless_organisation_id: gyms.gocardless_organisation_id, integrations: gyms.integrations } })
    .from(payment_adjustments)
    .innerJoin(payments, eq(payments.id, payment_adjustments.payment_id))
    .innerJoin(gyms, eq(gyms.id, payment_adjustments.gym_id))
    .where(and(eq(payment_adjustments.kind, "refund"), eq(payment_adjustments.status, "pending"), gt(payment_adjustments.id, 0), only ? inArray(payment_adjustments.id, only.length ? only : [0]) : undefined))
    .orderBy(asc(payment_adjustments.id))
    .limit(1_000);
  for (const { a, p, gym } of rows) {
    const route = refundRail(providers, a.method as RefundMethod, p, gym);
    let answer: ProviderRefund | null = null;
    let refused: string | null = null;
    try {
      if (!route) refused = "This refund has no provider to go through.";
      else if (!route.reference) refused = "The payment has no reference at its provider: refund it by hand.";
      else if (a.provider_id) answer = await route.rail.retrieveRefund(a.provider_id, route.account);
      else {
        const before = await refundedBefore(db, a);
        answer = await route.rail.refund({
          paymentReference: route.reference,
          amount: a.amount,
          currency: "nzd",
          account: route.account,
          refundedBefore: before,
          idempotencyKey: a.idempotency_key ?? `refund:adjustment:${a.id}`,
          reason: a.reason,
          metadata: { payment_id: String(p.id), refund_id: String(a.id) },
        });
      }
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      if (err.retryable) {
        report.pending++;
        logWarning("[refunds] provider not reached; asked again next run", err, { refund_id: a.id });
        continue;
      }
      refused = err.message;
    }
    if (refused || (answer && answer.status === "failed")) {
      await db
        .update(payment_adjustments)
        .set({ status: "failed", error: refused ?? answer?.failureReason ?? "The provider did not make the refund.", provider_id: answer?.id ?? a.provider_id, settled_at: now })
        .where(and(eq(payment_adjustments.id, a.id), eq(payment_adjustments.status, "pending")));
      report.failed++;
      continue;
    }
    if (!answer) continue;
    if (answer.status === "pending") {
      await db.update(payment_adjustments).set({ provider_id: answer.id }).where(and(eq(payment_adjustments.id, a.id), eq(payment_adjustments.status, "pending"), isNull(payment_adjustments.provider_id)));
      report.pending++;
      continue;
    }
    // Given back: written down with its outgoing webhook (payment.refunded), in one transaction.
    const [settled] = await db.transaction(async (tx) => {
      const rows = await tx
        .update(payment_adjustments)
        .set({ status: "succeeded", provider_id: answer.id, settled_at: now })
        .where(and(eq(payment_adjustments.id, a.id), eq(payment_adjustments.status, "pending")))
        .returning();
      if (rows.length) await recordWebhookEvent({ db: tx, organisationId: a.organisation_id }, "payment.refunded", a.payment_id, now);
      return rows;
    });
    if (settled) report.succeeded++;
  }
  if (tell) await tellMembers(db, tell, rows.map((r) => r.a.id));
  return report;
}

async function refundedBefore(db: Db, a: typeof payment_adjustments.$inferSelect) {
  const others = await db
    .select({ kind: payment_adjustments.kind, status: payment_adjustments.status, amount: payment_adjustments.amount })
    .from(payment_adjustments)
    .where(and(eq(payment_adjustments.payment_id, a.payment_id), sql`${payment_adjustments.id} < ${a.id}`, eq(payment_adjustments.kind, "refund"), eq(payment_adjustments.status, "succeeded")));
  return others.reduce((sum, o) => sum + o.amount, 0);
}

/**
 * The member hears of a refund once it is made or on its way through their card or bank (never of one that
 * failed: staff see that, and try another way), whoever made it (staff, or the gym in its provider's dashboard), and
 * of a chargeback once it is lost (the amount is owing again, and until when their access lasts). Once each: the
 * notice's key (billing_notices) is the refund's or chargeback's id.
 */
export async function tellMembers(db: Db, { mailer, site }: MemberMailer, adjustmentIds: number[]): Promise<void> {
  if (!adjustmentIds.length) return;
  const rows = await db
    .select({ a: payment_adjustments, p: payments, user: users, grace: subscriptions.grace_period_ends_at })
    .from(payment_adjustments)
    .innerJoin(payments, eq(payments.id, payment_adjustments.payment_id))
    .innerJoin(users, eq(users.id, payment_adjustments.user_id))
    .leftJoin(subscriptions, eq(subscriptions.id, payments.subscription_id))
    .where(
      and(
        inArray(payment_adjustments.id, adjustmentIds),
        or(
          // Made, or taken by the provider and on its way; not one still waiting to reach its provider.
          sql`${payment_adjustments.kind} = 'refund' and (${payment_adjustments.status} = 'succeeded' or (${payment_adjustments.status} = 'pending' and ${payment_adjustments.provider_id} is not null))`,
          sql`${payment_adjustments.kind} = 'chargeback' and ${payment_adjustments.status} = 'lost'`,
        ),
      ),
    );
  for (const { a, p, user, grace } of rows) {
    if (!user.email_notifications || user.deleted_at) continue;
    // Written first, sent after: a crash in between loses one e-mail, never sends two.
    const [told] = await db
      .insert(billing_notices)
      .values({ organisation_id: a.organisation_id, user_id: a.user_id, kind: a.kind, key: `${a.kind}:${a.id}`, payment_id: p.id, emailed: true })
      .onConflictDoNothing()
      .returning({ id: billing_notices.id });
    if (!told) continue;
    const brand = await brandFor(db, a.gym_id, a.user_id, site);
    const facts = { amount: formatCents(a.amount), paid: formatCents(p.amount + p.surcharge), paidOn: formatDate(p.created_at) };
    if (a.kind === "chargeback") {
      await mailer.send(chargebackMail(brand, user.email, user.name, { ...facts, accessUntil: grace ? formatDate(grace) : null }));
      continue;
    }
    const how = REFUND_METHOD_LABELS[a.method as RefundMethod] ?? "Refunded";
    await mailer.send(refundMail(brand, user.email, user.name, { ...facts, how, pending: a.status === "pending" }));
  }
}

/** A payment's refunds and chargebacks, in words and figures, as the member page and the payments list show them. */
export function adjustmentsView(paid: number, adjustments: (AdjustmentFacts & { id: number; created_at: Date; settled_at: Date | null; method: string; source: string; reason: string | null; error: string | null })[]) {
  const { left, blocked } = refundable(paid, adjustments);
  return {
    refundable: left,
    refund_blocked: blocked,
    adjustments: adjustments.map((a) => ({
      id: a.id,
      kind: a.kind,
      status: a.status,
      amount: a.amount,
      formatted_amount: formatCents(a.amount),
      in_words: adjustmentInWords(a),
      method: a.method,
      source: a.source,
      reason: a.reason,
      error: a.error,
      created_at: a.created_at,
      settled_at: a.settled_at,
    })),
  };
}
