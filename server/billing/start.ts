import { and, eq, sql } from "drizzle-orm";
import type { BillingFrequency, TermUnit } from "../../domain/billing";
import { localDay, startOfLocalDay } from "../../domain/dates";
import type { LocalDay } from "../../domain/periods";
import { startPlan } from "../../domain/start";
import { surchargeFor, type PaymentTypeKind } from "../../domain/surcharge";
import type { Db } from "../core/db/client";
import { gyms, organisation_users, payment_types, payments, prices, subscriptions } from "../core/db/schema";
import { rowsOf } from "../core/db/values";
import type { Providers } from "../core/providers/registry";
import { chargePending } from "./charge";
import { chargeKey } from "./plan";
import { recordWebhookEvent, recordWebhookEvents } from "../outgoing-webhooks/events";

/**
 * Starting a subscription (issue 11's engine; sign-up, staff and the lifecycle actions call it): the subscription
 * and its first payment (domain/start.ts: pro-rata or first period, or paid in full, plus the joining fee and the
 * card surcharge) are written in one transaction; then, when it starts today or earlier, the payment is charged
 * at once through the billing run's own charge step. A start in the future waits as `upcoming`, and the run
 * starts it on its day (startDueSubscriptions). A first payment that is declined leaves the subscription
 * `upcoming_state = 'failed'`: the member never had access, so there is no grace period, and it can be paid again.
 */
export interface StartRequest {
  organisationId: number;
  userId: number;
  gymId: number;
  priceId: number;
  start: LocalDay;
  /** The member's billing date, when chosen (else the price's usual one: the 1st, or Monday). */
  billingDate?: LocalDay | null;
  /** Defaults to the member's default payment type. */
  paymentTypeId?: number | null;
}

/** A request the engine cannot start (no such price, no payment method, a billing date out of range): a 4xx for callers. */
export class StartError extends Error {}

function planOrExplain(...args: Parameters<typeof startPlan>) {
  try {
    return startPlan(...args);
  } catch (err) {
    if (err instanceof RangeError) throw new StartError(err.message);
    throw err;
  }
}

export async function startSubscription(db: Db, providers: Providers, req: StartRequest, now: Date = new Date()) {
  const { subscription, payment } = await db.transaction((tx) => writeStart(tx, req, now));
  if (payment.status === "pending") await chargeFirstPayments(db, providers, [payment.id], now);
  const [after] = await db.select().from(payments).where(eq(payments.id, payment.id));
  const [subscriptionAfter] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
  return { subscription: subscriptionAfter, payment: after };
}

/**
 * The subscription and its first payment written down in the caller's transaction, charged by no one yet: a
 * caller that charges after its own commit (the sign-up's POST /api/subscriptions) calls this, then
 * chargeFirstPayments once committed. `extra` carries what the sign-up records beside (its key, the terms).
 */
