import { eq, gt, isNull } from "drizzle-orm";
import { formatDay, localDay, startOfLocalDay } from "../../domain/dates";
import { previewCancel } from "../../domain/lifecycle";
import { CANCELLATION_REASON_LABELS, type CancelRequest } from "../../domain/schemas/subscriptions";
import { invalid } from "../core/errors";
import { organisation_users, payments, price_changes, subscription_pauses } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { recordEvent } from "../core/membership-history";
import { whatItTook } from "./undo-cancel";
import { changeSubscription, snapshot, type Membership } from "./membership";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * Cancelling (issue 12): at the end of the paid period (access until then; undoable until then) or now (access
 * ends today; final). A term membership cancelled after its cooling-off window pays the gym's break fee, charged at
 * once through the member's payment method (`charge` runs after the commit: the payment is written down first);
 * such a cancellation cannot be undone, the member having paid to leave. Pauses still to come and a scheduled price
 * change go with it; what it took is written on its history line, so an undo puts back exactly that (./undo-cancel.ts).
 */
const day = formatDay;

export function cancelEffect(m: Membership, req: Pick<CancelRequest, "when">, now: Date) {
  const answer = previewCancel(m.facts, req.when, localDay(now), m.gym.break_fee_percentage);
  if ("errors" in answer) throw invalid(answer.errors);
  const effect = answer.effect;
  return { ...effect, undoUntil: effect.breakFee > 0 ? null : effect.undoUntil };
}

export async function applyCancel(t: Tenant, m: Membership, req: CancelRequest, actorId: number, now: Date) {
  const effect = cancelEffect(m, req, now);
  const today = localDay(now);
  const before = snapshot(m.s);
  const after = await changeSubscription(t, m.s.id, req.version, {
    cancelled_at: now,
    cancellation_reasons: req.reasons,
    cancellation_comments: req.comments ?? null,
    cancelled_during_cooling_off_period: effect.coolingOff,
    undo_cancellation_until: effect.undoUntil ? startOfLocalDay(effect.undoUntil) : null,
    ...(req.when === "now" ? { current_period_end: now, ...(m.s.pif_ends_at ? { pif_ends_at: now } : {}) } : {}),
    // Pauses after access ends are moot; a price change that was to come will not.
    pause_start_at: m.s.pause_start_at && localDay(m.s.pause_start_at) < effect.accessEnds ? m.s.pause_start_at : null,
    pause_end_at: m.s.pause_start_at && localDay(m.s.pause_start_at) < effect.accessEnds ? m.s.pause_end_at : null,
    transition_to_price_id: null,
    transition_takes_effect_at: null,
    // A cancellation that was waiting for its day (./scheduled-cancel.ts) is this one now.
    cancel_at: null,
    cancel_request: null,
  });
  const removedPauses = await t.db
    .update(subscription_pauses)
    .set({ removed_at: now })
    .where(t.where(subscription_pauses, eq(subscription_pauses.subscription_id, m.s.id), gt(subscription_pauses.start_day, today), isNull(subscription_pauses.removed_at)))
    .returning({ id: subscription_pauses.id });
  const cancelledChanges = m.s.transition_to_price_id
    ? await t.db
        .update(price_changes)
        .set({ cancelled_at: now })
        .where(t.where(price_changes, eq(price_changes.subscription_id, m.s.id), isNull(price_changes.applied_at), isNull(price_changes.cancelled_at)))
        .returning({ id: price_changes.id })
    : [];
  // Upcoming charges shown to staff will not come.
  const deleted = await t.db.delete(payments).where(t.where(payments, eq(payments.subscription_id, m.s.id), eq(payments.status, "upcoming"))).returning();
  const took = whatItTook(m.s, after, removedPauses, cancelledChanges, deleted);
  let feePaymentId: number | null = null;
  if (effect.breakFee > 0) {
    const [membership] = await t.db
      .select({ paymentTypeId: organisation_users.default_payment_type_id })
      .from(organisation_users)
      .where(t.where(organisation_users, eq(organisation_users.user_id, m.s.user_id)));
    const [fee] = await t.db
      .insert(payments)
      .values(
        t.owned({
          gym_id: m.s.gym_id,
          user_id: m.s.user_id,
          subscription_id: m.s.id,
          payment_type_id: membership?.paymentTypeId ?? null,
          amount: effect.breakFee,
          status: "pending",
          type: "break_fee",
          is_term_membership: true,
          idempotency_key: `break_fee:${m.s.id}:${after.version}`,
          expected_charge_date: today,
          processed_by: actorId,
          meta: { reason: "Term cancelled after the cooling-off period" },
          created_at: now,
        }),
      )
      .returning({ id: payments.id });
    feePaymentId = fee.id;
  }
  const reasons = req.reasons.map((r) => CANCELLATION_REASON_LABELS[r]).join(", ");
  const summary =
    `Cancelled ${req.when === "now" ? "now" : `at the end of the paid period: access until ${day(effect.accessEnds)}`} (${reasons})` +
    (effect.breakFee ? `; break fee ${(effect.breakFee / 100).toFixed(2)} charged` : effect.coolingOff ? "; within the cooling-off period, no break fee" : "");
  const event = await recordEvent(t, {
    subscriptionId: m.s.id,
    userId: m.s.user_id,
    actorId,
    action: "cancel",
    summary,
    before,
    after: { ...snapshot(after), took },
  });
  await recordWebhookEvent(t, "subscription.cancelled", m.s.id, now);
  return { effect, event, subscription: after, feePaymentId };
}
