import { and, desc, eq } from "drizzle-orm";
import { localDay } from "../../domain/dates";
import { pauseDaysInYearBefore, previewMemberCancel, previewMemberPause, type MemberRules } from "../../domain/member-actions";
import type { MemberCancelRequest, MemberPauseRequest } from "../../domain/schemas/subscriptions";
import { organisation_users, organisations, subscription_events } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ApiError, invalid, notFound } from "../core/errors";
import { applyCancel } from "../subscriptions/cancel";
import { loadMembership, type Membership } from "../subscriptions/membership";
import { applyPause } from "../subscriptions/pause";
import { scheduleCancel, withdrawScheduledCancel } from "../subscriptions/scheduled-cancel";
import { applyUndoCancel, undoEffect } from "../subscriptions/undo-cancel";

/**
 * A member pausing or cancelling their own membership (issue 31, decision 0058): the organisation's rules
 * (domain/member-actions.ts) on top of staff's, the same previews, the same writes (server/subscriptions/), with the
 * member as the one who did it in the history. Only their latest membership here, found from the session.
 */
export async function memberRules(t: Tenant): Promise<MemberRules> {
  const [o] = await t.db
    .select({
      mayPause: organisations.members_may_pause,
      pauseDaysPerYear: organisations.member_pause_days_per_year,
      mayCancel: organisations.members_may_cancel,
      noticeDays: organisations.member_cancel_notice_days,
    })
    .from(organisations)
    .where(eq(organisations.id, t.organisationId));
  return o;
}

/** The member's latest membership, from the session: the only one they act on here. */
export async function myMembership(t: Tenant, userId: number): Promise<Membership> {
  const [place] = await t.db
    .select({ latest: organisation_users.latest_subscription_id })
    .from(organisation_users)
    .where(t.where(organisation_users, eq(organisation_users.user_id, userId)));
  if (!place?.latest) throw notFound("You have no membership here.");
  return loadMembership(t, place.latest);
}

/** Who cancelled it: a member undoes only a cancellation they made themselves (one staff made is staff's to undo). */
async function cancelledByThemselves(t: Tenant, m: Membership, userId: number) {
  const [last] = await t.db
    .select({ actor: subscription_events.actor_id })
    .from(subscription_events)
    .where(t.where(subscription_events, and(eq(subscription_events.subscription_id, m.s.id), eq(subscription_events.action, "cancel"))))
    .orderBy(desc(subscription_events.id))
    .limit(1);
  return last?.actor === userId;
}

/** The twelve months that count for "days left": to the end of the latest pause (one planned counts), or today. */
const latestPauseEnd = (m: Membership, today: string) => m.facts.pauses.reduce((latest, p) => (p.end > latest ? p.end : latest), today);

/** What the membership page offers: which actions are open now, and the rules in words' figures. */
export async function memberActions(t: Tenant, userId: number, now: Date) {
  const rules = await memberRules(t);
  const m = await myMembership(t, userId).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  });
  const today = localDay(now);
  const live = m && !m.s.cancelled_at && !m.s.upcoming_state && m.facts.frequency !== "one_off";
  const undoable = m?.s.cancel_at
    ? m.s.cancel_request?.requested_by === userId
    : Boolean(m?.s.cancelled_at && m.s.undo_cancellation_until && m.s.undo_cancellation_until > now && (await cancelledByThemselves(t, m, userId)));
  return {
    version: m?.s.version ?? null,
    pause: {
      offered: rules.mayPause,
      allowed: Boolean(rules.mayPause && live && !m!.s.cancel_at),
      days_per_year: rules.pauseDaysPerYear,
      days_left: m ? Math.max(0, rules.pauseDaysPerYear - pauseDaysInYearBefore(m.facts, latestPauseEnd(m, today))) : 0,
    },
    cancel: {
      offered: rules.mayCancel,
      allowed: Boolean(rules.mayCancel && m && !m.s.cancelled_at && !m.s.cancel_at && m.s.upcoming_state !== "failed"),
      notice_days: rules.noticeDays,
    },
    undo: { allowed: undoable, scheduled: Boolean(m?.s.cancel_at) },
  };
}

export async function pauseMine(t: Tenant, userId: number, req: MemberPauseRequest, now: Date) {
  const m = await myMembership(t, userId);
  const answer = previewMemberPause(m.facts, await memberRules(t), { start: req.start, end: req.end }, localDay(now));
  if ("errors" in answer) throw invalid(answer.errors);
  if (req.preview) return { preview: answer.effect, membership: m };
  const done = await applyPause(t, m, { action: "pause", start: req.start, end: req.end, reason: "Paused by the member", version: req.version }, userId, now);
  return { done, effect: answer.effect, membership: m };
}

export async function cancelMine(t: Tenant, userId: number, req: MemberCancelRequest, now: Date) {
  const m = await myMembership(t, userId);
  const answer = previewMemberCancel(m.facts, await memberRules(t), localDay(now), m.gym.break_fee_percentage);
  if ("errors" in answer) throw invalid(answer.errors);
  const effect = answer.effect;
  if (req.preview) return { preview: effect, membership: m };
  if (effect.scheduled) {
    const done = await scheduleCancel(t, m, req, effect.accessEnds, effect.paymentsBefore, userId, now);
    return { effect, event: done.event, version: done.subscription.version, membership: m };
  }
  const done = await applyCancel(t, m, { when: "period_end", reasons: req.reasons, comments: req.comments, version: req.version }, userId, now);
  return { effect, event: done.event, version: done.subscription.version, membership: m };
}

export async function undoMine(t: Tenant, userId: number, req: { version: number; preview?: boolean }, now: Date) {
  const m = await myMembership(t, userId);
  if (m.s.cancel_at) {
    if (m.s.cancel_request?.requested_by !== userId) throw invalid({ _: ["The gym cancelled your membership: ask them to undo it"] });
    if (req.preview) return { preview: { scheduled: true, nextCharge: null }, membership: m };
    const done = await withdrawScheduledCancel(t, m, req.version, userId);
    const after = await loadMembership(t, m.s.id);
    return { effect: { scheduled: true }, event: done.event, version: done.subscription.version, membership: after };
  }
  if (!m.s.cancelled_at) throw invalid({ _: ["Your membership is not cancelled"] });
  if (!(await cancelledByThemselves(t, m, userId))) throw invalid({ _: ["The gym cancelled your membership: ask them to undo it"] });
  if (req.preview) return { preview: await undoEffect(t, m, now), membership: m };
  const done = await applyUndoCancel(t, m, req.version, userId, now);
  return { effect: done.effect, event: done.event, version: done.subscription.version, membership: m };
}
