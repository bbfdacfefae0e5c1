import { eq, isNull, ne, sql } from "drizzle-orm";
import { ALREADY_STAFF, IS_A_MEMBER, type StaffInvite, type StaffUpdate } from "../../domain/schemas/staff";
export { ALREADY_STAFF, IS_A_MEMBER };
import { roleLabel, type StaffRole } from "../../domain/staff";
import { ApiError, forbidden, invalid } from "../core/errors";
import { createLink } from "../core/auth/password-links";
import { endAllSessions } from "../core/auth/sessions";
import { gym_users, gyms, organisation_users, organisations, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import type { Mail } from "../core/mail/mailer";
import { staffAddedMail, staffInviteMail } from "../core/mail/templates";
import type { DoorProvider } from "../core/providers/doors/door-provider";
import { ProviderError } from "../core/providers/errors";
import { HELD_ELSEWHERE, heldElsewhere } from "../members/custody";
import { invite } from "../invitations/invite";
import { staffMember, type StaffScope, type StaffView } from "./read";
import { isUniqueViolation } from "../core/db/errors";

/**
 * Changing the staff of the organisation (issue 15; SPEC §5 Staff, §6). The rules:
 * - an organisation admin manages anyone; a gym admin manages staff who work only at gyms they run, gives roles only
 *   at those gyms, and makes nobody an organisation admin;
 * - the organisation always keeps one organisation admin who can sign in: the last is not removed, switched off or
 *   made anything else (checked under a lock on the organisation, so two admins cannot demote each other at once);
 * - switching someone off or removing them ends their sessions at once.
 */
export const lastAdmin = (name: string) => `${name} is the organisation's only admin: make someone else an organisation admin first`;

export interface Actor {
  id: number;
  name: string;
  /** The gyms where the actor manages staff ("all" for an organisation admin). */
  scope: StaffScope;
}

/** Checks the gyms given roles: the organisation's, and ones the actor runs. */
async function checkGyms(t: Tenant, actor: Actor, role: StaffRole | -1, chosen: { id: number }[]) {
  if (role === "admin" && actor.scope !== "all") throw forbidden("Only organisation admins can make someone an organisation admin.");
  if (!chosen.length) return;
  const known = new Set((await t.db.select({ id: gyms.id }).from(gyms).where(t.where(gyms))).map((g) => g.id));
  if (chosen.some((g) => !known.has(g.id))) throw invalid({ gyms: ["Choose a gym from the list"] });
  if (actor.scope !== "all" && chosen.some((g) => !(actor.scope as number[]).includes(g.id))) throw forbidden("You can only give roles at gyms you run.");
}

/** A staff member the actor may change: in scope (else 404) and, for a gym admin, working only at gyms they run. */
async function manageable(t: Tenant, actor: Actor, id: number) {
  const s = await staffMember(t, actor.scope, id);
  if (actor.scope !== "all") {
    const mine = actor.scope;
    if (s.is_organisation_admin || s.gyms.some((g) => !mine.includes(g.id))) throw forbidden("This staff member also works at gyms you don't run: ask an organisation admin.");
  }
  return s;
}

/** Refuses when `s` is the last organisation admin who can sign in and is about to stop being one. */
async function keepAnAdmin(t: Tenant, s: StaffView) {
  if (!s.is_organisation_admin || s.deleted_at || s.deactivated_at) return;
  // Serialises every change to who the admins are in this organisation.
  await t.db.execute(sql`select 1 from ${organisations} where ${organisations.id} = ${t.organisationId} for update`);
  const [{ n }] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(organisation_users)
    .where(t.where(organisation_users, eq(organisation_users.role, "admin"), ne(organisation_users.user_id, s.id), isNull(organisation_users.deleted_at), isNull(organisation_users.deactivated_at)));
  if (n === 0) throw invalid({ role: [lastAdmin(s.name)] }, lastAdmin(s.name));
}

/** Writes who the staff member is here: organisation admin, or their gym roles. */
async function setRoles(t: Tenant, userId: number, role: StaffRole | -1, chosen: { id: number; role: StaffRole }[]) {
  await t.db
    .update(organisation_users)
    .set({ role: role === "admin" ? "admin" : "personal_trainer", updated_at: new Date() })
    .where(t.where(organisation_users, eq(organisation_users.user_id, userId)));
  await t.db.delete(gym_users).where(t.where(gym_users, eq(gym_users.user_id, userId)));
  if (role !== "admin" && chosen.length) await t.db.insert(gym_users).values(chosen.map((g) => t.owned({ gym_id: g.id, user_id: userId, role: g.role })));
}

const roleInWords = (role: StaffRole | -1, chosen: { role: StaffRole }[]) =>
  role === "admin" ? "organisation admin" : [...new Set(chosen.map((g) => roleLabel(g.role)))].join(" and ");

/**
 * POST /api/organisations/{id}/staff. A new address becomes an account without a password. An address whose account
 * another organisation holds gets an invitation instead (decision 0048): they join when they accept it, and until
 * then this organisation sees only what it typed. Someone this organisation alone knew (removed staff) comes back
 * at once. Invited, a person without a password gets a link to set one, and a person with one is told they were
 * added. Answers the staff member (or the invitation) and the mail to send after the commit.
 */
export async function inviteStaff(
  t: Tenant,
  actor: Actor,
  input: StaffInvite,
  now: Date,
  urls: { setPassword: (token: string) => string; signIn: string; invitation: (token: string) => string },
): Promise<{ id: number; existing: boolean; mail: Mail | null; invitation: null } | { id: null; existing: true; mail: Mail; invitation: number }> {
  await checkGyms(t, actor, input.role, input.gyms);
  const [org] = await t.db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, t.organisationId));
  let [person] = await t.db.select().from(users).where(sql`lower(${users.email}) = ${input.email}`);
  const existing = Boolean(person);
  if (person) {
    const [here] = await t.db.select().from(organisation_users).where(t.where(organisation_users, eq(organisation_users.user_id, person.id)));
    if (here && !here.deleted_at) throw invalid({ email: [here.role === "member" ? IS_A_MEMBER : ALREADY_STAFF] });
    if (here?.role === "member") throw invalid({ email: [IS_A_MEMBER] });
    if (person.deleted_at) throw invalid({ email: ["This e-mail address belonged to an account that was deleted: use another address"] });
    if (await heldElsewhere(t, person.id)) {
      const role = input.role === "admin" ? ("admin" as const) : ("personal_trainer" as const);
      const asked = { userId: person.id, email: person.email, name: input.name, role, gyms: input.gyms, calendarColour: input.calendar_colour, invitedBy: actor };
      const inv = await invite(t, asked, now, urls.invitation);
      return { id: null, existing: true, mail: inv.mail, invitation: inv.id };
    }
    if (input.calendar_colour) await t.db.update(users).set({ calendar_colour: input.calendar_colour, updated_at: now }).where(eq(users.id, person.id));
    const fields = { role: input.role === "admin" ? ("admin" as const) : ("personal_trainer" as const), pending_invite: input.invite && !person.password_hash, deleted_at: null, deactivated_at: null, access_enabled: false, updated_at: now };
    // Someone removed earlier comes back with the new roles.
    if (here) await t.db.update(organisation_users).set(fields).where(t.where(organisation_users, eq(organisation_users.user_id, person.id)));
    else await t.db.insert(organisation_users).values(t.owned({ user_id: person.id, ...fields, created_at: now }));
  } else {
    try {
      [person] = await t.db
        .insert(users)
        .values({
          name: input.name ?? "",
          email: input.email,
          invited_at: input.invite ? now : null,
          calendar_colour: input.calendar_colour ?? undefined,
          current_organisation_id: t.organisationId,
          current_gym_id: input.gyms[0]?.id ?? null,
          created_at: now,
          updated_at: now,
        })
        .returning();
    } catch (err) {
      if (isUniqueViolation(err)) throw invalid({ email: [ALREADY_STAFF] });
      throw err;
    }
    await t.db.insert(organisation_users).values(
      t.owned({ user_id: person.id, role: input.role === "admin" ? ("admin" as const) : ("personal_trainer" as const), pending_invite: input.invite, access_enabled: false, created_at: now }),
    );
  }
  await setRoles(t, person.id, input.role, input.gyms);
  if (!input.invite) return { id: person.id, existing, mail: null, invitation: null };
  const about = { organisation: org.name, role: roleInWords(input.role, input.gyms), invitedBy: actor.name };
  if (person.password_hash) return { id: person.id, existing, mail: staffAddedMail(person.email, person.name, { ...about, url: urls.signIn }), invitation: null };
  await t.db.update(users).set({ invited_at: now }).where(eq(users.id, person.id));
  const token = await createLink(t.db, person.id, "invite", now);
  return { id: person.id, existing, mail: staffInviteMail(person.email, person.name || null, { ...about, url: urls.setPassword(token) }), invitation: null };
}

