import { and, eq } from "drizzle-orm";
import { visits } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { notFound } from "../core/errors";
import { checkInCards } from "./cards";
import { recordWebhookEvent } from "../outgoing-webhooks/events";
import { markAttended } from "../attendance/class-attendance";

/**
 * A check-in at the desk or the kiosk (issue 32): a visit like a door's, let in or refused by the same access rule
 * (domain/access.ts), with the reason kept for a refusal, so it is counted and listed wherever visits are (the
 * daily rollup's and the member's counters' triggers count the successful ones, whatever their source). The form's
 * key, with the member, is the visit's event id: the same form sent twice is one visit (visits_door_event_idx).
 */
export async function checkIn(t: Tenant, p: { userId: number; gymId: number; key: string; source: "desk" | "kiosk"; staffId: number | null }, now: Date) {
  const [card] = await checkInCards(t, [p.userId], now);
  if (!card) throw notFound("No such member.");
  const event = `check-in:${p.userId}:${p.key}`;
  const [made] = await t.db
    .insert(visits)
    .values(
      t.owned({
        gym_id: p.gymId,
        user_id: p.userId,
        visited_at: now,
        successful: card.allowed,
        reason: card.allowed ? null : card.reason,
        source: p.source,
        checked_in_by: p.staffId,
        door_event_id: event,
      }),
    )
    .onConflictDoNothing()
    .returning();
  if (made) {
    // Let in during a class's window there: the member's booking is attended (server/attendance/class-attendance.ts).
    if (made.successful) await markAttended(t, { userId: p.userId, gymId: p.gymId, visitId: made.id, at: now });
    await recordWebhookEvent(t, "visit.created", made.id, now);
    return { visit: made, card, repeated: false };
  }
  const [earlier] = await t.db
    .select()
    .from(visits)
    .where(t.where(visits, and(eq(visits.door_event_id, event))));
  if (!earlier) throw notFound("No such check-in.");
  return { visit: earlier, card, repeated: true };
}

/** GET /api/check-ins/{id}: a check-in at one of the staff's gyms, as the result page shows it. */
export async function checkInResult(t: Tenant, visitId: number, now: Date) {
  const [v] = await t.db
    .select()
    .from(visits)
    .where(t.where(visits, eq(visits.id, visitId)));
  if (!v || v.source === "door") return null;
  const [card] = await checkInCards(t, [v.user_id], now);
  return card ? { visit: v, card } : null;
}
