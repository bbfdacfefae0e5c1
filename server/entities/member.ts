import { and, eq, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { inIds, ofOrganisation, preparedFor } from "../core/db/prepared";
import { access_control_credentials, bank_connections, organisation_users, payment_types, subscriptions, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import type { EntityContext } from "./context";
import { jsonArray, jsonObject, qualified as col } from "./sql";
import { currentGymSurcharge } from "./price";
import { subscriptionJson, subscriptionsFrom, theirPricesJson, type SubscriptionEntity, type SubscriptionRead } from "./subscription";
import { maskAccount } from "../../domain/bank-account";

/**
 * SPEC §3 Member, as the members list, a member's page and a member's changes answer: the person, their place in this
 * organisation (notes, tags, visits), their latest membership (SPEC's Subscription), how they pay, their door
 * credentials and their bank connection. Built for a batch of members in a fixed number of queries.
 */

/** A member's photo, at an address that changes with it (so it may be cached). */
export const memberPhotoUrl = (userId: number, photo: string | null) =>
  photo ? `/api/members/${userId}/profile-picture?v=${encodeURIComponent(photo)}` : null;

type PaymentTypeRow = Pick<typeof payment_types.$inferSelect, "id" | "type" | "details">;

/** What a Member is built from, as the read below gives it: times already as the entity writes them. */
type MemberRead = Pick<
  MemberEntity,
  | "id"
  | "name"
  | "email"
  | "mobile_number"
  | "dob"
  | "email_notifications"
  | "push_notifications"
  | "payment_reminders"
  | "emergency_contact_name"
  | "emergency_contact_number"
  | "emergency_contact_relationship"
  | "profile_picture"
  | "address"
  | "suburb"
  | "city"
  | "post_code"
  | "confidence_and_experience"
  | "hear_about_us"
  | "should_onboard"
  | "invited_at"
  | "visits_count"
  | "notes"
  | "tags"
  | "deleted_at"
> & {
  account_deleted_at: string | null;
  default_payment_type_id: number | null;
  payment_types: PaymentTypeRow[];
  credentials: MemberEntity["access_control_credentials"];
  /** Null when the member has no open-banking connection. */
  bank_reauthenticate: boolean | null;
  bank_revoked: boolean | null;
  memberships_held: number;
  latest_subscription: SubscriptionRead | null;
};

/** Rows of `table` that are this member's, in this organisation. */
const theirs = (table: { organisation_id: PgColumn; user_id: PgColumn }) =>
  sql`${table} where ${col(table.organisation_id)} = ${col(organisation_users.organisation_id)} and ${col(table.user_id)} = ${col(organisation_users.user_id)}`;

const credentials = access_control_credentials;
const memberJson = jsonObject({
  id: users.id,
  name: users.name,
  email: users.email,
  mobile_number: users.mobile_number,
  dob: users.dob,
  email_notifications: users.email_notifications,
  push_notifications: users.push_notifications,
  payment_reminders: users.payment_reminders,
  emergency_contact_name: users.emergency_contact_name,
  emergency_contact_number: users.emergency_contact_number,
  emergency_contact_relationship: users.emergency_contact_relationship,
  profile_picture: users.profile_picture,
  address: users.address,
  suburb: users.suburb,
  city: users.city,
  post_code: users.post_code,
  confidence_and_experience: users.confidence_and_experience,
  hear_about_us: users.hear_about_us,
  should_onboard: users.should_onboard,
  invited_at: users.invited_at,
  account_deleted_at: users.deleted_at,
  default_payment_type_id: organisation_users.default_payment_type_id,
  visits_count: organisation_users.visits_count,
  notes: organisation_users.notes,
  tags: organisation_users.tags,
  deleted_at: organisation_users.deleted_at,
  payment_types: jsonArray(
    jsonObject({ id: payment_types.id, type: payment_types.type, details: payment_types.details }),
    theirs(payment_types),
    col(payment_types.id),
  ),
  credentials: jsonArray(
    jsonObject({
      id: credentials.id,
      provider: credentials.provider,
      kind: credentials.kind,
      identifier_hint: credentials.identifier_hint,
      status: credentials.status,
      gym_id: credentials.gym_id,
      issued_at: credentials.issued_at,
      last_used_at: credentials.last_used_at,
    }),
    theirs(credentials),
    sql`${col(credentials.issued_at)} desc, ${col(credentials.id)} desc`,
  ),
  bank_reauthenticate: bank_connections.reauthenticate,
  bank_revoked: sql`${col(bank_connections.revoked_at)} is not null`,
  memberships_held: sql`(select count(*) from ${theirs(subscriptions)})`,
  latest_subscription: sql`case when ${col(subscriptions.id)} is null then null else ${subscriptionJson} end`,
});

/**
 * The members asked for, as one JSON array (MemberRead): the person, their membership, their payment types and door
 * credentials, their bank connection, how many memberships they have held, and their latest membership as
 * server/entities/subscription.ts reads it (server/entities/sql.ts). One prepared statement
 * (server/core/db/prepared.ts): the members list asks it on every page.
 */
const membersRead = preparedFor((db) =>
  db
    .select({
      members: sql<MemberRead[]>`coalesce(json_agg(${memberJson}), '[]')`,
      // The joined latest subscriptions' prices, in the same round trip.
      prices: theirPricesJson,
      current_gym: currentGymSurcharge,
    })
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .leftJoin(
      bank_connections,
      and(
        eq(bank_connections.organisation_id, organisation_users.organisation_id),
        eq(bank_connections.user_id, organisation_users.user_id),
        eq(bank_connections.provider, "akahu"),
      ),
    )
    .leftJoin(
      subscriptions,
      and(eq(subscriptions.organisation_id, organisation_users.organisation_id), eq(subscriptions.id, organisation_users.latest_subscription_id)),
    )
    .where(and(ofOrganisation(organisation_users), inIds(organisation_users.user_id, "ids"), eq(organisation_users.role, "member")))
    .prepare("member_entities"),
);

/** SPEC's Member for each user id that is a member of this organisation (removed ones too), by id. */
export async function memberEntities(t: Tenant, userIds: number[], ctx: EntityContext) {
  const out = new Map<number, MemberEntity>();
  const ids = [...new Set(userIds)];
  if (!ids.length) return out;
  const [{ members, ...prices }] = await membersRead(t.db).execute({ org: t.organisationId, ids, gym: t.gymId });
  const latest = await subscriptionsFrom(
    t,
    members.flatMap((m) => (m.latest_subscription ? [m.latest_subscription] : [])),
    prices,
    ctx,
  );
  for (const m of members) {
    const own = m.payment_types.map(paymentTypeEntity);
    out.set(m.id, {
      id: m.id,
      name: m.name,
      email: m.email,
      mobile_number: m.mobile_number,
      dob: m.dob,
      email_notifications: m.email_notifications,
      push_notifications: m.push_notifications,
      payment_reminders: m.payment_reminders,
      emergency_contact_name: m.emergency_contact_name,
      emergency_contact_number: m.emergency_contact_number,
      emergency_contact_relationship: m.emergency_contact_relationship,
      latest_subscription: m.latest_subscription ? latest.get(m.latest_subscription.id) ?? null : null,
      default_payment_type: own.find((p) => p.id === m.default_payment_type_id) ?? null,
      payment_types: own,
      profile_picture: memberPhotoUrl(m.id, m.profile_picture),
      visits_count: m.visits_count,
      notes: m.notes,
      access_control_credentials: m.credentials,
      // A connection the bank ended (consent revoked, token expired) is no connection, and is to be made again.
      reauthenticate_akahu: m.bank_reauthenticate ?? false,
      has_akahu_connection: m.bank_reauthenticate !== null && !m.bank_revoked,
      is_returning_member: m.memberships_held > 1,
      address: m.address,
      suburb: m.suburb,
      city: m.city,
      post_code: m.post_code,
      confidence_and_experience: m.confidence_and_experience,
      hear_about_us: m.hear_about_us,
      tags: m.tags,
      should_onboard: m.should_onboard,
      invited_at: m.invited_at,
      // Removed from this organisation (or the person's account removed): their history stays.
      deleted_at: m.deleted_at ?? m.account_deleted_at,
    });
  }
  return out;
}

export interface MemberEntity {
  id: number;
  name: string;
  email: string;
  mobile_number: string | null;
  dob: string | null;
  email_notifications: boolean;
  push_notifications: boolean;
  payment_reminders: boolean;
  emergency_contact_name: string | null;
  emergency_contact_number: string | null;
  emergency_contact_relationship: string | null;
  latest_subscription: SubscriptionEntity | null;
  default_payment_type: PaymentTypeEntity | null;
  payment_types: PaymentTypeEntity[];
  profile_picture: string | null;
  visits_count: number;
  notes: string | null;
  access_control_credentials: {
    id: number;
    provider: string;
    kind: string;
    identifier_hint: string | null;
    status: string;
    gym_id: number | null;
    issued_at: string | null;
    last_used_at: string | null;
  }[];
  reauthenticate_akahu: boolean;
  has_akahu_connection: boolean;
  is_returning_member: boolean;
  address: string | null;
  suburb: string | null;
  city: string | null;
  post_code: string | null;
  confidence_and_experience: string | null;
  hear_about_us: string | null;
  tags: string[];
  should_onboard: boolean;
  invited_at: string | null;
  deleted_at: string | null;
}

/**
 * SPEC §3 Payment type as staff see a member's: its kind, and the kind's fields in `details`, a bank account's number
 * masked as every account number staff are shown is (the member sees their own whole, on /api/me).
 */
export function paymentTypeEntity(p: PaymentTypeRow): PaymentTypeEntity {
  const details = typeof p.details.account_number === "string" ? { ...p.details, account_number: maskAccount(p.details.account_number) } : p.details;
  return { id: p.id, type: p.type, details };
}

export interface PaymentTypeEntity {
  id: number;
  type: "bank_account" | "stripe_card" | "gocardless_bank_account";
  details: Record<string, string | number>;
}
