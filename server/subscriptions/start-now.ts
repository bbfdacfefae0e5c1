import { and, eq } from "drizzle-orm";
import type { BillingFrequency, TermUnit } from "../../domain/billing";
import { formatDay, localDay, startOfLocalDay } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import { startPlan } from "../../domain/start";
import { surchargeFor, type PaymentTypeKind } from "../../domain/surcharge";
import { invalid } from "../core/errors";
import { chargeKey } from "../billing/plan";
import { organisation_users, payment_types, payments } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { recordEvent } from "../core/membership-history";
import { changeSubscription, snapshot, type Membership } from "./membership";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * Starting an upcoming membership today instead of on its day (issue 12; SPEC §4: only an uncancelled, upcoming,
 * non-PIF subscription). Its first payment becomes the pro-rata from today to its billing day (or the first full
 * period when today is that day), plus any joining fee, and is charged at once (after the commit); a decline leaves
 * it stopped, as a declined sign-up is.
 */
const day = formatDay;

async function firstPayment(t: Tenant, m: Membership) {
  const [p] = await t.db
    .select()
    .from(payments)
    .where(t.where(payments, and(eq(payments.subscription_id, m.s.id), eq(payments.status, "upcoming"), eq(payments.attempt, 0))))
    .orderBy(payments.period_start_at)
    .limit(1);
  return p ?? null;
}

export async function startNowEffect(t: Tenant, m: Membership, now: Date) {
  const today = localDay(now);
  if (m.s.cancelled_at) throw invalid({ _: ["A cancelled membership cannot be started"] });
  if (m.s.upcoming_state !== "upcoming") throw invalid({ _: ["Only a membership that has not started can be started now"] });
  if (m.price.billing_frequency === "one_off") throw invalid({ _: ["A paid-in-full membership starts on its day"] });
  const startsOn = m.s.current_period_start ? localDay(m.s.current_period_start) : null;
  if (startsOn && startsOn <= today) throw invalid({ _: ["It starts today already: the billing run starts it"] });
  const anchor = m.s.billing_anchor && m.s.billing_anchor >= today ? m.s.billing_anchor : null;
  let plan;
  try {
    plan = startPlan(
      { amount: m.s.force_price_amount ?? m.price.amount, frequency: m.price.billing_frequency as BillingFrequency, joiningFee: m.price.joining_fee, termAmount: m.price.term_amount, termUnit: m.price.term_unit as TermUnit | null },
      today,
      anchor,
    );
  } catch {
    // The billing day is more than a period away: start on the price's usual billing day instead.
    plan = startPlan(
      { amount: m.s.force_price_amount ?? m.price.amount, frequency: m.price.billing_frequency as BillingFrequency, joiningFee: m.price.joining_fee, termAmount: m.price.term_amount, termUnit: m.price.term_unit as TermUnit | null },
      today,
    );
  }
  const [membership] = await t.db
    .select({ type: payment_types.type })
    .from(organisation_users)
    .leftJoin(payment_types, eq(payment_types.id, organisation_users.default_payment_type_id))
    .where(t.where(organisation_users, eq(organisation_users.user_id, m.s.user_id)));
  const kind = (membership?.type ?? null) as PaymentTypeKind | null;
  const surcharge = kind ? surchargeFor(plan.firstPayment.amount, kind, { basisPoints: m.gym.card_surcharge_basis_points, fixed: m.gym.card_surcharge_fixed }) : 0;
  return {
    start: today,
    was: startsOn,
    firstPayment: { amount: plan.firstPayment.amount, surcharge, joiningFee: plan.firstPayment.joiningFee, isProRata: plan.firstPayment.isProRata, covers: plan.firstPayment.period },
    nextCharge: { day: plan.currentPeriod.end, amount: m.s.force_price_amount ?? m.price.amount },
    hasPaymentMethod: kind !== null,
    plan,
  };
}

export async function applyStartNow(t: Tenant, m: Membership, version: number, actorId: number, now: Date) {
  const effect = await startNowEffect(t, m, now);
  if (!effect.hasPaymentMethod) throw invalid({ _: ["The member has no payment method to pay the first payment with"] });
  const { plan } = effect;
  const before = snapshot(m.s);
  const after = await changeSubscription(t, m.s.id, version, {
    billing_anchor: plan.anchor,
    current_period_start: startOfLocalDay(plan.currentPeriod.start),
    current_period_end: startOfLocalDay(plan.currentPeriod.end),
    term_ends_at: plan.termEnds ? startOfLocalDay(plan.termEnds) : null,
    cooling_period_ends_at: plan.coolingOffEnds ? startOfLocalDay(plan.coolingOffEnds) : null,
    upcoming_state: null,
  });
  const first = await firstPayment(t, m);
  const [membership] = await t.db
    .select({ paymentTypeId: organisation_users.default_payment_type_id })
    .from(organisation_users)
    .where(t.where(organisation_users, eq(organisation_users.user_id, m.s.user_id)));
  const values = {
    // Paid with the member's payment method now, whatever it was when the membership was sold.
    payment_type_id: membership?.paymentTypeId ?? first?.payment_type_id ?? null,
    amount: plan.firstPayment.amount,
    surcharge: effect.firstPayment.surcharge,
    period_start_at: startOfLocalDay(plan.firstPayment.period.start),
    period_end_at: startOfLocalDay(plan.firstPayment.period.end),
    expected_charge_date: effect.start,
    status: "pending",
    is_pro_rata: plan.firstPayment.isProRata,
    idempotency_key: chargeKey(m.s.id, plan.firstPayment.period.start, 0),
    processed_by: actorId,
    meta: plan.firstPayment.joiningFee ? { joining_fee: plan.firstPayment.joiningFee } : null,
  };
  let paymentId: number;
  if (first) {
    await t.db.update(payments).set(values).where(t.where(payments, eq(payments.id, first.id)));
    paymentId = first.id;
  } else {
    const [inserted] = await t.db
      .insert(payments)
      .values(t.owned({ ...values, gym_id: m.s.gym_id, user_id: m.s.user_id, subscription_id: m.s.id, type: "subscription", is_term_membership: !!plan.termEnds, attempt: 0, created_at: now }))
      .returning({ id: payments.id });
    paymentId = inserted.id;
  }
  const summary = `Started now instead of ${effect.was ? day(effect.was) : "later"}: first payment ${formatCents(effect.firstPayment.amount + effect.firstPayment.surcharge)}${effect.firstPayment.isProRata ? " (pro-rata)" : ""}`;
  const event = await recordEvent(t, { subscriptionId: m.s.id, userId: m.s.user_id, actorId, action: "start_now", summary, before, after: snapshot(after) });
  await recordWebhookEvent(t, "subscription.started", m.s.id, now);
  return { effect, event, subscription: after, paymentId };
}
