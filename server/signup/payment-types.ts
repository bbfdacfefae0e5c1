import { and, eq, sql } from "drizzle-orm";
import type { PaymentTypeKind } from "../../domain/surcharge";
import { organisation_users, payment_types } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { notFound } from "../core/errors";

/**
 * A member's payment method saved from a provider (issue 13), made their default. Saving the same provider object
 * again (the return page reloaded, the back button) finds the one already saved: `key` names it in `details`.
 */
export async function savePaymentType(t: Tenant, userId: number, kind: PaymentTypeKind, details: Record<string, string | number>, key: string) {
  const [existing] = await t.db
    .select()
    .from(payment_types)
    .where(t.where(payment_types, eq(payment_types.user_id, userId), eq(payment_types.type, kind), sql`${payment_types.details}->>${key} = ${String(details[key])}`));
  const saved = existing ?? (await t.db.insert(payment_types).values({ organisation_id: t.organisationId, user_id: userId, type: kind, details }).returning())[0];
  await makeDefault(t, userId, saved.id);
  return saved;
}

export async function makeDefault(t: Tenant, userId: number, paymentTypeId: number) {
  await t.db
    .update(organisation_users)
    .set({ default_payment_type_id: paymentTypeId, updated_at: new Date() })
    .where(t.where(organisation_users, eq(organisation_users.user_id, userId)));
}

/** POST /api/me/payment-types/{id}/switch: another of the member's own connected methods becomes the default. */
export async function switchPaymentType(t: Tenant, userId: number, paymentTypeId: number) {
  const [owned] = await t.db.select().from(payment_types).where(t.where(payment_types, and(eq(payment_types.id, paymentTypeId), eq(payment_types.user_id, userId))));
  if (!owned) throw notFound("No such payment method.");
  await makeDefault(t, userId, owned.id);
  return owned;
}
