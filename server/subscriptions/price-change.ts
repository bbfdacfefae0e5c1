import { and, eq, isNull } from "drizzle-orm";
import { FREQUENCY_LABELS, type BillingFrequency } from "../../domain/billing";
import { formatDay, localDay, startOfLocalDay } from "../../domain/dates";
import { previewPriceChange } from "../../domain/lifecycle";
import { formatCents } from "../../domain/money";
import { invalid } from "../core/errors";
import { offering_gyms, offerings, price_changes, prices } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { priceChangeMail } from "../member-mail/templates";
import { brandFor, type MailSite } from "../member-mail/brand";
import { recordEvent } from "../core/membership-history";
import { changeSubscription, snapshot, type Membership } from "./membership";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * Scheduling a move to another price (issue 12): from the end of the paid period or from a day; the billing run
 * charges the new amount for every period starting then (server/billing/plan.ts applies it). The member's e-mail is
 * previewed before it is sent, and goes with the gym's price_change_notification_reply_to as its Reply-To.
 */
const day = formatDay;

/** The price to move to: this organisation's, not archived, recurring, sold at the member's gym. */
async function targetPrice(t: Tenant, m: Membership, priceId: number) {
  const [row] = await t.db
    .select({ price: prices, offering: { id: offerings.id, name: offerings.name, all_gyms_access: offerings.all_gyms_access } })
    .from(prices)
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .where(t.where(prices, eq(prices.id, priceId), isNull(prices.archived_at), isNull(offerings.archived_at)));
  if (!row) throw invalid({ price_id: ["Choose a price from the list"] });
  if (row.price.id === m.s.price_id) throw invalid({ price_id: ["That is the member's price already"] });
  if (row.price.billing_frequency === "one_off") throw invalid({ price_id: ["A paid-in-full price is sold on its own: add it from the member's page"] });
  // A term is a commitment the member signs up to, with its own cooling-off: not something a price change can start.
  if (row.price.term_amount) throw invalid({ price_id: ["A term price is sold as a new membership, not by a price change"] });
  if (row.price.gym_id && row.price.gym_id !== m.s.gym_id) throw invalid({ price_id: ["That price is not sold at the member's gym"] });
  if (!row.offering.all_gyms_access) {
    const [at] = await t.db
      .select({ gym: offering_gyms.gym_id })
      .from(offering_gyms)
      .where(t.where(offering_gyms, and(eq(offering_gyms.offering_id, row.offering.id), eq(offering_gyms.gym_id, m.s.gym_id))));
    if (!at) throw invalid({ price_id: ["That price is not sold at the member's gym"] });
  }
  return row;
}

export async function priceChangeEffect(t: Tenant, m: Membership, req: { price_id: number; from: "period_end" | "date"; date?: string }, now: Date, site: MailSite) {
  const target = await targetPrice(t, m, req.price_id);
  const answer = previewPriceChange(m.facts, { amount: target.price.amount, frequency: target.price.billing_frequency as BillingFrequency }, req.from === "date" ? req.date! : null, localDay(now));
  if ("errors" in answer) throw invalid(answer.errors);
  const [currentOffering] = await t.db.select({ name: offerings.name }).from(offerings).where(t.where(offerings, eq(offerings.id, m.price.offering_id)));
  const mail = priceChangeMail(await brandFor(t.db, m.s.gym_id, m.member.id, site), m.member.email, m.member.name, {
    offering: target.offering.name === currentOffering?.name ? target.offering.name : `${currentOffering?.name ?? "membership"} to ${target.offering.name}`,
    fromAmount: formatCents(answer.effect.fromAmount),
    toAmount: formatCents(answer.effect.toAmount),
    frequency: FREQUENCY_LABELS[target.price.billing_frequency as BillingFrequency].toLowerCase(),
    takesEffect: day(answer.effect.takesEffect),
  });
  return { effect: { ...answer.effect, toPrice: { id: target.price.id, amount: target.price.amount, offering: target.offering.name } }, mail };
}

export async function applyPriceChange(
  t: Tenant,
  m: Membership,
  req: { price_id: number; from: "period_end" | "date"; date?: string; notify?: boolean; version: number },
  actorId: number,
  now: Date,
  site: MailSite,
) {
  const { effect, mail } = await priceChangeEffect(t, m, req, now, site);
  const before = snapshot(m.s);
  // A change scheduled before is replaced by this one.
  await t.db
    .update(price_changes)
    .set({ cancelled_at: now })
    .where(t.where(price_changes, eq(price_changes.subscription_id, m.s.id), isNull(price_changes.applied_at), isNull(price_changes.cancelled_at)));
  const after = await changeSubscription(t, m.s.id, req.version, {
    transition_to_price_id: effect.toPrice.id,
    transition_takes_effect_at: startOfLocalDay(effect.takesEffect),
  });
  await t.db.insert(price_changes).values(
    t.owned({
      subscription_id: m.s.id,
      user_id: m.s.user_id,
      from_price_id: m.s.price_id,
      to_price_id: effect.toPrice.id,
      from_amount: effect.fromAmount,
      to_amount: effect.toAmount,
      takes_effect_at: startOfLocalDay(effect.takesEffect),
      member_notified_at: req.notify ? now : null,
      changed_by: actorId,
      created_at: now,
    }),
  );
  const summary = `Price change scheduled: ${formatCents(effect.fromAmount)} to ${formatCents(effect.toAmount)} (${effect.toPrice.offering}) from ${day(effect.takesEffect)}${req.notify ? "; the member was e-mailed" : ""}`;
  const event = await recordEvent(t, { subscriptionId: m.s.id, userId: m.s.user_id, actorId, action: "price_change", summary, before, after: snapshot(after) });
  // Scheduled now (the payload's scheduled_price_change); again when it takes effect (the billing run's planning).
  await recordWebhookEvent(t, "subscription.price_changed", m.s.id, now);
  return { effect, event, subscription: after, mail: req.notify ? mail : null };
}

/** Removing a scheduled change: the member stays on their price. */
export async function applyRemovePriceChange(t: Tenant, m: Membership, version: number, actorId: number, now: Date) {
  if (!m.s.transition_to_price_id) throw invalid({ _: ["No price change is scheduled"] });
  const before = snapshot(m.s);
  const after = await changeSubscription(t, m.s.id, version, { transition_to_price_id: null, transition_takes_effect_at: null });
  await t.db
    .update(price_changes)
    .set({ cancelled_at: now })
    .where(t.where(price_changes, eq(price_changes.subscription_id, m.s.id), isNull(price_changes.applied_at), isNull(price_changes.cancelled_at)));
  const event = await recordEvent(t, {
    subscriptionId: m.s.id,
    userId: m.s.user_id,
    actorId,
    action: "price_change.remove",
    summary: `Scheduled price change to ${m.toPrice ? formatCents(m.toPrice.amount) : "another price"} removed`,
    before,
    after: snapshot(after),
  });
  await recordWebhookEvent(t, "subscription.price_changed", m.s.id, now);
  return { event, subscription: after };
}

