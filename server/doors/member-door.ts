import { and, eq } from "drizzle-orm";
import type { AccessDecision } from "../../domain/access";
import type { MemberDoor } from "../../domain/welcome-words";
import { access_control_credentials, access_control_places } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { integrationOf } from "./integration";

/**
 * The door facts for a member's own pages (issue 32): the rule alone said "your door access is on" to members with no
 * credential at a gym with no door system. `gymId` is the gym they get in at (their membership's, else their home gym).
 */
export async function memberDoor(t: Tenant, userId: number, gymId: number | null, access: AccessDecision): Promise<MemberDoor> {
  const [credential] = await t.db
    .select({ id: access_control_credentials.id })
    .from(access_control_credentials)
    .where(t.where(access_control_credentials, and(eq(access_control_credentials.user_id, userId), eq(access_control_credentials.status, "active"))))
    .limit(1);
  const integration = await integrationOf(t);
  const [place] =
    integration && gymId !== null
      ? await t.db
          .select({ id: access_control_places.id })
          .from(access_control_places)
          .where(t.where(access_control_places, eq(access_control_places.gym_id, gymId)))
      : [];
  return { allowed: access.allowed, reason: access.reason, has_credentials: Boolean(credential), door_system: Boolean(place) };
}
