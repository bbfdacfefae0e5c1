import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { recordWebhookEvent } from "../outgoing-webhooks/events";
import { markAttended } from "../attendance/class-attendance";
import type { Db } from "../core/db/client";
import { access_control_doors, gyms, organisation_users, users, visits } from "../core/db/schema";
import { withTenant } from "../core/db/tenant";

/**
 * Door events (issue 15): the door system tells us each time someone tries a door (Kisi's event webhook: an
 * `unlock` of a `Lock`, successful or not, with who tried). A door that counts visits, at a gym that tracks them,
 * records a visit for the member — refused ones too (SPEC §3 Visit.successful) — shown on their page and /visits.
 * The same event delivered twice is one visit (visits.door_event_id).
 *
 * Signed as HMAC-SHA256 of the body in hex, in X-Kisi-Signature, with the webhook's secret (KISI_WEBHOOK_SECRET;
 * outside production or in a demo, the installation's own, which the sandbox door panel signs with:
 * server/core/webhooks/secrets.ts).
 */

export const kisiSignature = (body: string, secret: string) => createHmac("sha256", secret).update(body).digest("hex");

export function kisiSigned(body: string, header: string | undefined, secret: string) {
  if (!header || !/^[0-9a-f]{64}$/i.test(header)) return false;
  const expected = Buffer.from(kisiSignature(body, secret), "hex");
  return timingSafeEqual(expected, Buffer.from(header, "hex"));
}

export const doorEvent = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  action: z.string(),
  object_type: z.string(),
  object_id: z.union([z.string(), z.number()]).transform(String),
  success: z.boolean(),
  actor_email: z.string().email().optional(),
  actor: z.object({ email: z.string().email().optional() }).partial().optional(),
  created_at: z.string().datetime({ offset: true }).optional(),
});
export type DoorEvent = z.output<typeof doorEvent>;

export type EventResult = { recorded: boolean; reason: string };

export async function recordDoorEvent(db: Db, event: DoorEvent, now: Date): Promise<EventResult> {
  if (event.action !== "unlock" || event.object_type !== "Lock") return { recorded: false, reason: "not a door being opened" };
  const [door] = await db
    .select({ organisation_id: access_control_doors.organisation_id, gym_id: access_control_doors.gym_id, tracks: access_control_doors.tracks_visits, gym_tracks: gyms.tracks_visits })
    .from(access_control_doors)
    .innerJoin(gyms, eq(gyms.id, access_control_doors.gym_id))
    .where(eq(access_control_doors.door_id, event.object_id))
    .limit(1);
  if (!door) return { recorded: false, reason: "a door no gym has linked" };
  if (!door.tracks || !door.gym_tracks) return { recorded: false, reason: "this door does not count visits" };
  const email = (event.actor_email ?? event.actor?.email ?? "").toLowerCase();
  if (!email) return { recorded: false, reason: "no one named" };
  return withTenant(
    db,
    door.organisation_id,
    door.gym_id,
    async (t) => {
      const [member] = await t.db
        .select({ id: users.id })
        .from(users)
        .innerJoin(organisation_users, eq(organisation_users.user_id, users.id))
        .where(and(sql`lower(${users.email}) = ${email}`, eq(organisation_users.organisation_id, t.organisationId), eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at)));
      if (!member) return { recorded: false, reason: "not a member here" };
      const at = event.created_at ? new Date(event.created_at) : now;
      const [made] = await t.db
        .insert(visits)
        .values(t.owned({ gym_id: door.gym_id, user_id: member.id, visited_at: at, successful: event.success, door_event_id: event.id }))
        .onConflictDoNothing()
        .returning({ id: visits.id });
      if (!made) return { recorded: false, reason: "already recorded" };
      // Through the door during a class's window there: the member's booking is attended (server/attendance/class-attendance.ts).
      if (event.success) await markAttended(t, { userId: member.id, gymId: door.gym_id, visitId: made.id, at });
      await recordWebhookEvent(t, "visit.created", made.id, now);
      return { recorded: true, reason: event.success ? "visit" : "refused visit" };
    },
    { atomic: true },
  );
}
