import { eq, inArray, sql } from "drizzle-orm";
import { formatDate, localDay } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import type { ManualPaymentRequest } from "../../domain/schemas/subscriptions";
import { invalid } from "../core/errors";
import { latestAttempt, nextAttemptOf } from "../billing/plan";
import { settleIfPaidUp } from "../billing/settle";
import { gyms, organisation_users, payment_types, payments } from "../core/db/schema";
import { surchargeFor, type PaymentTypeKind } from "../../domain/surcharge";
import type { Tenant } from "../core/db/tenant";
import { recordEvent } from "../core/membership-history";
import { changeSubscription, snapshot, type Membership } from "./membership";
import { recordWebhookEvent, recordWebhookEvents } from "../outgoing-webhooks/events";

/**
 * Money taken by staff (issue 12): the balance owing — every period whose latest attempt failed — charged now
 * through the member's payment method, or recorded as taken at the desk (EFTPOS, cash) or by bank transfer (which
 * waits as awaiting_payment until staff mark it received). Each owed period gets a new attempt of its own, as a
 * retry does, so the billing run's books (latest attempt per period) settle the same way whoever took the money.
 * When nothing is owed any more the grace period ends; a membership stopped for the debt starts again from the
 * period running today (the stopped weeks are not charged).
 */
export async function owedPeriods(t: Tenant, subscriptionId: number) {
  return t.db
    .select()
    .from(payments)
    .where(t.where(payments, eq(payments.subscription_id, subscriptionId), eq(payments.status, "failed"), latestAttempt))
    .orderBy(payments.period_start_at, payments.id);
}

export async function manualPaymentEffect(t: Tenant, m: Membership, req: Pick<ManualPaymentRequest, "method">) {
  const owed = await owedPeriods(t, m.s.id);
  if (!owed.length) throw invalid({ method: ["Nothing is owed on this membership"] });
  const method = req.method === "charge" ? await chargeMethod(t, m.s.user_id, m.s.gym_id) : null;
  const total = owed.reduce((sum, p) => sum + p.amount + surchargeNow(p, method), 0);
  return {
    method: req.method,
    total,
    periods: owed.map((p) => ({
      payment_id: p.id,
      period_start: p.period_start_at ? localDay(p.period_start_at) : null,
      period_end: p.period_end_at ? localDay(p.period_end_at) : null,
      amount: p.amount + surchargeNow(p, method),
      type: p.type,
    })),
    /** What the status card will say once it is paid. */
    restores: m.s.upcoming_state === "failed",
    endsGrace: Boolean(m.s.grace_period_ends_at),
  };
}

export async function applyManualPayment(t: Tenant, m: Membership, req: ManualPaymentRequest, actorId: number, now: Date) {
  // The same form sent twice makes its payments once.
  const earlier = await t.db
    .select({ id: payments.id })
    .from(payments)
    .where(t.where(payments, eq(payments.subscription_id, m.s.id), sql`${payments.meta}->>'manual_key' = ${req.key}`));
  if (earlier.length) return { effect: null, paymentIds: earlier.map((p) => p.id), charge: false, event: null, repeated: true };
  const effect = await manualPaymentEffect(t, m, req);
  const owed = await owedPeriods(t, m.s.id);
  const charge = req.method === "charge";
  const method = charge ? await chargeMethod(t, m.s.user_id, m.s.gym_id) : null;
  const before = snapshot(m.s);
  // The version is checked (and moved on) even though the subscription's own fields may not change: two staff
  // taking the same debt at once must not both take it.
  const after = await changeSubscription(t, m.s.id, req.version, {});
  const rows = owed.map((p) => ({
    ...nextAttemptOf(p, p.attempt + 1, now),
    // A charge goes to the member's way to pay now (changed since the failure, perhaps), with that way's surcharge.
    payment_type_id: method ? (method.id ?? p.payment_type_id) : null,
    surcharge: surchargeNow(p, method),
    status: charge ? "pending" : req.method === "bank_transfer" ? "awaiting_payment" : "sent",
    // Only a charge goes to a provider: its key is the billing run's own shape, so the run finishes it if we cannot.
    idempotency_key: charge ? `charge:${p.subscription_id}:${p.period_start_at ? localDay(p.period_start_at) : p.id}:${p.attempt + 1}` : null,
    pif_payment: charge ? null : (req.method as "eftpos" | "cash" | "bank_transfer"),
    processed_by: actorId,
    expected_charge_date: localDay(now),
    meta: { manual_key: req.key, ...(req.note ? { note: req.note } : {}) },
  }));
  const inserted = await t.db.insert(payments).values(rows).returning({ id: payments.id });
  // Cash and EFTPOS are paid as they are written down; a charge is news when its provider answers (billing/outcomes.ts).
  if (req.method === "eftpos" || req.method === "cash") {
    await recordWebhookEvents(
      t.db,
      inserted.map((p) => ({ organisationId: t.organisationId, type: "payment.succeeded" as const, id: p.id })),
      now,
      t,
    );
  }
  if (req.method === "eftpos" || req.method === "cash") await settleIfPaidUp(t.db, m.s.id, now);
  const how = { charge: "charged to their payment method", eftpos: "taken by EFTPOS", cash: "taken in cash", bank_transfer: "to come by bank transfer" }[req.method];
  const summary = `${formatCents(effect.total)} owing for ${effect.periods.length} period${effect.periods.length === 1 ? "" : "s"} ${how}${req.note ? `: ${req.note}` : ""}`;
  const event = await recordEvent(t, { subscriptionId: m.s.id, userId: m.s.user_id, actorId, action: `payment.${req.method}`, summary, before, after: snapshot(after) });
  return { effect, paymentIds: inserted.map((p) => p.id), charge, event, repeated: false };
}

