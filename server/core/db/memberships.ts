import { getTableName, sql, type Column } from "drizzle-orm";
import { conversations, gym_users, gyms, messages, offerings, organisation_users, organisations, payment_types, prices, subscriptions } from "./schema";

export type OrgRole = "admin" | "personal_trainer" | "member";
export type GymRole = OrgRole;
export type PaymentType = { id: number; type: (typeof payment_types.$inferSelect)["type"]; details: Record<string, string | number> };

/** One of a user's organisations, with what the session needs when it is the current one. */
export interface Membership {
  id: number;
  name: string;
  multi_gym: boolean;
  calendar_and_messaging: boolean;
  role: OrgRole;
  home_gym_id: number | null;
  default_payment_type_id: number | null;
  /**
   * The gyms the user may work in here: for an organisation admin every gym, as admin unless a gym gives them
   * another role; for a trainer the gyms they are staff of; for a member their home gym.
   */
  gyms: { id: number; name: string; logo: string | null; role: GymRole; archived: boolean; general_card_surcharge_text: string | null }[];
  /** The user's payment types in this organisation. */
  payment_types: PaymentType[];
  /** A member whose latest membership here stands (not a first payment that failed): the sign-up is finished. */
  membership_confirmed: boolean;
  /** What a member joining online came for (organisation_users.signup_price_id / signup_link_id). */
  signup_price_id: number | null;
  signup_link_id: number | null;
  /** The start day a walk-in was quoted at the desk (organisation_users.signup_start_on, issue 32). */
  signup_start_on: string | null;
  /** The offering of the price they came for (SPEC §3 Signed-in user `offering`). */
  signup_offering: { id: number; name: string } | null;
  /**
   * Members' messages no staff member has read yet in the conversations this user may open, counted for the
   * current organisation only (0 for the others, for a member, and without calendar and messaging): the sidebar's badge on every back-office page,
   * so it comes with the session read rather than as a query of its own.
   */
  unread_messages: number;
}

/** "table"."column", whatever the query around it: drizzle leaves names bare in a select from one table. */
const c = (column: Column) => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * The user's current memberships (not removed, not switched off), by organisation name, as one JSON value: a column that the
 * session read (server/core/auth/sessions.ts) selects alongside the session and user, so a signed-in request
 * learns who and where the user is in one round trip. `currentOrganisationId` is the user's column of it.
 */
