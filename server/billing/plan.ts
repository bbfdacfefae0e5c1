import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { BillingFrequency } from "../../domain/billing";
import type { LocalDay } from "../../domain/periods";
import { localDay, startOfLocalDay } from "../../domain/dates";
import { declineKind, nextRetryDay, RETRY_AFTER_DAYS } from "../../domain/failures";
import { chargesDue, type DueCharge } from "../../domain/schedule";
import { surchargeFor, type PaymentTypeKind } from "../../domain/surcharge";
import type { Db } from "../core/db/client";
import { gyms, organisation_users, payment_types, payments, prices, subscriptions } from "../core/db/schema";
import { insertRows } from "../core/db/bulk";
import { arrayLiteral, rowsOf, unnestRows } from "../core/db/values";
import { pausesColumn, schedulePauses } from "./pauses";
import { recordWebhookEvents } from "../outgoing-webhooks/events";

/**
 * Planning (the billing run's first step, issue 11): every period that has come due becomes a `pending` payment,
 * committed before any provider is asked. Set-based: a batch of subscriptions is read, their due periods worked
 * out by the domain's rule (domain/schedule.ts), and written with one update and one insert in one transaction.
 */

const BATCH = 1_000;

/** The period's "upcoming" row, shown to staff before it was due, is the charge now; any other row stays as it is. */
const UPCOMING_BECOMES_THE_CHARGE = sql` on conflict (subscription_id, period_start_at, attempt) where subscription_id is not null and period_start_at is not null
  do update set status = 'pending', amount = excluded.amount, surcharge = excluded.surcharge, payment_type_id = excluded.payment_type_id,
    idempotency_key = excluded.idempotency_key, balance_owing = excluded.balance_owing, periods_owing = excluded.periods_owing,
    expected_charge_date = excluded.expected_charge_date
  where payments.status = 'upcoming'`;

type PaymentInsert = typeof payments.$inferInsert;

/** The latest attempt of its period: no later attempt of the same subscription and period exists. */
export const latestAttempt = sql`not exists (select 1 from payments later where later.subscription_id = ${payments.subscription_id}
  and later.period_start_at = ${payments.period_start_at} and later.attempt > ${payments.attempt})`;

export const chargeKey = (subscriptionId: number, periodStart: string, attempt: number) => `charge:${subscriptionId}:${periodStart}:${attempt}`;

const toPrice = alias(prices, "to_price");

