import { and, desc, eq, ne } from "drizzle-orm";
import { accessAt } from "../../domain/access";
import { access_control_credentials, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ProviderError } from "../core/providers/errors";
import type { DoorProvider } from "../core/providers/doors/door-provider";
import { recordEvent } from "../core/membership-history";

/**
 * A member's door access (issue 12): what their membership allows (domain/access.ts), what the door system holds
 * for them, and their credentials; and "recreate the door login": add them to the door system again with access as
 * their membership says, their credentials active or suspended to match.
 */
export async function doorAccess(t: Tenant, doors: DoorProvider, member: { id: number; email: string; name: string }, now: Date) {
  const [latest] = await t.db.select().from(subscriptions).where(t.where(subscriptions, eq(subscriptions.user_id, member.id))).orderBy(desc(subscriptions.created_at), desc(subscriptions.id)).limit(1);
  const decision = accessAt(latest ?? null, now);
  let door: { provider: string; mode: string; known: boolean; access_enabled: boolean | null; error: string | null };
  try {
    const held = await doors.accessOf({ organisationId: t.organisationId, email: member.email, name: member.name });
    door = { provider: doors.name, mode: doors.mode, known: Boolean(held), access_enabled: held?.accessEnabled ?? null, error: null };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    door = { provider: doors.name, mode: doors.mode, known: false, access_enabled: null, error: err.message };
  }
  const credentials = await t.db
    .select({ id: access_control_credentials.id, kind: access_control_credentials.kind, identifier_hint: access_control_credentials.identifier_hint, status: access_control_credentials.status, provider: access_control_credentials.provider })
    .from(access_control_credentials)
    .where(t.where(access_control_credentials, eq(access_control_credentials.user_id, member.id)));
  return { allowed: decision.allowed, reason: decision.reason, door, credentials, agrees: door.access_enabled === null ? !decision.allowed : door.access_enabled === decision.allowed };
}

export async function recreateDoorLogin(t: Tenant, doors: DoorProvider, member: { id: number; email: string; name: string }, actorId: number, now: Date) {
  const before = await doorAccess(t, doors, member, now);
  try {
    await doors.setAccess({ organisationId: t.organisationId, email: member.email, name: member.name }, before.allowed);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    throw new ProviderError(`The door system did not answer: ${err.message}`, err.retryable);
  }
  await t.db
    .update(access_control_credentials)
    .set({ status: before.allowed ? "active" : "suspended" })
    .where(t.where(access_control_credentials, and(eq(access_control_credentials.user_id, member.id), ne(access_control_credentials.status, "revoked"))));
  const [latest] = await t.db.select({ id: subscriptions.id }).from(subscriptions).where(t.where(subscriptions, eq(subscriptions.user_id, member.id))).orderBy(desc(subscriptions.created_at)).limit(1);
  await recordEvent(t, {
    subscriptionId: latest?.id ?? null,
    userId: member.id,
    actorId,
    action: "door.recreate",
    summary: `Door login recreated at ${doors.name === "kisi" ? "Kisi" : doors.name}: access ${before.allowed ? "on" : "off"} (${before.reason})`,
  });
  return doorAccess(t, doors, member, now);
}