export function membershipsOf(userId: Column, currentOrganisationId: Column) {
  const ou = organisation_users;
  const o = organisations;
  const pt = payment_types;
  const m = messages;
  const cv = conversations;
  // The current organisation as currentUser() (server/core/current-user.ts) picks it: the user's current one
  // if they still belong to it, else the first by name. Only its unread messages are counted.
  const current = sql`(
    select cur.organisation_id from ${ou} cur join ${o} co on co.id = cur.organisation_id
    where cur.user_id = ${c(userId)} and cur.deleted_at is null and cur.deactivated_at is null
    order by (cur.organisation_id is not distinct from ${c(currentOrganisationId)}) desc, co.name, co.id limit 1)`;
  return sql<Membership[]>`(
    select coalesce(json_agg(json_build_object(
        'id', ${c(o.id)}, 'name', ${c(o.name)}, 'multi_gym', ${c(o.multi_gym)}, 'calendar_and_messaging', ${c(o.calendar_and_messaging)},
        'role', ${c(ou.role)}, 'home_gym_id', ${c(ou.home_gym_id)}, 'default_payment_type_id', ${c(ou.default_payment_type_id)},
        'gyms', case ${c(ou.role)}
          when 'admin' then (
            select coalesce(json_agg(json_build_object('id', ${c(gyms.id)}, 'name', ${c(gyms.name)}, 'logo', ${c(gyms.logo)}, 'role', coalesce(${c(gym_users.role)}, 'admin'), 'archived', ${c(gyms.archived_at)} is not null, 'general_card_surcharge_text', ${c(gyms.general_card_surcharge_text)})
                            order by ${c(gyms.name)}, ${c(gyms.id)}), '[]')
            from ${gyms} left join ${gym_users} on ${c(gym_users.gym_id)} = ${c(gyms.id)} and ${c(gym_users.user_id)} = ${c(ou.user_id)}
            where ${c(gyms.organisation_id)} = ${c(o.id)})
          when 'personal_trainer' then (
            select coalesce(json_agg(json_build_object('id', ${c(gyms.id)}, 'name', ${c(gyms.name)}, 'logo', ${c(gyms.logo)}, 'role', ${c(gym_users.role)}, 'archived', ${c(gyms.archived_at)} is not null, 'general_card_surcharge_text', ${c(gyms.general_card_surcharge_text)})
                            order by ${c(gyms.name)}, ${c(gyms.id)}), '[]')
            from ${gym_users} join ${gyms} on ${c(gyms.id)} = ${c(gym_users.gym_id)}
            where ${c(gym_users.user_id)} = ${c(ou.user_id)} and ${c(gym_users.organisation_id)} = ${c(o.id)})
          else (
            select coalesce(json_agg(json_build_object('id', ${c(gyms.id)}, 'name', ${c(gyms.name)}, 'logo', ${c(gyms.logo)}, 'role', 'member', 'archived', ${c(gyms.archived_at)} is not null, 'general_card_surcharge_text', ${c(gyms.general_card_surcharge_text)})), '[]')
            from ${gyms} where ${c(gyms.id)} = ${c(ou.home_gym_id)})
        end,
        'payment_types', (
          select coalesce(json_agg(json_build_object('id', ${c(pt.id)}, 'type', ${c(pt.type)}, 'details', ${c(pt.details)}) order by ${c(pt.id)}), '[]')
          from ${pt} where ${c(pt.user_id)} = ${c(ou.user_id)} and ${c(pt.organisation_id)} = ${c(o.id)}),
        'membership_confirmed', exists (
          select 1 from ${subscriptions} where ${c(subscriptions.id)} = ${c(ou.latest_subscription_id)} and ${c(subscriptions.upcoming_state)} is distinct from 'failed'),
        'signup_price_id', ${c(ou.signup_price_id)}, 'signup_link_id', ${c(ou.signup_link_id)}, 'signup_start_on', ${c(ou.signup_start_on)},
        'signup_offering', (
          select json_build_object('id', ${c(offerings.id)}, 'name', ${c(offerings.name)})
          from ${prices} join ${offerings} on ${c(offerings.id)} = ${c(prices.offering_id)}
          where ${c(prices.id)} = ${c(ou.signup_price_id)} and ${c(prices.organisation_id)} = ${c(o.id)}),
        'unread_messages', case when ${c(o.calendar_and_messaging)} and ${c(ou.role)} <> 'member' and ${c(o.id)} = ${current} then (
          select count(*) from ${m} join ${cv} on ${c(cv.id)} = ${c(m.conversation_id)}
          where ${c(m.organisation_id)} = ${c(o.id)} and ${c(m.from_member)} and ${c(m.read_at)} is null and ${c(cv.organisation_id)} = ${c(o.id)}
            -- Only conversations the user may open (gymsWhere "members.read", server/messaging/conversations.ts):
            -- an organisation admin every one, gym staff those of their gyms' members.
            and (${c(ou.role)} = 'admin' or ${c(cv.gym_id)} in (
              select ${c(gym_users.gym_id)} from ${gym_users}
              where ${c(gym_users.user_id)} = ${c(ou.user_id)} and ${c(gym_users.organisation_id)} = ${c(o.id)})))
        else 0 end
      ) order by ${c(o.name)}, ${c(o.id)}), '[]')
    from ${ou} join ${o} on ${c(o.id)} = ${c(ou.organisation_id)}
    where ${c(ou.user_id)} = ${c(userId)} and ${c(ou.deleted_at)} is null and ${c(ou.deactivated_at)} is null)`;
}