export async function planCharges(db: Db, now: Date): Promise<number> {
  const today = localDay(now);
  let planned = 0;
  let after = 0;
  for (;;) {
    const due = await db
      .select({
        s: {
          id: subscriptions.id,
          version: subscriptions.version,
          organisation_id: subscriptions.organisation_id,
          gym_id: subscriptions.gym_id,
          user_id: subscriptions.user_id,
          billing_anchor: subscriptions.billing_anchor,
          current_period_end: subscriptions.current_period_end,
          force_price_amount: subscriptions.force_price_amount,
          term_ends_at: subscriptions.term_ends_at,
          pause_start_at: subscriptions.pause_start_at,
          pause_end_at: subscriptions.pause_end_at,
          transition_to_price_id: subscriptions.transition_to_price_id,
          transition_takes_effect_at: subscriptions.transition_takes_effect_at,
          cancel_at: subscriptions.cancel_at,
          grace_period_ends_at: subscriptions.grace_period_ends_at,
        },
        amount: prices.amount,
        frequency: prices.billing_frequency,
        toAmount: toPrice.amount,
        toFrequency: toPrice.billing_frequency,
        pauses: pausesColumn,
        paymentTypeId: organisation_users.default_payment_type_id,
        paymentKind: payment_types.type,
        surcharge: { basisPoints: gyms.card_surcharge_basis_points, fixed: gyms.card_surcharge_fixed },
      })
      .from(subscriptions)
      .innerJoin(prices, eq(prices.id, subscriptions.price_id))
      .innerJoin(gyms, eq(gyms.id, subscriptions.gym_id))
      .leftJoin(toPrice, eq(toPrice.id, subscriptions.transition_to_price_id))
      .leftJoin(
        organisation_users,
        and(eq(organisation_users.organisation_id, subscriptions.organisation_id), eq(organisation_users.user_id, subscriptions.user_id), eq(organisation_users.role, "member")),
      )
      .leftJoin(payment_types, eq(payment_types.id, organisation_users.default_payment_type_id))
      .where(
        and(
          gt(subscriptions.id, after),
          lte(subscriptions.current_period_end, now),
          isNotNull(subscriptions.billing_anchor),
          isNull(subscriptions.cancelled_at),
          isNull(subscriptions.upcoming_state),
          ne(prices.billing_frequency, "one_off"),
        ),
      )
      .orderBy(asc(subscriptions.id))
      .limit(BATCH);
    if (!due.length) return planned;
    after = due[due.length - 1].s.id;

    const owing = await owingBySubscription(
      db,
      due.filter((r) => r.s.grace_period_ends_at).map((r) => r.s.id),
    );
    const moves: { id: number; version: number; start: Date; end: Date; newPriceId: number | null }[] = [];
    const rows = new Map<number, PaymentInsert[]>();
    for (const row of due) {
      const s = row.s;
      // A change to another billing frequency is never applied (decision 0040): the member stays on their price.
      const change =
        s.transition_to_price_id && row.toAmount !== null && row.toFrequency === row.frequency
          ? { from: localDay(s.transition_takes_effect_at ?? s.current_period_end!), amount: row.toAmount }
          : null;
      const charges = chargesDue(
        {
          frequency: row.frequency as BillingFrequency,
          anchor: s.billing_anchor!,
          paidUntil: localDay(s.current_period_end!),
          amount: s.force_price_amount ?? row.amount,
          pauses: schedulePauses(row.pauses, s),
          priceChange: change,
          // A cancellation waiting for its day: no period from then is charged (server/subscriptions/scheduled-cancel.ts).
          cancelledFrom: s.cancel_at ? localDay(s.cancel_at) : null,
        },
        today,
      );
      if (!charges.length) continue;
      const last = charges[charges.length - 1].period;
      // Once a charged period starts on the change's day, the subscription is on the new price: the change is done.
      const changed = change && last.start >= change.from ? s.transition_to_price_id : null;
      moves.push({ id: s.id, version: s.version, start: startOfLocalDay(last.start), end: startOfLocalDay(last.end), newPriceId: changed });
      const kind = (row.paymentKind ?? null) as PaymentTypeKind | null;
      const debt = owing.get(s.id) ?? { balance: 0, periods: 0 };
      rows.set(
        s.id,
        charges.map(({ period, amount }: DueCharge) => ({
          organisation_id: s.organisation_id,
          gym_id: s.gym_id,
          user_id: s.user_id,
          subscription_id: s.id,
          payment_type_id: row.paymentTypeId,
          amount,
          surcharge: kind ? surchargeFor(amount, kind, row.surcharge) : 0,
          period_start_at: startOfLocalDay(period.start),
          period_end_at: startOfLocalDay(period.end),
          expected_charge_date: period.start,
          status: "pending",
          type: "subscription",
          is_term_membership: !!s.term_ends_at && startOfLocalDay(period.start) < s.term_ends_at,
          balance_owing: debt.balance,
          periods_owing: debt.periods,
          attempt: 0,
          idempotency_key: chargeKey(s.id, period.start, 0),
          created_at: now,
        })),
      );
    }
    if (moves.length) planned += await writePlan(db, moves, rows, now);
  }
}

/**
 * One transaction for the batch: each subscription's current period moves on only if no other run moved it
 * since we read it (its version), and only the moved ones get their payments, so two runs never plan a period twice.
 */
