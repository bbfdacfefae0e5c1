import { and, eq } from "drizzle-orm";
import { formatDay, localDay, startOfLocalDay } from "../../domain/dates";
import { currentOrNextPause, pauseDaysRemaining, previewEndPause, previewPause, previewRemovePause, type PauseFacts } from "../../domain/lifecycle";
import type { PauseRequest } from "../../domain/schemas/subscriptions";
import { invalid } from "../core/errors";
import { subscription_pauses } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { recordEvent } from "../core/membership-history";
import { changeSubscription, snapshot, type Membership } from "./membership";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * Pauses (issue 12): schedule one (no charge falls inside it; every later charge moves by its length), end a
 * running one early, remove one not yet started, or change the member's pause-days credit (whole days). Each
 * answers its effect; `apply` writes it, with the membership's version checked.
 */
const day = formatDay;

/** The pause fields the subscription carries: the pause running today or the next one to come. */
const pauseFields = (pauses: PauseFacts[], today: string) => {
  const p = currentOrNextPause(pauses, today);
  return { pause_start_at: p ? startOfLocalDay(p.start) : null, pause_end_at: p ? startOfLocalDay(p.end) : null };
};

export function pauseEffect(m: Membership, req: PauseRequest, now: Date) {
  const today = localDay(now);
  if (req.action === "credit") {
    const before = pauseDaysRemaining(m.facts);
    if (m.s.pause_days_credit + req.days < 0) throw invalid({ days: [`The credit is ${m.s.pause_days_credit} days: take away at most that many`] });
    return { action: "credit" as const, creditBefore: m.s.pause_days_credit, creditAfter: m.s.pause_days_credit + req.days, remainingBefore: before, remainingAfter: before + req.days };
  }
  const answer =
    req.action === "pause"
      ? previewPause(m.facts, { start: req.start, end: req.end }, today)
      : req.action === "end"
        ? previewEndPause(m.facts, req.pause_id, req.end, today)
        : previewRemovePause(m.facts, req.pause_id, today);
  if ("errors" in answer) throw invalid(answer.errors);
  return { action: req.action, ...answer.effect };
}

export async function applyPause(t: Tenant, m: Membership, req: PauseRequest, actorId: number, now: Date) {
  const effect = pauseEffect(m, req, now);
  const today = localDay(now);
  const before = snapshot(m.s);
  let after;
  let summary: string;
  if (req.action === "credit") {
    after = await changeSubscription(t, m.s.id, req.version, { pause_days_credit: m.s.pause_days_credit + req.days });
    summary = `Pause credit ${req.days > 0 ? "raised" : "lowered"} by ${Math.abs(req.days)} days, to ${after.pause_days_credit} days`;
  } else if (req.action === "pause") {
    const pauses = [...m.facts.pauses, { start: req.start, end: req.end }];
    after = await changeSubscription(t, m.s.id, req.version, pauseFields(pauses, today));
    await t.db.insert(subscription_pauses).values(t.owned({ subscription_id: m.s.id, start_day: req.start, end_day: req.end, reason: req.reason ?? null, created_by: actorId }));
    summary = `Paused from ${day(req.start)} until ${day(req.end)} (${"days" in effect ? effect.days : 0} days)${req.reason ? `: ${req.reason}` : ""}`;
  } else {
    const pause = m.facts.pauses.find((p) => p.id === req.pause_id)!;
    const pauseId = req.pause_id;
    if (req.action === "end") {
      const ended: PauseFacts = "pause" in effect ? (effect.pause as PauseFacts) : pause;
      after = await changeSubscription(t, m.s.id, req.version, pauseFields(m.facts.pauses.map((p) => (p.id === pauseId ? ended : p)), today));
      await t.db
        .update(subscription_pauses)
        .set({ end_day: ended.end, ended_early_at: now })
        .where(t.where(subscription_pauses, and(eq(subscription_pauses.id, pauseId), eq(subscription_pauses.subscription_id, m.s.id))));
      summary = `Pause from ${day(pause.start)} ended early: back on ${day(ended.end)} instead of ${day(pause.end)}`;
    } else {
      after = await changeSubscription(t, m.s.id, req.version, pauseFields(m.facts.pauses.filter((p) => p.id !== pauseId), today));
      await t.db
        .update(subscription_pauses)
        .set({ removed_at: now })
        .where(t.where(subscription_pauses, and(eq(subscription_pauses.id, pauseId), eq(subscription_pauses.subscription_id, m.s.id))));
      summary = `Scheduled pause from ${day(pause.start)} until ${day(pause.end)} removed`;
    }
  }
  const event = await recordEvent(t, {
    subscriptionId: m.s.id,
    userId: m.s.user_id,
    actorId,
    action: `pause.${req.action}`,
    summary,
    before,
    after: snapshot(after),
  });
  // A pause set is news when it is set (its days are in the payload); one ended early or taken off, a resumption.
  if (req.action === "pause") await recordWebhookEvent(t, "subscription.paused", m.s.id, now);
  else if (req.action === "end" || req.action === "remove") await recordWebhookEvent(t, "subscription.resumed", m.s.id, now);
  return { effect, event, subscription: after };
}
