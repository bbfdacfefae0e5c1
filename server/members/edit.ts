import { and, eq, ne, sql } from "drizzle-orm";
import { PERSON_FIELDS, type MemberUpdate } from "../../domain/schemas/members";
import { gyms, organisation_users, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { HELD_ELSEWHERE, heldElsewhere } from "./custody";
import { invalid } from "../core/errors";
import type { FoundMember } from "./find";
import { isUniqueViolation } from "../core/db/errors";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

const EMAIL_TAKEN = "This e-mail address is already in use";


/**
 * PUT /api/members/{id}: replaces the member's editable profile in one transaction. The person's fields
 * live on users (shared by every organisation they belong to); notes, tags and home gym on this
 * organisation's membership. The person's fields (the e-mail, their sign-in, among them) are changed here only
 * while no other organisation holds the person (decision 0048, server/members/custody.ts): otherwise a change to
 * any of them is refused, naming each, and the same values sent back are fine.
 */
export async function updateMember(t: Tenant, found: FoundMember, v: MemberUpdate) {
  const { user } = found;
  const emailChanged = v.email.toLowerCase() !== user.email.toLowerCase();
  const next = personFields(v);
  const changed = PERSON_FIELDS.filter((f) => (next[f] ?? null) !== (user[f] ?? null));
  const held = await heldElsewhere(t, user.id);
  if (held && (emailChanged || changed.length)) {
    throw invalid(Object.fromEntries([...(emailChanged ? ["email"] : []), ...changed].map((f) => [f, [HELD_ELSEWHERE]])));
  }
  if (emailChanged) {
    const [taken] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${v.email.toLowerCase()}`, ne(users.id, user.id)))
      .limit(1);
    if (taken) throw invalid({ email: [EMAIL_TAKEN] });
  }
  if (v.home_gym_id) {
    const [gym] = await t.db
      .select({ id: gyms.id })
      .from(gyms)
      .where(t.where(gyms, eq(gyms.id, v.home_gym_id)));
    if (!gym) throw invalid({ home_gym_id: ["Choose a gym from the list"] });
  }
  try {
    await t.db.transaction(async (tx) => {
      // Held elsewhere, the person's row is not written at all (nothing changed in it).
      if (!held)
        await tx
          .update(users)
          .set({
            // A change of case alone keeps the address as the person typed it at sign-up.
            email: emailChanged ? v.email : user.email,
            ...(emailChanged ? { email_verified_at: null } : {}),
            ...next,
            updated_at: new Date(),
          })
          .where(eq(users.id, user.id));
      await tx
        .update(organisation_users)
        .set({
          notes: v.notes ?? null,
          tags: v.tags,
          home_gym_id: v.home_gym_id ?? found.membership.home_gym_id,
          updated_at: new Date(),
        })
        .where(t.where(organisation_users, eq(organisation_users.user_id, user.id)));
    });
  } catch (err) {
    // Another request took the address between the check and the write.
    if (isUniqueViolation(err)) throw invalid({ email: [EMAIL_TAKEN] });
    throw err;
  }
  await recordWebhookEvent(t, "member.updated", user.id, new Date());
}

/** The person's fields as the update would write them. */
function personFields(v: MemberUpdate) {
  return {
    name: v.name,
    mobile_number: v.mobile_number ?? null,
    dob: v.dob ?? null,
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
    confidence_and_experience: v.confidence_and_experience ?? null,
    hear_about_us: v.hear_about_us ?? null,
    hear_about_us_other: v.hear_about_us === "other" ? v.hear_about_us_other ?? null : null,
  } satisfies Record<(typeof PERSON_FIELDS)[number], unknown>;
}

/** DELETE /api/members/{id}: a soft delete of the membership; payments, visits and the person's account stay. */
export async function deleteMember(t: Tenant, found: FoundMember, at: Date) {
  await t.db
    .update(organisation_users)
    .set({ deleted_at: at, updated_at: at })
    .where(t.where(organisation_users, eq(organisation_users.user_id, found.user.id)));
}