async function writePlan(
  db: Db,
  moves: { id: number; version: number; start: Date; end: Date; newPriceId: number | null }[],
  rows: Map<number, PaymentInsert[]>,
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    const moved = await tx.execute(sql`
      update subscriptions s set
        current_period_start = v.period_start, current_period_end = v.period_end, version = s.version + 1,
        price_id = coalesce(v.new_price_id, s.price_id),
        transition_to_price_id = case when v.new_price_id is null then s.transition_to_price_id end,
        transition_takes_effect_at = case when v.new_price_id is null then s.transition_takes_effect_at end,
        force_price_amount = case when v.new_price_id is null then s.force_price_amount end,
        updated_at = now()
      from ${unnestRows(
        moves.map((m) => [m.id, m.version, m.start, m.end, m.newPriceId]),
        ["int", "int", "timestamptz", "timestamptz", "int"],
      )} v(id, version, period_start, period_end, new_price_id)
      where s.id = v.id and s.version = v.version
      returning s.id, s.organisation_id`);
    const movedIds = new Set(rowsOf<{ id: number }>(moved).map((r) => Number(r.id)));
    // A scheduled price change now applied: its record says so (the member page's price-change history).
    const changed = moves.filter((m) => m.newPriceId !== null && movedIds.has(m.id)).map((m) => m.id);
    if (changed.length) {
      await tx.execute(sql`update price_changes set applied_at = now()
        where subscription_id = any(${arrayLiteral(changed)}::int[]) and applied_at is null and cancelled_at is null`);
      const organisationOf = new Map(rowsOf<{ id: number; organisation_id: number }>(moved).map((r) => [Number(r.id), Number(r.organisation_id)]));
      await recordWebhookEvents(
        tx,
        changed.map((id) => ({ organisationId: organisationOf.get(id)!, type: "subscription.price_changed" as const, id })),
        now,
      );
    }
    const inserts = rowsOf<{ id: number }>(moved).flatMap((r) => rows.get(Number(r.id)) ?? []);
    await insertRows(tx, payments, inserts, { onConflict: UPCOMING_BECOMES_THE_CHARGE });
    return inserts.length;
  });
}

/**
 * What each subscription owes from failed periods (their latest attempt failed): carried on its next payments as
 * balance_owing and periods_owing, so staff see the debt growing while the grace period runs.
 */
export async function owingBySubscription(db: Db, subscriptionIds: number[]): Promise<Map<number, { balance: number; periods: number }>> {
  if (!subscriptionIds.length) return new Map();
  const rows = await db
    .select({
      id: payments.subscription_id,
      balance: sql<number>`sum(${payments.amount} + ${payments.surcharge})::int`,
      periods: sql<number>`count(*)::int`,
    })
    .from(payments)
    .where(and(inArray(payments.subscription_id, subscriptionIds), eq(payments.status, "failed"), latestAttempt))
    .groupBy(payments.subscription_id);
  return new Map(rows.map((r) => [r.id!, { balance: r.balance, periods: r.periods }]));
}

/**
 * A failed charge with a soft decline is tried again 1, 3, 5 and 7 days after the period's first failure, while the
 * member still has access (domain/failures.ts nextRetryDay), each try a new attempt row with its own key; a hard
 * decline is not. A cancelled subscription, or one whose grace period ran out (access stopped), is not retried.
 * The schedule counts from when the period first failed (failed_at), whatever the rows' history: a failure written
 * before the engine, or a first charge converted from an `upcoming` row made weeks before, is retried the same.
 */
export async function planRetries(db: Db, now: Date): Promise<number> {
  return (await planRetryIds(db, now)).length;
}

