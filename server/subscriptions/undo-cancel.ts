import { and, desc, eq, getTableColumns, inArray, isNotNull, isNull } from "drizzle-orm";
import { formatCents } from "../../domain/money";
import { formatDate, formatDay, localDay, startOfLocalDay } from "../../domain/dates";
import { currentOrNextPause, nextCharge, type PauseFacts } from "../../domain/lifecycle";
import { invalid } from "../core/errors";
import { payments, price_changes, prices, subscription_events, subscription_pauses, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { recordEvent } from "../core/membership-history";
import { changeSubscription, snapshot, type Membership } from "./membership";

/**
 * Undoing a cancellation puts back exactly what the cancellation took, nothing else (issue 28, audit finding 2;
 * decision 0040). A cancellation writes what it took on its own history line (`subscription_events.after.took`):
 * the pause rows it marked removed, the pause and price-change fields it cleared on the subscription, the price
 * change it cancelled, and the `upcoming` payments it deleted. Undo brings each back if it still holds: a pause
 * whose days are all over by then is not (its days passed with the member cancelled; brought back, it would move
 * the next charge for days nobody paused), and a price change to a price of another billing frequency never is.
 */
type Iso = string | null;
export interface CancellationTook {
  pause_ids: number[];
  price_change_ids: number[];
  /** The subscription's pause fields as they were, when the cancellation cleared them. */
  pause_fields: { pause_start_at: Iso; pause_end_at: Iso } | null;
  /** The scheduled change as it was, when the cancellation cleared it. */
  transition: { to_price_id: number; takes_effect_at: Iso } | null;
  /** The deleted `upcoming` payments, whole (timestamps as ISO strings). */
  payments: Record<string, unknown>[];
}

type Subscription = typeof subscriptions.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function whatItTook(before: Subscription, after: Subscription, pauses: { id: number }[], changes: { id: number }[], deleted: (typeof payments.$inferSelect)[]): CancellationTook {
  return {
    pause_ids: pauses.map((p) => p.id),
    price_change_ids: changes.map((c) => c.id),
    pause_fields: before.pause_start_at && !after.pause_start_at ? { pause_start_at: iso(before.pause_start_at), pause_end_at: iso(before.pause_end_at) } : null,
    transition: before.transition_to_price_id && !after.transition_to_price_id ? { to_price_id: before.transition_to_price_id, takes_effect_at: iso(before.transition_takes_effect_at) } : null,
    payments: deleted.map((p) => JSON.parse(JSON.stringify(p)) as Record<string, unknown>),
  };
}

/**
 * What the cancellation now in force took. A cancellation recorded before its line kept this (before issue 28) is
 * read back from what it left: the pauses and price change it marked at its very instant, and its line's `before`.
 */
async function tookBy(t: Tenant, m: Membership): Promise<CancellationTook> {
  const cancelledAt = m.s.cancelled_at!;
  const [line] = await t.db
    .select({ before: subscription_events.before, after: subscription_events.after })
    .from(subscription_events)
    .where(t.where(subscription_events, eq(subscription_events.subscription_id, m.s.id), eq(subscription_events.action, "cancel")))
    .orderBy(desc(subscription_events.id))
    .limit(1);
  const recorded = line?.after?.cancelled_at === cancelledAt.toISOString() ? (line.after.took as CancellationTook | undefined) : undefined;
  if (recorded) return recorded;
  const pauses = await t.db
    .select({ id: subscription_pauses.id })
    .from(subscription_pauses)
    .where(t.where(subscription_pauses, eq(subscription_pauses.subscription_id, m.s.id), eq(subscription_pauses.removed_at, cancelledAt)));
  const changes = await t.db
    .select({ id: price_changes.id })
    .from(price_changes)
    .where(t.where(price_changes, eq(price_changes.subscription_id, m.s.id), eq(price_changes.cancelled_at, cancelledAt)));
  const before = (line?.before ?? {}) as Record<string, unknown>;
  const was = { ...m.s, pause_start_at: null, pause_end_at: null, transition_to_price_id: null, transition_takes_effect_at: null } as Subscription;
  const d = (v: unknown) => (typeof v === "string" ? new Date(v) : null);
  if (typeof before.pause_start_at === "string" && !m.s.pause_start_at) Object.assign(was, { pause_start_at: d(before.pause_start_at), pause_end_at: d(before.pause_end_at) });
  if (typeof before.transition_to_price_id === "number") Object.assign(was, { transition_to_price_id: before.transition_to_price_id, transition_takes_effect_at: d(before.transition_takes_effect_at) });
  return whatItTook(was, m.s, pauses, changes, []);
}

/** What undoing would put back now, and what it cannot. */
export async function undoEffect(t: Tenant, m: Membership, now: Date) {
  if (!m.s.cancelled_at) throw invalid({ _: ["This membership is not cancelled"] });
  if (!m.s.undo_cancellation_until || now >= m.s.undo_cancellation_until) {
    throw invalid({ _: [m.s.undo_cancellation_until ? `It could be undone until ${formatDate(m.s.undo_cancellation_until)}` : "This cancellation cannot be undone"] });
  }
  const today = localDay(now);
  const took = await tookBy(t, m);
  const removed = took.pause_ids.length
    ? await t.db
        .select()
        .from(subscription_pauses)
        .where(t.where(subscription_pauses, eq(subscription_pauses.subscription_id, m.s.id), inArray(subscription_pauses.id, took.pause_ids), isNotNull(subscription_pauses.removed_at)))
    : [];
  const back = removed.filter((p) => p.end_day > today);
  const over = removed.filter((p) => p.end_day <= today);
  let change: { to_price_id: number; amount: number; takes_effect: string } | null = null;
  if (took.transition && !m.s.transition_to_price_id) {
    const [to] = await t.db.select().from(prices).where(t.where(prices, eq(prices.id, took.transition.to_price_id)));
    // A change keeps the member's billing rhythm (decision 0040): one to another frequency is not put back.
    if (to && to.billing_frequency === m.price.billing_frequency) {
      change = { to_price_id: to.id, amount: to.amount, takes_effect: localDay(took.transition.takes_effect_at ?? m.s.current_period_end!) };
    }
  }
  const pauses: PauseFacts[] = [...m.facts.pauses, ...back.map((p) => ({ id: p.id, start: p.start_day, end: p.end_day }))];
  const facts = { ...m.facts, cancelledAt: null, pauses, priceChange: change ? { from: change.takes_effect, amount: change.amount } : m.facts.priceChange };
  const next = nextCharge(facts, today);
  return {
    paidUntil: m.facts.paidUntil,
    nextChargeOn: next?.day ?? null,
    nextCharge: next,
    pausesRestored: back.map((p) => ({ start: p.start_day, end: p.end_day })),
    pausesOver: over.map((p) => ({ start: p.start_day, end: p.end_day })),
    priceChangeRestored: change,
    paymentsRestored: took.payments.length,
    plan: { took, back, pauses, change },
  };
}

/** A deleted payment's row as it was: its timestamps back to dates. */
function paymentRow(json: Record<string, unknown>): typeof payments.$inferInsert {
  const row: Record<string, unknown> = { ...json };
  for (const [key, column] of Object.entries(getTableColumns(payments))) {
    if (column.columnType === "PgTimestamp" && typeof row[key] === "string") row[key] = new Date(row[key] as string);
  }
  return row as typeof payments.$inferInsert;
}

export async function applyUndoCancel(t: Tenant, m: Membership, version: number, actorId: number, now: Date) {
  const effect = await undoEffect(t, m, now);
  const { took, back, pauses, change } = effect.plan;
  const today = localDay(now);
  const before = snapshot(m.s);
  // The subscription's pause fields name the pause running today or the next one; they move only if the cancellation moved them.
  const movePauseFields = Boolean(took.pause_fields) || back.length > 0;
  const next = currentOrNextPause(pauses, today);
  const legacy = !m.pauses.length && !back.length && took.pause_fields?.pause_end_at && localDay(took.pause_fields.pause_end_at) > today ? took.pause_fields : null;
  const after = await changeSubscription(t, m.s.id, version, {
    cancelled_at: null,
    undo_cancellation_until: null,
    cancellation_reasons: null,
    cancellation_comments: null,
    cancelled_during_cooling_off_period: false,
    ...(movePauseFields
      ? legacy
        ? { pause_start_at: new Date(legacy.pause_start_at!), pause_end_at: legacy.pause_end_at ? new Date(legacy.pause_end_at) : null }
        : { pause_start_at: next ? startOfLocalDay(next.start) : null, pause_end_at: next ? startOfLocalDay(next.end) : null }
      : {}),
    ...(change ? { transition_to_price_id: change.to_price_id, transition_takes_effect_at: took.transition!.takes_effect_at ? new Date(took.transition!.takes_effect_at) : null } : {}),
  });
  if (back.length) {
    await t.db
      .update(subscription_pauses)
      .set({ removed_at: null })
      .where(t.where(subscription_pauses, eq(subscription_pauses.subscription_id, m.s.id), inArray(subscription_pauses.id, back.map((p) => p.id))));
  }
  if (change && took.price_change_ids.length) {
    await t.db
      .update(price_changes)
      .set({ cancelled_at: null })
      .where(t.where(price_changes, and(eq(price_changes.subscription_id, m.s.id), inArray(price_changes.id, took.price_change_ids), isNull(price_changes.applied_at))));
  }
  if (took.payments.length) {
    // The same rows, ids and keys: a charge shown to staff before is the same charge again. One written since for the same period wins.
    await t.db
      .insert(payments)
      .values(took.payments.map((p) => t.owned({ ...paymentRow(p), subscription_id: m.s.id })))
      .onConflictDoNothing();
  }
  const kept = [
    ...back.map((p) => `pause from ${formatDay(p.start_day)} until ${formatDay(p.end_day)} kept`),
    ...(change ? [`price change to ${formatCents(change.amount)} from ${formatDay(change.takes_effect)} kept`] : []),
    ...effect.pausesOver.map((p) => `pause from ${formatDay(p.start)} until ${formatDay(p.end)} is over: not brought back`),
  ];
  const summary = `Cancellation undone: the membership runs on${kept.length ? `; ${kept.join("; ")}` : ""}`;
  const event = await recordEvent(t, { subscriptionId: m.s.id, userId: m.s.user_id, actorId, action: "cancel.undo", summary, before, after: snapshot(after) });
  return { effect, event, subscription: after };
}