/** POST /api/staff/{id}/resend-invitation: a fresh link (older ones work until they expire or one is used). */
export async function resendInvitation(t: Tenant, actor: Actor, id: number, now: Date, setPassword: (token: string) => string): Promise<Mail> {
  const s = await manageable(t, actor, id);
  if (s.status === "removed") throw invalid({ _: ["This person has been removed from your staff: invite them again"] });
  const [person] = await t.db.select().from(users).where(eq(users.id, id));
  if (person.password_hash) throw invalid({ _: ["They have set a password already: they sign in, or reset it from the sign-in page"] });
  const [org] = await t.db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, t.organisationId));
  await t.db.update(users).set({ invited_at: now }).where(eq(users.id, id));
  await t.db.update(organisation_users).set({ pending_invite: true }).where(t.where(organisation_users, eq(organisation_users.user_id, id)));
  const token = await createLink(t.db, id, "invite", now);
  return staffInviteMail(person.email, person.name || null, { organisation: org.name, role: roleInWords(s.role, s.gyms), invitedBy: actor.name, url: setPassword(token) });
}

/** PUT /api/staff/{id}: name, roles and calendar colour. */
export async function updateStaff(t: Tenant, actor: Actor, id: number, input: StaffUpdate, now: Date) {
  const s = await manageable(t, actor, id);
  if (s.status === "removed") throw invalid({ _: ["This person has been removed from your staff: invite them again"] });
  await checkGyms(t, actor, input.role, input.gyms);
  if (input.role !== "admin") await keepAnAdmin(t, s);
  // Their name and colour are theirs (decision 0048): written only while no other organisation holds them.
  const changes = { ...(input.name !== s.name ? { name: input.name } : {}), ...(input.calendar_colour && input.calendar_colour !== s.calendar_colour ? { calendar_colour: input.calendar_colour } : {}) };
  if (Object.keys(changes).length) {
    if (await heldElsewhere(t, id)) throw invalid(Object.fromEntries(Object.keys(changes).map((k) => [k, [HELD_ELSEWHERE]])));
    await t.db.update(users).set({ ...changes, updated_at: now }).where(eq(users.id, id));
  }
  await setRoles(t, id, input.role, input.gyms);
}

