import { and, asc, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { gymRoleLabel, PER_GYM, roleLabel, type StaffKind, type StaffRole, type StaffStatus } from "../../domain/staff";
import { notFound } from "../core/errors";
import { gym_users, gyms, organisation_users, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * Reading the staff of the organisation (SPEC §3 Staff; issue 15). An organisation admin sees everyone; a gym admin
 * sees the staff who work at one of their gyms (`scope`, from the permission table).
 */
export type StaffScope = "all" | number[];

export interface StaffGym {
  id: number;
  name: string;
  role: StaffRole;
  /** "Newmarket: Personal Trainer" (SPEC §3 role labels). */
  label: string;
}

const staffRow = {
  id: users.id,
  name: users.name,
  email: users.email,
  org_role: organisation_users.role,
  has_password: sql<boolean>`${users.password_hash} is not null`,
  pending: organisation_users.pending_invite,
  access_enabled: organisation_users.access_enabled,
  deleted_at: organisation_users.deleted_at,
  deactivated_at: organisation_users.deactivated_at,
  profile_picture: users.profile_picture,
  visits_count: organisation_users.visits_count,
  calendar_colour: users.calendar_colour,
  invited_at: users.invited_at,
  created_at: organisation_users.created_at,
};
/** Staff rows (never members) of the tenant matching `conditions`, by name. */
const selectStaff = (t: Tenant, ...conditions: (SQL | undefined)[]) =>
  t.db
    .select(staffRow)
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .where(t.where(organisation_users, sql`${organisation_users.role} <> 'member'`, ...conditions))
    .orderBy(sql`lower(coalesce(nullif(${users.name}, ''), ${users.email}))`, asc(users.id));
type Row = Awaited<ReturnType<typeof selectStaff>>[number];

/** The organisation's gyms, and each staff member's gym roles, read once for a list. */
async function gymRolesOf(t: Tenant, userIds: number[]) {
  const all = await t.db.select({ id: gyms.id, name: gyms.name }).from(gyms).where(t.where(gyms)).orderBy(asc(gyms.name), asc(gyms.id));
  const roles = userIds.length
    ? await t.db.select({ user_id: gym_users.user_id, gym_id: gym_users.gym_id, role: gym_users.role }).from(gym_users).where(t.where(gym_users, inArray(gym_users.user_id, userIds)))
    : [];
  return { all, roles };
}

/** The role a staff member is shown with: an organisation admin, a trainer wherever they work, or roles gym by gym (-1). */
function kindOf(orgRole: string, gymsHeld: StaffGym[]): StaffKind {
  if (orgRole === "admin") return "admin";
  return gymsHeld.every((g) => g.role === "personal_trainer") ? "personal_trainer" : PER_GYM;
}

function statusOf(r: Row): StaffStatus {
  if (r.deleted_at) return "removed";
  if (r.deactivated_at) return "deactivated";
  return r.pending && !r.has_password ? "invited" : "active";
}

function present(r: Row, gymsHeld: StaffGym[]) {
  const kind = kindOf(r.org_role, gymsHeld);
  return {
    id: r.id,
    // An invitee who has not yet given a name is shown by their e-mail address.
    name: r.name || r.email,
    email: r.email,
    role: kind,
    role_label: kind === "admin" ? "Organisation admin" : kind === "personal_trainer" ? roleLabel("personal_trainer") : "Roles per gym",
    is_organisation_admin: r.org_role === "admin",
    gyms: gymsHeld,
    pending_invite: r.pending && !r.has_password,
    access_enabled: r.access_enabled,
    status: statusOf(r),
    deactivated_at: r.deactivated_at,
    deleted_at: r.deleted_at,
    profile_picture: r.profile_picture,
    visits_count: r.visits_count,
    calendar_colour: r.calendar_colour,
    invited_at: r.invited_at,
    created_at: r.created_at,
  };
}
export type StaffView = ReturnType<typeof present>;

function assemble(rows: Row[], all: { id: number; name: string }[], roles: { user_id: number; gym_id: number; role: StaffRole }[]) {
  return rows.map((r) => {
    const own = new Map(roles.filter((g) => g.user_id === r.id).map((g) => [g.gym_id, g.role]));
    // An organisation admin holds every gym, as admin unless a gym gives them another role (server/core/db/memberships.ts).
    const held = all
      .filter((g) => r.org_role === "admin" || own.has(g.id))
      .map((g) => {
        const role = own.get(g.id) ?? "admin";
        return { id: g.id, name: g.name, role, label: gymRoleLabel(g.name, role) };
      });
    return present(r, held);
  });
}

/** Staff of the gyms in scope: an organisation admin's scope is everyone; a gym admin's, those working at one of their gyms. */
function inScope(scope: StaffScope): SQL | undefined {
  if (scope === "all") return undefined;
  if (!scope.length) return sql`false`;
  return sql`${organisation_users.role} <> 'admin' and exists (select 1 from ${gym_users} where ${gym_users.user_id} = ${organisation_users.user_id}
    and ${gym_users.organisation_id} = ${organisation_users.organisation_id} and ${inArray(gym_users.gym_id, scope)})`;
}

const STATUS: Record<string, SQL | undefined> = {
  current: isNull(organisation_users.deleted_at),
  invited: and(isNull(organisation_users.deleted_at), isNull(organisation_users.deactivated_at), eq(organisation_users.pending_invite, true), isNull(users.password_hash)),
  active: and(isNull(organisation_users.deleted_at), isNull(organisation_users.deactivated_at), sql`not (${organisation_users.pending_invite} and ${users.password_hash} is null)`),
  deactivated: and(isNull(organisation_users.deleted_at), isNotNull(organisation_users.deactivated_at)),
  removed: isNotNull(organisation_users.deleted_at),
};

/** GET /api/organisations/{id}/staff: by name; `search` matches name or e-mail. */
export async function listStaff(t: Tenant, scope: StaffScope, q: { status: keyof typeof STATUS; search?: string }) {
  const like = q.search ? `%${q.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
  const rows = await selectStaff(t, STATUS[q.status], inScope(scope), like ? sql`(${users.name} ilike ${like} or ${users.email} ilike ${like})` : undefined).limit(1000);
  const { all, roles } = await gymRolesOf(t, rows.map((r) => r.id));
  return assemble(rows, all, roles);
}

/** GET /api/staff/{id}: one staff member in scope (removed ones too, so their page still answers), else 404. */
export async function staffMember(t: Tenant, scope: StaffScope, id: number) {
  const rows = await selectStaff(t, eq(organisation_users.user_id, id), inScope(scope));
  if (!rows.length) throw notFound("No such staff member.");
  const { all, roles } = await gymRolesOf(t, [id]);
  return assemble(rows, all, roles)[0];
}

/** The organisation's gyms a staff form offers: every gym for an organisation admin, else the gyms the user runs. */
export async function assignableGyms(t: Tenant, scope: StaffScope) {
  const all = await t.db.select({ id: gyms.id, name: gyms.name }).from(gyms).where(t.where(gyms)).orderBy(asc(gyms.name), asc(gyms.id));
  return scope === "all" ? all : all.filter((g) => scope.includes(g.id));
}
