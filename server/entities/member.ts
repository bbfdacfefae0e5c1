import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { access_control_credentials, bank_connections, organisation_users, payment_types, subscriptions, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import type { EntityContext } from "./context";
import { subscriptionEntities, type SubscriptionEntity } from "./subscription";
import { maskAccount } from "../../domain/bank-account";

/**
 * SPEC §3 Member, as the members list, a member's page and a member's changes answer: the person, their place in this
 * organisation (notes, tags, visits), their latest membership (SPEC's Subscription), how they pay, their door
 * credentials and their bank connection. Built for a batch of members in a fixed number of queries.
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A member's photo, at an address that changes with it (so it may be cached). */
export const memberPhotoUrl = (userId: number, photo: string | null) =>
  photo ? `/api/members/${userId}/profile-picture?v=${encodeURIComponent(photo)}` : null;

/** SPEC's Member for each user id that is a member of this organisation (removed ones too), by id. */
export async function memberEntities(t: Tenant, userIds: number[], ctx: EntityContext) {
  const out = new Map<number, MemberEntity>();
  const ids = [...new Set(userIds)];
  if (!ids.length) return out;
  const [people, types, credentials, banks, held] = await Promise.all([
    t.db
      .select({ u: users, m: organisation_users })
      .from(organisation_users)
      .innerJoin(users, eq(users.id, organisation_users.user_id))
      .where(t.where(organisation_users, inArray(organisation_users.user_id, ids), eq(organisation_users.role, "member"))),
    t.db
      .select()
      .from(payment_types)
      .where(t.where(payment_types, inArray(payment_types.user_id, ids)))
      .orderBy(asc(payment_types.id)),
    t.db
      .select()
      .from(access_control_credentials)
      .where(t.where(access_control_credentials, inArray(access_control_credentials.user_id, ids)))
      .orderBy(desc(access_control_credentials.issued_at)),
    t.db
      .select({ user_id: bank_connections.user_id, reauthenticate: bank_connections.reauthenticate, revoked_at: bank_connections.revoked_at })
      .from(bank_connections)
      .where(t.where(bank_connections, and(inArray(bank_connections.user_id, ids), eq(bank_connections.provider, "akahu")))),
    t.db
      .select({ user_id: subscriptions.user_id, n: count() })
      .from(subscriptions)
      .where(t.where(subscriptions, inArray(subscriptions.user_id, ids)))
      .groupBy(subscriptions.user_id),
  ]);
  const latest = await subscriptionEntities(
    t,
    people.flatMap(({ m }) => (m.latest_subscription_id ? [m.latest_subscription_id] : [])),
    ctx,
  );
  for (const { u, m } of people) {
    const own = types.filter((p) => p.user_id === u.id).map(paymentTypeEntity);
    const bank = banks.find((b) => b.user_id === u.id);
    out.set(u.id, {
      id: u.id,
      name: u.name,
      email: u.email,
      mobile_number: u.mobile_number,
      dob: u.dob,
      email_notifications: u.email_notifications,
      push_notifications: u.push_notifications,
      payment_reminders: u.payment_reminders,
      emergency_contact_name: u.emergency_contact_name,
      emergency_contact_number: u.emergency_contact_number,
      emergency_contact_relationship: u.emergency_contact_relationship,
      latest_subscription: m.latest_subscription_id ? latest.get(m.latest_subscription_id) ?? null : null,
      default_payment_type: own.find((p) => p.id === m.default_payment_type_id) ?? null,
      payment_types: own,
      profile_picture: memberPhotoUrl(u.id, u.profile_picture),
      visits_count: m.visits_count,
      notes: m.notes,
      access_control_credentials: credentials
        .filter((c) => c.user_id === u.id)
        .map((c) => ({
          id: c.id,
          provider: c.provider,
          kind: c.kind,
          identifier_hint: c.identifier_hint,
          status: c.status,
          gym_id: c.gym_id,
          issued_at: iso(c.issued_at),
          last_used_at: iso(c.last_used_at),
        })),
      // A connection the bank ended (consent revoked, token expired) is no connection, and is to be made again.
      reauthenticate_akahu: bank?.reauthenticate ?? false,
      has_akahu_connection: Boolean(bank && !bank.revoked_at),
      is_returning_member: (held.find((h) => h.user_id === u.id)?.n ?? 0) > 1,
      address: u.address,
      suburb: u.suburb,
      city: u.city,
      post_code: u.post_code,
      confidence_and_experience: u.confidence_and_experience,
      hear_about_us: u.hear_about_us,
      tags: m.tags,
      should_onboard: u.should_onboard,
      invited_at: iso(u.invited_at),
      // Removed from this organisation (or the person's account removed): their history stays.
      deleted_at: iso(m.deleted_at ?? u.deleted_at),
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
export function paymentTypeEntity(p: typeof payment_types.$inferSelect): PaymentTypeEntity {
  const details = typeof p.details.account_number === "string" ? { ...p.details, account_number: maskAccount(p.details.account_number) } : p.details;
  return { id: p.id, type: p.type, details };
}

export interface PaymentTypeEntity {
  id: number;
  type: "bank_account" | "stripe_card" | "gocardless_bank_account";
  details: Record<string, string | number>;
}
