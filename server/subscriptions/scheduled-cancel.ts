import { and, gte, isNotNull, isNull } from "drizzle-orm";
import { formatDay, localDay, startOfLocalDay } from "../../domain/dates";
import { formatCents } from "../../domain/money";
import type { LocalDay } from "../../domain/periods";
import { CANCELLATION_REASON_LABELS, type CancellationReason } from "../../domain/schemas/subscriptions";
import type { NextCharge } from "../../domain/lifecycle";
import type { Db } from "../core/db/client";
import { subscriptions } from "../core/db/schema";
import { withTenant, type Tenant } from "../core/db/tenant";
import { recordEvent } from "../core/membership-history";
import { applyCancel } from "./cancel";
import { changeSubscription, loadMembership, snapshot, type Membership } from "./membership";

/**
 * A cancellation that waits for its day (decision 0058): asked for with notice that runs past the paid period, it
 * keeps the membership running, and charged, until the period end the notice runs into (`cancel_at`). The planner
 * charges no period from that day (server/billing/plan.ts); the daily billing job cancels it, as a cancellation at
 * the end of the paid period, once the period ending there is planned (`applyDueCancellations`, run by
 * server/jobs/scheduler.ts before the billing run). Until then it can be withdrawn.
 */
export async function scheduleCancel(
  t: Tenant,
  m: Membership,
  req: { reasons: CancellationReason[]; comments?: string | null; version: number },
  accessEnds: LocalDay,
  paymentsBefore: NextCharge[],
  actorId: number,
  now: Date,
) {
  const before = snapshot(m.s);
  const after = await changeSubscription(t, m.s.id, req.version, {
    cancel_at: startOfLocalDay(accessEnds),
    cancel_request: { reasons: req.reasons, comments: req.comments ?? null, requested_by: actorId, requested_at: now.toISOString() },
  });
  const reasons = req.reasons.map((r) => CANCELLATION_REASON_LABELS[r]).join(", ");
  const payments = paymentsBefore.map((p) => `${formatCents(p.amount)} on ${formatDay(p.day)}`).join(", ");
  const summary = `Cancellation asked for with notice: access until ${formatDay(accessEnds)}; still to pay ${payments} (${reasons})`;
  const event = await recordEvent(t, {
    subscriptionId: m.s.id,
    userId: m.s.user_id,
    actorId,
    action: "cancel.scheduled",
    summary,
    before,
    after: snapshot(after),
  });
  return { event, subscription: after };
}

/** Withdraws a waiting cancellation: the membership carries on as if it had not been asked for. */
export async function withdrawScheduledCancel(t: Tenant, m: Membership, version: number, actorId: number) {
  const before = snapshot(m.s);
  const after = await changeSubscription(t, m.s.id, version, { cancel_at: null, cancel_request: null });
  const summary = `Cancellation withdrawn: it was to end access on ${m.s.cancel_at ? formatDay(localDay(m.s.cancel_at)) : "—"}`;
  const event = await recordEvent(t, {
    subscriptionId: m.s.id,
    userId: m.s.user_id,
    actorId,
    action: "cancel.withdrawn",
    summary,
    before,
    after: snapshot(after),
  });
  return { event, subscription: after };
}

/**
 * The billing run's part: every waiting cancellation whose last period is planned (its paid period reaches the day)
 * becomes the cancellation it stood for, at the end of that period, made by whoever asked for it. Each in its own
 * transaction; one that fails is left for the next run.
 */
export async function applyDueCancellations(db: Db, now: Date): Promise<number> {
  const due = await db
    .select({ id: subscriptions.id, organisation_id: subscriptions.organisation_id })
    .from(subscriptions)
    .where(and(isNotNull(subscriptions.cancel_at), isNull(subscriptions.cancelled_at), gte(subscriptions.current_period_end, subscriptions.cancel_at)));
  let applied = 0;
  for (const { id, organisation_id } of due) {
    await withTenant(
      db,
      organisation_id,
      null,
      async (t) => {
        const m = await loadMembership(t, id);
        const request = m.s.cancel_request;
        if (!m.s.cancel_at || m.s.cancelled_at || !request) return;
        await applyCancel(
          t,
          m,
          { when: "period_end", reasons: request.reasons as CancellationReason[], comments: request.comments ?? undefined, version: m.s.version },
          request.requested_by,
          now,
        );
        applied++;
      },
      { atomic: true },
    );
  }
  return applied;
}