export async function writeStart(tx: Db, req: StartRequest, now: Date, extra: Partial<typeof subscriptions.$inferInsert> = {}) {
  const [price] = await tx
    .select()
    .from(prices)
    .where(and(eq(prices.id, req.priceId), eq(prices.organisation_id, req.organisationId)));
  if (!price || price.archived_at) throw new StartError("No such price.");
  const [gym] = await tx
    .select()
    .from(gyms)
    .where(and(eq(gyms.id, req.gymId), eq(gyms.organisation_id, req.organisationId)));
  if (!gym) throw new StartError("No such gym.");
  const [membership] = await tx
    .select({ paymentTypeId: organisation_users.default_payment_type_id })
    .from(organisation_users)
    .where(and(eq(organisation_users.organisation_id, req.organisationId), eq(organisation_users.user_id, req.userId), eq(organisation_users.role, "member")));
  if (!membership) throw new StartError("Not a member of this organisation.");
  const paymentTypeId = req.paymentTypeId ?? membership.paymentTypeId;
  const [paymentType] = paymentTypeId
    ? await tx
        .select()
        .from(payment_types)
        .where(and(eq(payment_types.id, paymentTypeId), eq(payment_types.user_id, req.userId), eq(payment_types.organisation_id, req.organisationId)))
    : [];
  if (!paymentType) throw new StartError("The member has no payment method.");

  const plan = planOrExplain(
    {
      amount: price.amount,
      frequency: price.billing_frequency as BillingFrequency,
      joiningFee: price.joining_fee,
      termAmount: price.term_amount,
      termUnit: price.term_unit as TermUnit | null,
    },
    req.start,
    req.billingDate,
  );
  const waits = req.start > localDay(now);
  const [subscription] = await tx
    .insert(subscriptions)
    .values({
      organisation_id: req.organisationId,
      user_id: req.userId,
      gym_id: req.gymId,
      price_id: price.id,
      billing_anchor: plan.anchor,
      current_period_start: startOfLocalDay(plan.currentPeriod.start),
      current_period_end: startOfLocalDay(plan.currentPeriod.end),
      term_ends_at: plan.termEnds ? startOfLocalDay(plan.termEnds) : null,
      cooling_period_ends_at: plan.coolingOffEnds ? startOfLocalDay(plan.coolingOffEnds) : null,
      pif_ends_at: plan.pifEnds ? startOfLocalDay(plan.pifEnds) : null,
      upcoming_state: waits ? "upcoming" : null,
      initial_state: waits ? "upcoming" : "active",
      ...extra,
      created_at: now,
    })
    .returning();
  const first = plan.firstPayment;
  const [payment] = await tx
    .insert(payments)
    .values({
      organisation_id: req.organisationId,
      gym_id: req.gymId,
      user_id: req.userId,
      subscription_id: subscription.id,
      payment_type_id: paymentType.id,
      amount: first.amount,
      surcharge: surchargeFor(first.amount, paymentType.type as PaymentTypeKind, { basisPoints: gym.card_surcharge_basis_points, fixed: gym.card_surcharge_fixed }),
      period_start_at: startOfLocalDay(first.period.start),
      period_end_at: startOfLocalDay(first.period.end),
      expected_charge_date: req.start,
      status: waits ? "upcoming" : "pending",
      type: first.kind,
      is_pro_rata: first.isProRata,
      is_term_membership: !!plan.termEnds,
      attempt: 0,
      idempotency_key: chargeKey(subscription.id, first.period.start, 0),
      meta: first.joiningFee ? { joining_fee: first.joiningFee } : null,
      created_at: now,
    })
    .returning();
  // An upcoming one is news on its day (startDueSubscriptions), or when staff start it now.
  if (!waits) await recordWebhookEvent({ db: tx, organisationId: req.organisationId }, "subscription.started", subscription.id, now);
  return { subscription, payment };
}

/**
 * Charges first payments and, for those declined, marks their subscriptions `failed` instead of starting a grace
 * period: access was never given, so there is none to keep.
 */
export async function chargeFirstPayments(db: Db, providers: Providers, paymentIds: number[], now: Date) {
  await chargePending(db, providers, now, { only: paymentIds });
  await db.execute(sql`
    update subscriptions s set upcoming_state = 'failed', grace_period_ends_at = null, updated_at = now()
    from payments p
    where p.id in ${sql`(${sql.join(paymentIds.map((id) => sql`${id}`), sql`, `)})`} and p.status = 'failed' and s.id = p.subscription_id`);
}

/**
 * Upcoming subscriptions whose start day has come (the billing run's first step): they start, and their first
 * payment, written when they were sold, is charged now.
 */
export async function startDueSubscriptions(db: Db, providers: Providers, now: Date): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const { paymentIds, started } = await db.transaction(async (tx) => {
    const firsts = rowsOf<{ id: number; subscription_id: number }>(
      await tx.execute(sql`
        update payments p set status = 'pending'
        from subscriptions s
        where s.id = p.subscription_id and s.upcoming_state = 'upcoming' and s.cancelled_at is null and s.current_period_start <= ${at}
          and p.status = 'upcoming' and p.attempt = 0 and p.idempotency_key is not null and p.period_start_at = s.current_period_start
        returning p.id, p.subscription_id`),
    );
    const withFirst = firsts.map((r) => Number(r.subscription_id));
    // One sold without a first payment (imported, or the demo's): its first period is charged by the run's planning,
    // which charges from where the subscription is paid up to, so that becomes its start.
    const started = rowsOf<{ id: number; organisation_id: number }>(
      await tx.execute(sql`
        update subscriptions set upcoming_state = null, updated_at = now(),
          current_period_end = case when id = any(${sql`array[${sql.join([0, ...withFirst].map((id) => sql`${id}`), sql`, `)}]::int[]`}) then current_period_end else current_period_start end
        where upcoming_state = 'upcoming' and cancelled_at is null and current_period_start <= ${at}
        returning id, organisation_id`),
    );
    await recordWebhookEvents(
      tx,
      started.map((s) => ({ organisationId: Number(s.organisation_id), type: "subscription.started" as const, id: Number(s.id) })),
      now,
    );
    return { paymentIds: firsts.map((r) => Number(r.id)), started: started.length };
  });
  if (paymentIds.length) await chargeFirstPayments(db, providers, paymentIds, now);
  return started;
}