/** planRetries, answering the new tries' ids (the run charges the ones its charge step made due: ./run.ts). */
export async function planRetryIds(db: Db, now: Date): Promise<number[]> {
  const today = localDay(now);
  // Only a failure from the last week can still have a try to come: the schedule is spent after that.
  const horizon = new Date(now.getTime() - (RETRY_AFTER_DAYS[RETRY_AFTER_DAYS.length - 1] + 2) * 86_400_000);
  const failed = await db
    .select({
      p: payments,
      firstFailed: sql<Date>`(select min(coalesce(earliest.failed_at, earliest.created_at)) from payments earliest
        where earliest.subscription_id = ${payments.subscription_id} and earliest.period_start_at = ${payments.period_start_at}
        and earliest.status = 'failed')`.mapWith((v: string | Date) => new Date(v)),
      accessStops: subscriptions.grace_period_ends_at,
      paymentTypeId: organisation_users.default_payment_type_id,
      paymentKind: payment_types.type,
      surcharge: { basisPoints: gyms.card_surcharge_basis_points, fixed: gyms.card_surcharge_fixed },
    })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscription_id))
    .innerJoin(gyms, eq(gyms.id, payments.gym_id))
    .leftJoin(
      organisation_users,
      and(eq(organisation_users.organisation_id, payments.organisation_id), eq(organisation_users.user_id, payments.user_id), eq(organisation_users.role, "member")),
    )
    .leftJoin(payment_types, eq(payment_types.id, organisation_users.default_payment_type_id))
    .where(
      and(
        eq(payments.status, "failed"),
        gt(payments.failed_at, horizon),
        isNotNull(payments.period_start_at),
        isNull(subscriptions.cancelled_at),
        isNull(subscriptions.upcoming_state),
        latestAttempt,
      ),
    );
  const retries: PaymentInsert[] = [];
  for (const { p, firstFailed, accessStops, paymentTypeId, paymentKind, surcharge } of failed) {
    const day = nextRetryDay(localDay(firstFailed), p.attempt, declineKind(p.error_status), accessStops ? localDay(accessStops) : null);
    if (!day || day > today) continue;
    // The member's payment method now, not the failed try's: the e-mail asked them to update it before this try.
    const kind = (paymentKind ?? null) as PaymentTypeKind | null;
    retries.push({ ...retryOf(p, day, now), payment_type_id: paymentTypeId ?? p.payment_type_id, surcharge: kind ? surchargeFor(p.amount, kind, surcharge) : p.surcharge });
  }
  if (!retries.length) return [];
  return insertRows(db, payments, retries, { onConflict: sql` on conflict do nothing`, returnIds: true });
}

/**
 * The next attempt of a period: who, what, which period and how to pay, and nothing of an earlier try's own dealings
 * with its provider (its references, answer and polls), named column by column so a reference added later cannot be
 * carried over by accident (the bank payment's id once was). The one shape of every later attempt: a retry
 * (`retryOf`) and the debt a lost chargeback opens again (./chargebacks.ts) both start from it.
 */
export function nextAttemptOf(p: typeof payments.$inferSelect, attempt: number, now: Date) {
  return {
    organisation_id: p.organisation_id,
    gym_id: p.gym_id,
    user_id: p.user_id,
    subscription_id: p.subscription_id,
    payment_type_id: p.payment_type_id,
    destination_account_id: p.destination_account_id,
    amount: p.amount,
    surcharge: p.surcharge,
    period_start_at: p.period_start_at,
    period_end_at: p.period_end_at,
    type: p.type,
    is_pro_rata: p.is_pro_rata,
    is_term_membership: p.is_term_membership,
    is_retry: true,
    attempt,
    created_at: now,
  } satisfies Omit<PaymentInsert, "status">;
}

/** A failed period's retry: the same charge (with how it was worked out) under a new key, to be charged on `day`. */
export function retryOf(p: typeof payments.$inferSelect, day: LocalDay, now: Date): PaymentInsert {
  const attempt = p.attempt + 1;
  return {
    ...nextAttemptOf(p, attempt, now),
    credit_used: p.credit_used,
    balance_owing: p.balance_owing,
    periods_owing: p.periods_owing,
    force_amount: p.force_amount,
    meta: p.meta,
    expected_charge_date: day,
    status: "pending",
    idempotency_key: chargeKey(p.subscription_id!, localDay(p.period_start_at!), attempt),
  };
}
