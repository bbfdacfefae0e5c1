import { eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { destination_accounts, payments, subscriptions, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { maskAccount } from "../../domain/bank-account";

/**
 * SPEC §3 Payment, as the payments list, a member's payments and anything else that answers a payment gives it: the
 * payment's own fields, its member (`user`), the account the money went to (masked), its subscription, and who
 * recorded it at the desk. A payment's term dates are its subscription's. `tasks` is always empty: we keep none.
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const processor = alias(users, "processed_by_user");

const columns = {
  p: payments,
  user_name: users.name,
  user_email: users.email,
  account_id: destination_accounts.id,
  account_name: destination_accounts.name,
  account_number: destination_accounts.bank_account_number,
  cooling_period_ends_at: subscriptions.cooling_period_ends_at,
  term_ends_at: subscriptions.term_ends_at,
  processed_by_name: processor.name,
};

function joined(t: Tenant) {
  return t.db
    .select(columns)
    .from(payments)
    .innerJoin(users, eq(users.id, payments.user_id))
    .leftJoin(destination_accounts, eq(destination_accounts.id, payments.destination_account_id))
    .leftJoin(subscriptions, eq(subscriptions.id, payments.subscription_id))
    .leftJoin(processor, eq(processor.id, payments.processed_by))
    .$dynamic();
}
type Row = Awaited<ReturnType<ReturnType<typeof joined>["execute"]>>[number];

/** SPEC's Payment for each id of this organisation, by id (one query, joined). */
export async function paymentEntities(t: Tenant, ids: number[]) {
  const out = new Map<number, PaymentEntity>();
  if (!ids.length) return out;
  for (const r of await joined(t).where(t.where(payments, inArray(payments.id, ids)))) out.set(r.p.id, paymentEntity(r));
  return out;
}

function paymentEntity(r: Row) {
  const p = r.p;
  return {
    id: p.id,
    amount: p.amount,
    surcharge: p.surcharge,
    period_start_at: iso(p.period_start_at),
    period_end_at: iso(p.period_end_at),
    status: p.status,
    tasks: [] as never[],
    user: { id: p.user_id, name: r.user_name, email: r.user_email },
    destination_account: r.account_id ? { id: r.account_id, name: r.account_name!, bank_account_number: maskAccount(r.account_number!) } : null,
    subscription: p.subscription_id ? { id: p.subscription_id } : null,
    is_retry: p.is_retry,
    is_pro_rata: p.is_pro_rata,
    poll_count: p.poll_count,
    credit_used: p.credit_used,
    error_status: p.error_status,
    error_description: p.error_description,
    type: p.type,
    is_term_membership: p.is_term_membership,
    cooling_period_ends_at: iso(r.cooling_period_ends_at),
    term_ends_at: iso(r.term_ends_at),
    balance_owing: p.balance_owing,
    periods_owing: p.periods_owing,
    force_amount: p.force_amount,
    processed_by: p.processed_by ? { id: p.processed_by, name: r.processed_by_name ?? "" } : null,
    stripe_id: p.stripe_id,
    gocardless_payment_id: p.gocardless_payment_id,
    meta: p.meta,
    pif_payment: p.pif_payment,
    expected_charge_date: p.expected_charge_date,
    created_at: iso(p.created_at)!,
  };
}
export type PaymentEntity = ReturnType<typeof paymentEntity>;