/** The member's way to pay now and its surcharge at their gym (none connected: the failed try's, as the billing run does). */
async function chargeMethod(t: Tenant, userId: number, gymId: number) {
  const [row] = await t.db
    .select({ id: organisation_users.default_payment_type_id, kind: payment_types.type, surcharge: { basisPoints: gyms.card_surcharge_basis_points, fixed: gyms.card_surcharge_fixed } })
    .from(organisation_users)
    .innerJoin(gyms, eq(gyms.id, gymId))
    .leftJoin(payment_types, eq(payment_types.id, organisation_users.default_payment_type_id))
    .where(t.where(organisation_users, eq(organisation_users.user_id, userId)));
  return { id: row?.id ?? null, kind: (row?.kind ?? null) as PaymentTypeKind | null, surcharge: row?.surcharge ?? { basisPoints: 0, fixed: 0 } };
}

type ChargeMethod = Awaited<ReturnType<typeof chargeMethod>>;
/** A card's surcharge on a charge (the billing run's rule); nothing on money taken at the desk or by transfer. */
const surchargeNow = (p: { amount: number; surcharge: number }, method: ChargeMethod | null) =>
  method ? (method.kind ? surchargeFor(p.amount, method.kind, method.surcharge) : p.surcharge) : 0;

/** POST /api/payments/{id}/received: a bank transfer staff see arrive; it settles like a payment at the desk. */
export async function markReceived(t: Tenant, paymentId: number, actorId: number, now: Date) {
  const [p] = await t.db.select().from(payments).where(t.where(payments, eq(payments.id, paymentId)));
  if (!p) return null;
  if (p.pif_payment !== "bank_transfer" || !["awaiting_payment", "pending"].includes(p.status)) {
    throw invalid({ payment: [p.status === "sent" ? "This payment is received already" : "Only a bank transfer waiting to arrive can be marked received"] });
  }
  const [after] = await t.db.update(payments).set({ status: "sent", processed_by: actorId }).where(t.where(payments, eq(payments.id, p.id), inArray(payments.status, ["awaiting_payment", "pending"]))).returning();
  if (!after) throw invalid({ payment: ["This payment is received already"] });
  if (p.subscription_id) await settleIfPaidUp(t.db, p.subscription_id, now);
  await recordWebhookEvent(t, "payment.succeeded", p.id, now);
  const event = await recordEvent(t, {
    subscriptionId: p.subscription_id,
    userId: p.user_id,
    actorId,
    action: "payment.received",
    summary: `Bank transfer of ${formatCents(p.amount + p.surcharge)} received${p.period_start_at ? ` for the period from ${formatDate(p.period_start_at)}` : ""}`,
  });
  return { payment: after, event };
}
