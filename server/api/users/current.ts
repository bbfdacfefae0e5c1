import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { preparedFor } from "../../db/prepared";
import { gym_users, gyms, organisation_users, organisations, payment_types, type users } from "../../db/schema";

export type UserRow = typeof users.$inferSelect;
export type OrgRole = "admin" | "personal_trainer" | "member";

/** The signed-in user with where they are: current organisation and gym, and every place they may switch to. */
export interface CurrentUser {
  row: UserRow;
  organisations: { id: number; name: string; multi_gym: boolean; calendar_and_messaging: boolean; role: OrgRole }[];
  organisation: { id: number; name: string; multi_gym: boolean; calendar_and_messaging: boolean; role: OrgRole } | null;
  /** Gyms of the current organisation this user may work in (all of them for an organisation admin). */
  gyms: { id: number; name: string; role: GymRole | null }[];
  gym: { id: number; name: string; role: GymRole | null } | null;
  /** The member's default payment type in the current organisation. */
  defaultPaymentTypeId: number | null;
  /** The user's payment types in the current organisation. */
  paymentTypes: PaymentType[];
}

type GymRole = "admin" | "personal_trainer" | "member";
type PaymentType = { id: number; type: (typeof payment_types.$inferSelect)["type"]; details: Record<string, string | number> };

/**
 * Every signed-in request reads this, once per page: the user's organisations, each with what the session
 * needs when it is the current one (an admin's gyms, the user's payment types there), in one prepared
 * statement (server/db/prepared.ts) rather than a round trip each. An organisation admin works in every gym:
 * as admin unless a gym gives them another role.
 */
const memberships = preparedFor((db) => {
  const ou = organisation_users;
  return db
    .select({
      id: organisations.id,
      name: organisations.name,
      multi_gym: organisations.multi_gym,
      calendar_and_messaging: organisations.calendar_and_messaging,
      role: ou.role,
      home_gym_id: ou.home_gym_id,
      default_payment_type_id: ou.default_payment_type_id,
      admin_gyms: sql<{ id: number; name: string; role: GymRole }[] | null>`case when ${ou.role} = 'admin' then (
        select coalesce(json_agg(json_build_object('id', ${gyms.id}, 'name', ${gyms.name}, 'role', coalesce(${gym_users.role}, 'admin'))
                        order by ${gyms.name}, ${gyms.id}), '[]')
        from ${gyms} left join ${gym_users} on ${gym_users.gym_id} = ${gyms.id} and ${gym_users.user_id} = ${ou.user_id}
        where ${gyms.organisation_id} = ${organisations.id}) end`,
      payment_types: sql<PaymentType[]>`(
        select coalesce(json_agg(json_build_object('id', ${payment_types.id}, 'type', ${payment_types.type}, 'details', ${payment_types.details})
                        order by ${payment_types.id}), '[]')
        from ${payment_types} where ${payment_types.user_id} = ${ou.user_id} and ${payment_types.organisation_id} = ${organisations.id})`,
    })
    .from(ou)
    .innerJoin(organisations, eq(organisations.id, ou.organisation_id))
    .where(and(eq(ou.user_id, sql.placeholder("userId")), isNull(ou.deleted_at)))
    .orderBy(asc(organisations.name))
    .prepare("current_user_memberships");
});

export async function loadCurrentUser(db: Db, row: UserRow): Promise<CurrentUser> {
  const userId = row.id;

  const orgs = await memberships(db).execute({ userId });

  const current = orgs.find((o) => o.id === row.current_organisation_id) ?? orgs[0] ?? null;
  let gymList: CurrentUser["gyms"] = [];
  if (current) {
    if (current.role === "admin") {
      gymList = current.admin_gyms ?? [];
    } else if (current.role === "personal_trainer") {
      gymList = await db
        .select({ id: gyms.id, name: gyms.name, role: gym_users.role })
        .from(gym_users)
        .innerJoin(gyms, eq(gyms.id, gym_users.gym_id))
        .where(and(eq(gym_users.user_id, userId), eq(gym_users.organisation_id, current.id)))
        .orderBy(asc(gyms.name));
    } else if (current.home_gym_id) {
      gymList = (await db.select({ id: gyms.id, name: gyms.name }).from(gyms).where(eq(gyms.id, current.home_gym_id))).map((g) => ({
        ...g,
        role: "member" as const,
      }));
    }
  }
  const gym = gymList.find((g) => g.id === row.current_gym_id) ?? gymList[0] ?? null;
  const strip = ({ home_gym_id: _h, default_payment_type_id: _d, admin_gyms: _g, payment_types: _p, ...o }: (typeof orgs)[number]) => o;
  return {
    row,
    organisations: orgs.map(strip),
    organisation: current ? strip(current) : null,
    gyms: gymList,
    gym,
    defaultPaymentTypeId: current?.default_payment_type_id ?? null,
    paymentTypes: current?.payment_types ?? [],
  };
}

export const isOrganisationAdmin = (u: CurrentUser) => u.organisation?.role === "admin";
export const isGymAdmin = (u: CurrentUser) => u.gyms.some((g) => g.role === "admin");

/** GET /api/me: the fields SPEC §3 lists for the signed-in user. */
export function mePayload(u: CurrentUser) {
  const r = u.row;
  const types = u.paymentTypes;
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    mobile_number: r.mobile_number,
    is_staff: r.is_staff,
    email_verified_at: r.email_verified_at,
    current_organisation: u.organisation,
    current_gym: u.gym,
    organisations: u.organisations.map((o) => ({ id: o.id, name: o.name })),
    gyms: u.gyms,
    is_organisation_admin: isOrganisationAdmin(u),
    is_gym_admin: isGymAdmin(u),
    profile_picture: r.profile_picture,
    payment_types: types,
    default_payment_type: types.find((t) => t.id === u.defaultPaymentTypeId) ?? null,
    // Filled in by the sign-up flow's issue (chosen offering, price, start and billing dates).
    start_date: null as string | null,
    billing_date: null as string | null,
    offering: null as { id: number; name: string } | null,
    price_id: null as number | null,
    general_card_surcharge_text: null as string | null,
    should_onboard: r.should_onboard,
    invited_at: r.invited_at,
  };
}
