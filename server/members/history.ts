import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { paymentOutcome } from "../../domain/payment";
import { adjustmentsView } from "../billing/refunds";
import { access_control_credentials, gyms, offerings, payment_adjustments, payments, price_changes, prices, users, visits } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

export const HISTORY_PER_PAGE = 25;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const pageMeta = (page: number, total: number) => ({ page, per_page: HISTORY_PER_PAGE, total, pages: Math.max(1, Math.ceil(total / HISTORY_PER_PAGE)) });

/** GET /api/users/{id}/payments: newest first, each read as SPEC §4 says (sent: successful; a few statuses: not failed; else failed). */
export async function memberPayments(t: Tenant, userId: number, page: number, mayRefund: (gymId: number) => boolean = () => false) {
  const where = t.where(payments, eq(payments.user_id, userId));
  const [rows, [{ n }]] = await Promise.all([
    t.db
      .select()
      .from(payments)
      .where(where)
      .orderBy(desc(payments.created_at), desc(payments.id))
      .limit(HISTORY_PER_PAGE)
      .offset((page - 1) * HISTORY_PER_PAGE),
    t.db.select({ n: count() }).from(payments).where(where),
  ]);
  // Refunds and chargebacks of the page's payments only (issue 28): what each gave back, and what may still be.
  const adjustments = rows.length
    ? await t.db.select().from(payment_adjustments).where(t.where(payment_adjustments, inArray(payment_adjustments.payment_id, rows.map((p) => p.id)))).orderBy(asc(payment_adjustments.id))
    : [];
  return {
    data: rows.map((p) => ({
      id: p.id,
      ...adjustmentsView(p.amount + p.surcharge, adjustments.filter((a) => a.payment_id === p.id)),
      can_refund: p.status === "sent" && mayRefund(p.gym_id),
      amount: p.amount,
      surcharge: p.surcharge,
      period_start_at: iso(p.period_start_at),
      period_end_at: iso(p.period_end_at),
      status: p.status,
      outcome: paymentOutcome(p.status),
      type: p.type,
      is_retry: p.is_retry,
      is_pro_rata: p.is_pro_rata,
      pif_payment: p.pif_payment,
      error_description: p.error_description,
      created_at: iso(p.created_at),
    })),
    meta: pageMeta(page, n),
  };
}

/** GET /api/users/{id}/visits: newest first, refused entries included and marked; each SPEC's Visit. */
export async function memberVisits(t: Tenant, user: { id: number; name: string }, page: number) {
  const where = t.where(visits, eq(visits.user_id, user.id));
  const [rows, [{ n }]] = await Promise.all([
    t.db
      .select({ id: visits.id, visited_at: visits.visited_at, successful: visits.successful, gym: { id: gyms.id, name: gyms.name } })
      .from(visits)
      .innerJoin(gyms, eq(gyms.id, visits.gym_id))
      .where(where)
      .orderBy(desc(visits.visited_at), desc(visits.id))
      .limit(HISTORY_PER_PAGE)
      .offset((page - 1) * HISTORY_PER_PAGE),
    t.db.select({ n: count() }).from(visits).where(where),
  ]);
  return { data: rows.map((v) => ({ ...v, user: { id: user.id, name: user.name }, visited_at: iso(v.visited_at) })), meta: pageMeta(page, n) };
}

/** GET /api/members/{id}/access-control-credentials: door credentials, never a full card number or a PIN. */
export async function memberCredentials(t: Tenant, userId: number) {
  const rows = await t.db
    .select({ credential: access_control_credentials, gym: { id: gyms.id, name: gyms.name } })
    .from(access_control_credentials)
    .leftJoin(gyms, eq(gyms.id, access_control_credentials.gym_id))
    .where(t.where(access_control_credentials, eq(access_control_credentials.user_id, userId)))
    .orderBy(desc(access_control_credentials.issued_at));
  return rows.map(({ credential: c, gym }) => ({
    id: c.id,
    provider: c.provider,
    kind: c.kind,
    identifier_hint: c.identifier_hint,
    status: c.status,
    gym: gym?.id ? gym : null,
    issued_at: iso(c.issued_at),
    last_used_at: iso(c.last_used_at),
  }));
}

/** GET /api/users/{id}/price-change-history: newest first, with both prices and who made the change. */
export async function priceChangeHistory(t: Tenant, userId: number) {
  const fromPrice = alias(prices, "from_price");
  const fromOffering = alias(offerings, "from_offering");
  const rows = await t.db
    .select({
      change: price_changes,
      from_offering: fromOffering.name,
      from_frequency: fromPrice.billing_frequency,
      to_offering: offerings.name,
      to_frequency: prices.billing_frequency,
      changed_by: users.name,
    })
    .from(price_changes)
    .innerJoin(prices, eq(prices.id, price_changes.to_price_id))
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .leftJoin(fromPrice, eq(fromPrice.id, price_changes.from_price_id))
    .leftJoin(fromOffering, eq(fromOffering.id, fromPrice.offering_id))
    .leftJoin(users, eq(users.id, price_changes.changed_by))
    .where(and(t.where(price_changes, eq(price_changes.user_id, userId))))
    .orderBy(desc(price_changes.created_at), desc(price_changes.id));
  return rows.map((r) => ({
    id: r.change.id,
    subscription_id: r.change.subscription_id,
    from: r.change.from_price_id ? { price_id: r.change.from_price_id, offering: r.from_offering, billing_frequency: r.from_frequency, amount: r.change.from_amount } : null,
    to: { price_id: r.change.to_price_id, offering: r.to_offering, billing_frequency: r.to_frequency, amount: r.change.to_amount },
    status: r.change.cancelled_at ? "called_off" : r.change.applied_at ? "applied" : "scheduled",
    takes_effect_at: iso(r.change.takes_effect_at),
    applied_at: iso(r.change.applied_at),
    cancelled_at: iso(r.change.cancelled_at),
    member_notified_at: iso(r.change.member_notified_at),
    changed_by: r.changed_by,
    created_at: iso(r.change.created_at),
  }));
}
