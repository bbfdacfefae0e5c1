import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { roleLabel, type StaffRole } from "../../domain/staff";
import { ApiError, invalid, notFound } from "../core/errors";
import { randomToken, sha256 } from "../core/auth/crypto";
import type { Db } from "../core/db/client";
import { gym_users, organisation_invitations, organisation_users, organisations, users } from "../core/db/schema";
import { withTenant, type Tenant } from "../core/db/tenant";
import type { Mail } from "../core/mail/mailer";
import { joinInvitationMail } from "../core/mail/templates";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * Invitations to join an organisation (decision 0048). A person who already has an account joins another
 * organisation only by accepting one: the import, the staff invitation and the desk make one instead of adding
 * them. Until they accept, the organisation sees what it typed here, never the account. The link is mailed to the
 * account's own address, so whoever uses it holds that mailbox: the same proof a password reset rests on.
 */
export const INVITATION_DAYS = 14;
const INVITATION_MS = INVITATION_DAYS * 24 * 60 * 60 * 1000;

export type InvitationRole = "admin" | "personal_trainer" | "member";
type Row = typeof organisation_invitations.$inferSelect;

export interface InvitationInput {
  userId: number;
  email: string;
  name: string | null;
  role: InvitationRole;
  gyms?: { id: number; role: StaffRole }[];
  homeGymId?: number | null;
  membership?: Row["membership"];
  calendarColour?: string | null;
  importId?: number | null;
  invitedBy: { id: number; name: string } | null;
}

const roleInWords = (role: InvitationRole, gyms: { role: StaffRole }[]) =>
  role === "member" ? "a member" : role === "admin" ? "an organisation admin" : [...new Set(gyms.map((g) => roleLabel(g.role)))].join(" and ") || "staff";

/**
 * Makes (or renews: a fresh link, the latest details) the organisation's open invitation to the person, and answers
 * the e-mail to send once committed. `url` turns the token into the link.
 */
export async function invite(t: Tenant, input: InvitationInput, now: Date, url: (token: string) => string): Promise<{ id: number; mail: Mail }> {
  const token = randomToken();
  const values = {
    user_id: input.userId,
    email: input.email,
    name: input.name ?? "",
    role: input.role,
    gyms: input.gyms ?? [],
    home_gym_id: input.homeGymId ?? null,
    membership: input.membership ?? {},
    calendar_colour: input.calendarColour ?? null,
    import_id: input.importId ?? null,
    invited_by: input.invitedBy?.id ?? null,
    token_hash: sha256(token),
    expires_at: new Date(now.getTime() + INVITATION_MS),
    created_at: now,
  };
  const [row] = await t.db
    .insert(organisation_invitations)
    .values(t.owned(values))
    .onConflictDoUpdate({
      target: [organisation_invitations.organisation_id, organisation_invitations.user_id],
      targetWhere: sql`accepted_at is null and declined_at is null and revoked_at is null`,
      set: { ...values, user_id: undefined },
    })
    .returning({ id: organisation_invitations.id });
  const [org] = await t.db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, t.organisationId));
  const mail = joinInvitationMail(input.email, {
    organisation: org.name,
    role: roleInWords(input.role, input.gyms ?? []),
    invitedBy: input.invitedBy?.name ?? org.name,
    url: url(token),
    days: INVITATION_DAYS,
  });
  return { id: row.id, mail };
}

const kindIs = (kind: "staff" | "member") =>
  kind === "member" ? eq(organisation_invitations.role, "member") : sql`${organisation_invitations.role} <> 'member'`;

/** The organisation's open invitations of one kind, for its staff page and the import's result. */
export async function openInvitations(t: Tenant, kind: "staff" | "member", now: Date) {
  const rows = await t.db
    .select({
      id: organisation_invitations.id,
      email: organisation_invitations.email,
      name: organisation_invitations.name,
      role: organisation_invitations.role,
      gyms: organisation_invitations.gyms,
      import_id: organisation_invitations.import_id,
      created_at: organisation_invitations.created_at,
      expires_at: organisation_invitations.expires_at,
    })
    .from(organisation_invitations)
    .where(
      t.where(
        organisation_invitations,
        isNull(organisation_invitations.accepted_at),
        isNull(organisation_invitations.declined_at),
        isNull(organisation_invitations.revoked_at),
        gt(organisation_invitations.expires_at, now),
        kindIs(kind),
      ),
    )
    .orderBy(organisation_invitations.created_at);
  return rows;
}

/** DELETE /api/invitations/{id}: withdrawn; its link stops working. */
export async function revoke(t: Tenant, id: number, kind: "staff" | "member", now: Date) {
  const [row] = await t.db
    .update(organisation_invitations)
    .set({ revoked_at: now })
    .where(
      t.where(
        organisation_invitations,
        eq(organisation_invitations.id, id),
        kindIs(kind),
        isNull(organisation_invitations.accepted_at),
        isNull(organisation_invitations.declined_at),
        isNull(organisation_invitations.revoked_at),
      ),
    )
    .returning({ id: organisation_invitations.id });
  if (!row) throw notFound("No such invitation.");
}

