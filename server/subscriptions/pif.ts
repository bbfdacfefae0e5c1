import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { BillingFrequency, TermUnit } from "../../domain/billing";
import { addCalendarDays, formatDay, localDay, startOfLocalDay } from "../../domain/dates";
import { MAX_DAYS_AHEAD } from "../../domain/lifecycle";
import { formatCents } from "../../domain/money";
import { startPlan } from "../../domain/start";
import { scheduledPriceChange, subscriptionState } from "../../domain/subscription";
import type { PifRequest } from "../../domain/schemas/subscriptions";
import { invalid } from "../core/errors";
import { offering_gyms, offerings, payments, prices, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { recordEvent } from "../core/membership-history";
import { snapshot } from "./membership";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * A paid-in-full membership sold at the desk (issue 12; SPEC §4: when the member has no subscription, or theirs has
 * no scheduled price change and has not yet to start). Paid by EFTPOS or cash (sent), or bank transfer (awaiting
 * payment until staff mark it received). A running recurring membership ends where the paid-in-full one starts: it
 * is cancelled at the end of its paid period, and the new one starts on or after that day.
 */
const day = formatDay;

async function latestSubscription(t: Tenant, userId: number) {
  const [s] = await t.db.select({ s: subscriptions, frequency: prices.billing_frequency }).from(subscriptions).innerJoin(prices, eq(prices.id, subscriptions.price_id)).where(t.where(subscriptions, eq(subscriptions.user_id, userId))).orderBy(desc(subscriptions.created_at), desc(subscriptions.id)).limit(1);
  return s ?? null;
}

/** Whether SPEC §4 lets a paid-in-full membership be added, and if not why. */
export function pifAllowed(latest: { s: typeof subscriptions.$inferSelect } | null, now: Date): string | null {
  if (!latest) return null;
  if (scheduledPriceChange(latest.s)) return "The member has a price change scheduled: remove it first";
  if (subscriptionState(latest.s, now) === "upcoming" && latest.s.upcoming_state === "upcoming") return "The member's membership has not started yet";
  return null;
}

export async function pifEffect(t: Tenant, userId: number, gymId: number, req: Pick<PifRequest, "price_id" | "start">, now: Date) {
  const today = localDay(now);
  const latest = await latestSubscription(t, userId);
  const refused = pifAllowed(latest, now);
  if (refused) throw invalid({ _: [refused] });
  const [row] = await t.db
    .select({ price: prices, offering: { id: offerings.id, name: offerings.name, all_gyms_access: offerings.all_gyms_access } })
    .from(prices)
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .where(t.where(prices, eq(prices.id, req.price_id), isNull(prices.archived_at), eq(prices.billing_frequency, "one_off")));
  if (!row) throw invalid({ price_id: ["Choose a paid-in-full price from the list"] });
  if (row.price.gym_id && row.price.gym_id !== gymId) throw invalid({ price_id: ["That price is not sold at the member's gym"] });
  if (!row.offering.all_gyms_access) {
    const [at] = await t.db.select({ gym: offering_gyms.gym_id }).from(offering_gyms).where(t.where(offering_gyms, and(eq(offering_gyms.offering_id, row.offering.id), eq(offering_gyms.gym_id, gymId))));
    if (!at) throw invalid({ price_id: ["That price is not sold at the member's gym"] });
  }
  if (req.start < today) throw invalid({ start: ["It cannot start in the past"] });
  if (req.start > addCalendarDays(today, MAX_DAYS_AHEAD)) throw invalid({ start: ["It must start within the next year"] });
  // A membership still running: the new one follows it.
  const running = latest && !latest.s.cancelled_at ? latest : null;
  const runsUntil = running ? localDay(latest!.s.pif_ends_at ?? latest!.s.current_period_end ?? now) : null;
  if (running && runsUntil && req.start < runsUntil) throw invalid({ start: [`Their current membership is paid until ${day(runsUntil)}: start on or after then`] });
  const plan = startPlan(
    { amount: row.price.amount, frequency: "one_off" as BillingFrequency, joiningFee: row.price.joining_fee, termAmount: row.price.term_amount, termUnit: row.price.term_unit as TermUnit | null },
    req.start,
  );
  return {
    price: { id: row.price.id, amount: row.price.amount, offering: row.offering.name },
    start: req.start,
    ends: plan.pifEnds,
    amount: plan.firstPayment.amount,
    joiningFee: plan.firstPayment.joiningFee,
    endsCurrent: running ? { subscription_id: running.s.id, on: runsUntil! } : null,
    startsLater: req.start > today,
  };
}

export async function applyPif(t: Tenant, userId: number, gymId: number, req: PifRequest, actorId: number, now: Date) {
  const repeated = await t.db
    .select({ id: payments.id, subscription_id: payments.subscription_id })
    .from(payments)
    .where(t.where(payments, eq(payments.user_id, userId), sql`${payments.meta}->>'manual_key' = ${req.key}`));
  if (repeated.length) return { effect: null, subscriptionId: repeated[0].subscription_id, repeated: true };
  const effect = await pifEffect(t, userId, gymId, req, now);
  if (effect.endsCurrent) {
    const [before] = await t.db.select().from(subscriptions).where(t.where(subscriptions, eq(subscriptions.id, effect.endsCurrent.subscription_id)));
    const [after] = await t.db
      .update(subscriptions)
      .set({ cancelled_at: now, cancellation_reasons: ["other"], cancellation_comments: "Changed to paid in full", undo_cancellation_until: null, version: before.version + 1, updated_at: now })
      .where(t.where(subscriptions, eq(subscriptions.id, before.id), eq(subscriptions.version, before.version)))
      .returning();
    await recordEvent(t, {
      subscriptionId: before.id,
      userId,
      actorId,
      action: "cancel",
      summary: `Ends ${day(effect.endsCurrent.on)}: changed to paid in full`,
      before: snapshot(before),
      after: after ? snapshot(after) : null,
    });
    if (after) await recordWebhookEvent(t, "subscription.cancelled", before.id, now);
  }
  const [subscription] = await t.db
    .insert(subscriptions)
    .values(
      t.owned({
        user_id: userId,
        gym_id: gymId,
        price_id: effect.price.id,
        current_period_start: startOfLocalDay(effect.start),
        // Paid in full with no end has no period to end.
        current_period_end: effect.ends ? startOfLocalDay(effect.ends) : null,
        pif_ends_at: effect.ends ? startOfLocalDay(effect.ends) : null,
        upcoming_state: effect.startsLater ? "upcoming" : null,
        initial_state: effect.startsLater ? "upcoming" : "active",
        created_at: now,
      }),
    )
    .returning();
  const [paid] = await t.db
    .insert(payments)
    .values(
      t.owned({
        gym_id: gymId,
        user_id: userId,
        subscription_id: subscription.id,
        amount: effect.amount,
        period_start_at: startOfLocalDay(effect.start),
        period_end_at: startOfLocalDay(effect.ends ?? effect.start),
        status: req.method === "bank_transfer" ? "awaiting_payment" : "sent",
        type: "pif",
        pif_payment: req.method,
        processed_by: actorId,
        expected_charge_date: localDay(now),
        meta: { manual_key: req.key, ...(effect.joiningFee ? { joining_fee: effect.joiningFee } : {}) },
        created_at: now,
      }),
    )
    .returning({ id: payments.id, status: payments.status });
  if (!effect.startsLater) await recordWebhookEvent(t, "subscription.started", subscription.id, now);
  // Cash and EFTPOS are taken at the desk: paid now. A bank transfer is paid when staff mark it received.
  if (paid.status === "sent") await recordWebhookEvent(t, "payment.succeeded", paid.id, now);
  const how = { eftpos: "by EFTPOS", cash: "in cash", bank_transfer: "by bank transfer (to be marked received)" }[req.method];
  const event = await recordEvent(t, {
    subscriptionId: subscription.id,
    userId,
    actorId,
    action: "pif",
    summary: `Paid in full: ${effect.price.offering}, ${formatCents(effect.amount)} ${how}, from ${day(effect.start)}${effect.ends ? ` until ${day(effect.ends)}` : ""}`,
    after: snapshot(subscription),
  });
  return { effect, subscriptionId: subscription.id, event, repeated: false };
}
