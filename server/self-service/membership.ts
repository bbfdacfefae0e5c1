import { and, asc, eq } from "drizzle-orm";
import { accessAt } from "../../domain/access";
import { formatMemberCode } from "../../domain/member-code";
import { paymentOutcome, SUCCESSFUL_PAYMENT_STATUS } from "../../domain/payment";
import { adjustmentsView } from "../billing/refunds";
import { gyms, organisation_users, organisations, payment_adjustments, payment_types, payments, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { notFound } from "../core/errors";
import { memberDoor } from "../doors/member-door";
import { statusCard } from "../members/detail";
import { owedPeriods } from "../subscriptions/payments";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The member's own view of their membership (issue 31, "My membership"): the status card staff see (one rule, two
 * faces: members/detail.ts's statusCard), what is owed and why, the door, and how they pay.
 */
export async function myMembership(t: Tenant, userId: number, now: Date) {
  const [place] = await t.db
    .select({
      latest: organisation_users.latest_subscription_id,
      gym: { id: gyms.id, name: gyms.name },
      organisation: organisations.name,
      defaultMethod: organisation_users.default_payment_type_id,
      code: organisation_users.member_code,
    })
    .from(organisation_users)
    .innerJoin(organisations, eq(organisations.id, organisation_users.organisation_id))
    .leftJoin(gyms, eq(gyms.id, organisation_users.home_gym_id))
    .where(t.where(organisation_users, eq(organisation_users.user_id, userId)));
  if (!place) throw notFound("membership");
  const card = await statusCard(t, place.latest, now);
  const [s] = card
    ? await t.db
        .select()
        .from(subscriptions)
        .where(t.where(subscriptions, eq(subscriptions.id, card.id)))
    : [];
  const owed = s ? await owedPeriods(t, s.id) : [];
  const methods = await t.db
    .select()
    .from(payment_types)
    .where(t.where(payment_types, eq(payment_types.user_id, userId)))
    .orderBy(asc(payment_types.id));
  const method = methods.find((m) => m.id === place.defaultMethod) ?? methods.at(-1) ?? null;
  return {
    organisation: place.organisation,
    gym: place.gym,
    /** Shown at the desk or typed at the kiosk (issue 32). */
    member_code: formatMemberCode(place.code),
    membership: card,
    owing: {
      total: owed.reduce((sum, p) => sum + p.amount + p.surcharge, 0),
      periods: owed.map((p) => ({
        payment_id: p.id,
        amount: p.amount + p.surcharge,
        period_start_at: iso(p.period_start_at),
        period_end_at: iso(p.period_end_at),
        why: p.error_description ?? "The payment did not go through.",
      })),
    },
    door: await memberDoor(t, userId, s?.gym_id ?? place.gym?.id ?? null, accessAt(s ?? null, now)),
    payment_method: method ? methodSummary(method) : null,
  };
}

/** A way to pay in words a member recognises, never a full number. */
export function methodSummary(m: typeof payment_types.$inferSelect) {
  const d = m.details;
  if (m.type === "stripe_card")
    return {
      id: m.id,
      kind: "card" as const,
      text: `${String(d.type ?? "Card").toUpperCase()} ending ${d.last_four ?? "—"}, expires ${d.exp_month}/${d.exp_year}`,
    };
  const account = String(d.account_number ?? "");
  return { id: m.id, kind: "bank" as const, text: `Bank account ending ${account.replace(/\D/g, "").slice(-4) || "—"}` };
}

/**
 * GET /api/me/payments/{id}/receipt: a receipt for one of the member's own successful payments. Another member's
 * payment, or one that did not go through, is not found (the same answer either way).
 */
export async function myReceipt(t: Tenant, userId: number, paymentId: number) {
  const [row] = await t.db
    .select({ p: payments, gym: gyms.name, organisation: organisations.name, method: payment_types })
    .from(payments)
    .innerJoin(gyms, eq(gyms.id, payments.gym_id))
    .innerJoin(organisations, eq(organisations.id, payments.organisation_id))
    .leftJoin(payment_types, eq(payment_types.id, payments.payment_type_id))
    .where(t.where(payments, and(eq(payments.id, paymentId), eq(payments.user_id, userId), eq(payments.status, SUCCESSFUL_PAYMENT_STATUS))));
  if (!row) throw notFound("payment");
  const { p } = row;
  const adjustments = await t.db
    .select()
    .from(payment_adjustments)
    .where(t.where(payment_adjustments, eq(payment_adjustments.payment_id, p.id)))
    .orderBy(asc(payment_adjustments.id));
  return {
    id: p.id,
    number: `R-${String(p.id).padStart(6, "0")}`,
    organisation: row.organisation,
    gym: row.gym,
    amount: p.amount,
    surcharge: p.surcharge,
    total: p.amount + p.surcharge,
    joining_fee: Number((p.meta as { joining_fee?: number } | null)?.joining_fee ?? 0),
    is_pro_rata: p.is_pro_rata,
    period_start_at: iso(p.period_start_at),
    period_end_at: iso(p.period_end_at),
    paid_at: iso(p.paid_at ?? p.created_at),
    outcome: paymentOutcome(p.status),
    method: row.method ? methodSummary(row.method).text : p.pif_payment ? `Paid at the gym (${p.pif_payment.replace("_", " ")})` : null,
    ...adjustmentsView(p.amount + p.surcharge, adjustments),
  };
}