/** POST /api/staff/{id}/deactivate and /reactivate: switched off, they cannot sign in here and their sessions end now. */
export async function setDeactivated(t: Tenant, actor: Actor, id: number, off: boolean, now: Date) {
  const s = await manageable(t, actor, id);
  if (s.status === "removed") throw invalid({ _: ["This person has been removed from your staff"] });
  if (off && id === actor.id) throw invalid({ _: ["You cannot switch yourself off: ask another admin"] });
  if (off) await keepAnAdmin(t, s);
  await t.db
    .update(organisation_users)
    .set({ deactivated_at: off ? now : null, updated_at: now })
    .where(t.where(organisation_users, eq(organisation_users.user_id, id)));
  // Every session of theirs, on any device: a session belongs to the person, not to one organisation.
  if (off) await endAllSessions(t.db, id);
}

/**
 * POST /api/staff/{id}/kisi-access { access_enabled }: the door system first, then our record, so a door system
 * that fails leaves both as they were.
 */
export async function setDoorAccess(t: Tenant, actor: Actor, doors: DoorProvider, id: number, enabled: boolean, now: Date) {
  const s = await manageable(t, actor, id);
  if (enabled && s.status !== "active") throw invalid({ access_enabled: ["Only staff who can sign in get door access"] });
  await callDoors(doors, { organisationId: t.organisationId, email: s.email, name: s.name }, enabled);
  await t.db.update(organisation_users).set({ access_enabled: enabled, updated_at: now }).where(t.where(organisation_users, eq(organisation_users.user_id, id)));
}

async function callDoors(doors: DoorProvider, who: { organisationId: number; email: string; name: string }, enabled: boolean) {
  try {
    await doors.setAccess(who, enabled);
  } catch (err) {
    if (err instanceof ProviderError) throw new ApiError(503, `The door system did not answer: ${err.message}`, "door_system_unavailable");
    throw err;
  }
}

/** DELETE /api/staff/{id}: removed (kept for the record, shown under "Removed"), doors shut, sessions ended. */
export async function removeStaff(t: Tenant, actor: Actor, doors: DoorProvider, id: number, now: Date) {
  const s = await manageable(t, actor, id);
  if (s.status === "removed") return;
  if (id === actor.id) throw invalid({ _: ["You cannot remove yourself: ask another admin"] });
  await keepAnAdmin(t, s);
  if (s.access_enabled) await callDoors(doors, { organisationId: t.organisationId, email: s.email, name: s.name }, false);
  await t.db
    .update(organisation_users)
    .set({ deleted_at: now, access_enabled: false, pending_invite: false, updated_at: now })
    .where(t.where(organisation_users, eq(organisation_users.user_id, id)));
  await endAllSessions(t.db, id);
}

/**
 * POST /api/organisations/{id}/staff-exists { email }: what the address is here. It answers about this organisation's
 * own people only: an account that only other organisations hold answers as no account at all (issue 29, L3), so
 * the question tells nobody who has an account elsewhere.
 */
export async function staffExists(t: Tenant, email: string) {
  const [here] = await t.db
    .select({ role: organisation_users.role, deleted_at: organisation_users.deleted_at, name: users.name })
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .where(t.where(organisation_users, sql`lower(${users.email}) = ${email}`));
  if (!here) return { exists: false, staff: false, member: false, removed: false, name: null };
  const staff = here.role !== "member" && !here.deleted_at;
  const member = here.role === "member" && !here.deleted_at;
  return { exists: true, staff, member, removed: Boolean(here.deleted_at), name: here.name };
}