/** The open invitation a link names, read without a session (the system's handle), or null. */
async function byToken(db: Db, token: string, now: Date): Promise<Row | null> {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select()
    .from(organisation_invitations)
    .where(
      and(
        eq(organisation_invitations.token_hash, sha256(token)),
        isNull(organisation_invitations.accepted_at),
        isNull(organisation_invitations.declined_at),
        isNull(organisation_invitations.revoked_at),
        gt(organisation_invitations.expires_at, now),
      ),
    );
  return row ?? null;
}

const GONE = "This invitation has expired, been answered or been withdrawn. Ask the organisation for a new one.";
const gone = () => new ApiError(404, GONE, "invitation_gone");

/** GET /api/invitations/{token}: what the person is asked to join, for the page that asks them. */
export async function describe(db: Db, token: string, now: Date) {
  const row = await byToken(db, token, now);
  if (!row) throw gone();
  const [org] = await db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, row.organisation_id));
  const [by] = row.invited_by ? await db.select({ name: users.name }).from(users).where(eq(users.id, row.invited_by)) : [];
  return {
    organisation: org.name,
    role: row.role,
    role_in_words: roleInWords(row.role, row.gyms),
    invited_by: by?.name ?? null,
    email: row.email,
    expires_at: row.expires_at,
  };
}

/**
 * POST /api/invitations/{token}/accept: the person joins, as the invitation says, in one transaction with the
 * invitation marked used (locked first, so two clicks join once). Someone who is already on the staff or a member
 * there keeps what they are.
 */
export async function accept(db: Db, token: string, now: Date): Promise<{ organisation: string; role: InvitationRole }> {
  const found = await byToken(db, token, now);
  if (!found) throw gone();
  return withTenant(
    db,
    found.organisation_id,
    null,
    async (t) => {
      const [inv] = await t.db
        .select()
        .from(organisation_invitations)
        .where(
          t.where(
            organisation_invitations,
            eq(organisation_invitations.id, found.id),
            isNull(organisation_invitations.accepted_at),
            isNull(organisation_invitations.declined_at),
            isNull(organisation_invitations.revoked_at),
          ),
        )
        .for("update");
      if (!inv) throw gone();
      const [here] = await t.db
        .select()
        .from(organisation_users)
        .where(t.where(organisation_users, eq(organisation_users.user_id, inv.user_id)));
      const live = here && !here.deleted_at;
      if (live && (here.role === "member") !== (inv.role === "member")) {
        throw invalid({
          _: [
            here.role === "member"
              ? "You are a member there: ask them to remove your membership before you join their staff"
              : "You are on their staff already",
          ],
        });
      }
      if (!live) {
        const m = inv.membership;
        const staff = inv.role !== "member";
        const fields = {
          role: inv.role,
          deleted_at: null,
          deactivated_at: null,
          home_gym_id: inv.home_gym_id,
          pending_invite: false,
          access_enabled: !staff,
          ...(staff ? {} : { notes: m.notes ?? null, tags: m.tags ?? [], signup_price_id: m.signup_price_id ?? null, import_id: inv.import_id }),
          updated_at: now,
        };
        if (here)
          await t.db
            .update(organisation_users)
            .set(fields)
            .where(t.where(organisation_users, eq(organisation_users.user_id, inv.user_id)));
        else
          await t.db
            .insert(organisation_users)
            .values(t.owned({ user_id: inv.user_id, ...fields, created_at: m.joined_on ? new Date(`${m.joined_on}T00:00:00Z`) : now }));
        if (!staff) await recordWebhookEvent(t, "member.created", inv.user_id, now);
        if (staff) {
          await t.db.delete(gym_users).where(t.where(gym_users, eq(gym_users.user_id, inv.user_id)));
          if (inv.role !== "admin" && inv.gyms.length)
            await t.db.insert(gym_users).values(inv.gyms.map((g) => t.owned({ gym_id: g.id, user_id: inv.user_id, role: g.role })));
          if (inv.calendar_colour) await t.db.update(users).set({ calendar_colour: inv.calendar_colour }).where(eq(users.id, inv.user_id));
        }
      }
      await t.db.update(organisation_invitations).set({ accepted_at: now }).where(eq(organisation_invitations.id, inv.id));
      const [org] = await t.db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, inv.organisation_id));
      return { organisation: org.name, role: inv.role };
    },
    { atomic: true },
  );
}

/** POST /api/invitations/{token}/decline: answered no; the organisation sees it gone from its open invitations. */
export async function decline(db: Db, token: string, now: Date) {
  const found = await byToken(db, token, now);
  if (!found) throw gone();
  await db
    .update(organisation_invitations)
    .set({ declined_at: now })
    .where(and(eq(organisation_invitations.id, found.id), isNull(organisation_invitations.accepted_at)));
}
