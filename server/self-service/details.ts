import { eq } from "drizzle-orm";
import type { MemberSelfUpdate } from "../../domain/schemas/members";
import { users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/** The member's own details as their form shows them. */
export async function myDetails(t: Tenant, userId: number) {
  const [u] = await t.db.select().from(users).where(eq(users.id, userId));
  return {
    name: u.name,
    email: u.email,
    mobile_number: u.mobile_number,
    address: u.address,
    suburb: u.suburb,
    city: u.city,
    post_code: u.post_code,
    emergency_contact_name: u.emergency_contact_name,
    emergency_contact_number: u.emergency_contact_number,
    emergency_contact_relationship: u.emergency_contact_relationship,
    email_notifications: u.email_notifications,
    push_notifications: u.push_notifications,
    payment_reminders: u.payment_reminders,
  };
}

/**
 * PUT /api/me/details: the member changes their own person fields (decision 0048: they are the person's, so unlike an
 * organisation's edit no custody rule applies). A field left out is cleared, as staff's PUT does.
 */
export async function saveMyDetails(t: Tenant, userId: number, v: MemberSelfUpdate, at: Date) {
  await t.db
    .update(users)
    .set({
      name: v.name,
      mobile_number: v.mobile_number ?? null,
      address: v.address ?? null,
      suburb: v.suburb ?? null,
      city: v.city ?? null,
      post_code: v.post_code ?? null,
      emergency_contact_name: v.emergency_contact_name ?? null,
      emergency_contact_number: v.emergency_contact_number ?? null,
      emergency_contact_relationship: v.emergency_contact_relationship ?? null,
      email_notifications: v.email_notifications,
      push_notifications: v.push_notifications,
      payment_reminders: v.payment_reminders,
      updated_at: at,
    })
    .where(eq(users.id, userId));
  await recordWebhookEvent(t, "member.updated", userId, at);
}
