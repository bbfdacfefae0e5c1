import { and, asc, eq, gt, isNotNull, isNull, lte, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { BillingFrequency } from "../../domain/billing";
import { addCalendarDays, localDay, startOfLocalDay } from "../../domain/dates";
import { declineKind, graceEnds, nextRetryDay } from "../../domain/failures";
import type { LocalDay } from "../../domain/periods";
import { chargesDue, type DueCharge } from "../../domain/schedule";
import { surchargeFor, type PaymentTypeKind } from "../../domain/surcharge";
import type { Db } from "../db/client";
import { gyms, organisation_users, organisations, payment_types, payments, prices, subscriptions } from "../db/schema";
import { CardProviderError, type CardProvider } from "../providers/cards/card-provider";

/**
 * The billing run (issue 11), in two steps that each survive a crash at any point:
 * 1. `planCharges`: for each subscription with periods due (domain/schedule.ts), one transaction writes a
 *    `pending` payment per period (a unique index allows one per subscription, period and attempt; a seeded
 *    `upcoming` row for the period becomes it) and moves the subscription's current period on. Nothing is
 *    charged yet, so a crash loses nothing and charges nothing.
 * 2. `chargePending`: every pending payment is sent to its provider with its idempotency key, then marked
 *    sent or failed. A crash after the provider charged and before we wrote it down leaves the payment pending;
 *    the next run sends the same key again and the provider answers what it did the first time.
 * The run works across organisations, as the seed and sign-in do: it is the system, not a member of staff.
 */
export interface RunReport {
  planned: number;
  charged: number;
  declined: number;
  /** Left pending: the provider could not be reached (tried again next run), or the payment type has no provider yet. */
  leftPending: number;
}

const BATCH = 200;

export async function billingRun(db: Db, cards: CardProvider, now: Date): Promise<RunReport> {
  const planned = (await planCharges(db, now)) + (await planRetries(db, now));
  return { planned, ...(await chargePending(db, cards, now)) };
}

/** The latest attempt of its period: no later attempt of the same subscription and period exists. */
const latestAttempt = sql`not exists (select 1 from payments later where later.subscription_id = ${payments.subscription_id}
  and later.period_start_at = ${payments.period_start_at} and later.attempt > ${payments.attempt})`;

/**
 * A failed charge with a soft decline is tried again 1, 3, 5 and 7 days after the period's first failure
 * (domain/failures.ts), each try a new attempt row with its own key; a hard decline is not. A cancelled
 * subscription is not retried.
 */
export async function planRetries(db: Db, now: Date): Promise<number> {
  const today = localDay(now);
  const failed = await db
    .select({
      p: payments,
      firstFailed: sql<Date>`(select min(earliest.created_at) from payments earliest where earliest.subscription_id = ${payments.subscription_id}
        and earliest.period_start_at = ${payments.period_start_at})`.mapWith((v: string | Date) => new Date(v)),
    })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscription_id))
    .where(and(eq(payments.status, "failed"), isNotNull(payments.period_start_at), isNull(subscriptions.cancelled_at), latestAttempt));
  let planned = 0;
  for (const { p, firstFailed } of failed) {
    const day = nextRetryDay(localDay(firstFailed), p.attempt, declineKind(p.error_status));
    if (!day || day > today) continue;
    const attempt = p.attempt + 1;
    const inserted = await db
      .insert(payments)
      .values({
        organisation_id: p.organisation_id,
        gym_id: p.gym_id,
        user_id: p.user_id,
        subscription_id: p.subscription_id,
        payment_type_id: p.payment_type_id,
        amount: p.amount,
        surcharge: p.surcharge,
        period_start_at: p.period_start_at,
        period_end_at: p.period_end_at,
        expected_charge_date: day,
        status: "pending",
        type: p.type,
        is_term_membership: p.is_term_membership,
        is_retry: true,
        attempt,
        idempotency_key: `charge:${p.subscription_id}:${localDay(p.period_start_at!)}:${attempt}`,
        created_at: now,
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    planned += inserted.length;
  }
  return planned;
}

const toPrice = alias(prices, "to_price");

export async function planCharges(db: Db, now: Date): Promise<number> {
  const today = localDay(now);
  let planned = 0;
  let after = 0;
  for (;;) {
    const due = await db
      .select({
        s: subscriptions,
        amount: prices.amount,
        frequency: prices.billing_frequency,
        toAmount: toPrice.amount,
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
    for (const row of due) {
      const s = row.s;
      const charges = chargesDue(
        {
          frequency: row.frequency as BillingFrequency,
          anchor: s.billing_anchor!,
          paidUntil: localDay(s.current_period_end!),
          amount: s.force_price_amount ?? row.amount,
          termEnds: s.term_ends_at ? localDay(s.term_ends_at) : null,
          pauses: s.pause_start_at ? [{ start: localDay(s.pause_start_at), end: s.pause_end_at ? localDay(s.pause_end_at) : null }] : [],
          priceChange:
            s.transition_to_price_id && row.toAmount !== null
              ? { from: localDay(s.transition_takes_effect_at ?? s.current_period_end!), amount: row.toAmount }
              : null,
        },
        today,
      );
      if (!charges.length) continue;
      const kind = (row.paymentKind ?? null) as PaymentTypeKind | null;
      planned += await plan(db, now, s, charges, row.paymentTypeId, (amount) => (kind ? surchargeFor(amount, kind, row.surcharge) : 0));
    }
  }
}

/** One subscription's due periods as pending payments, and its current period moved on, in one transaction. */
async function plan(db: Db, now: Date, s: typeof subscriptions.$inferSelect, charges: DueCharge[], paymentTypeId: number | null, surchargeOf: (amount: number) => number) {
  const last = charges[charges.length - 1].period;
  return db.transaction(async (tx) => {
    // Only if no other run moved it since we read it: two runs never plan the same periods.
    const moved = await tx
      .update(subscriptions)
      .set({ current_period_start: startOfLocalDay(last.start), current_period_end: startOfLocalDay(last.end), version: sql`${subscriptions.version} + 1` })
      .where(and(eq(subscriptions.id, s.id), eq(subscriptions.version, s.version)))
      .returning({ id: subscriptions.id });
    if (!moved.length) return 0;
    for (const { period, amount } of charges) {
      const row = {
        organisation_id: s.organisation_id,
        gym_id: s.gym_id,
        user_id: s.user_id,
        subscription_id: s.id,
        payment_type_id: paymentTypeId,
        amount,
        surcharge: surchargeOf(amount),
        period_start_at: startOfLocalDay(period.start),
        period_end_at: startOfLocalDay(period.end),
        expected_charge_date: period.start,
        status: "pending",
        type: "subscription",
        is_term_membership: !!s.term_ends_at && startOfLocalDay(period.start) < s.term_ends_at,
        attempt: 0,
        idempotency_key: `charge:${s.id}:${period.start}:0`,
        created_at: now,
      };
      await tx
        .insert(payments)
        .values(row)
        .onConflictDoUpdate({
          target: [payments.subscription_id, payments.period_start_at, payments.attempt],
          targetWhere: sql`subscription_id is not null and period_start_at is not null`,
          // The period's "upcoming" row, shown to staff before it was due, is the charge now.
          set: { status: "pending", amount: row.amount, surcharge: row.surcharge, payment_type_id: paymentTypeId, idempotency_key: row.idempotency_key },
          setWhere: sql`${payments.status} = 'upcoming'`,
        });
    }
    return charges.length;
  });
}

/** Sends every pending card payment to the card provider; other payment types wait for their providers. */
export async function chargePending(db: Db, cards: CardProvider, now: Date): Promise<Omit<RunReport, "planned">> {
  const report = { charged: 0, declined: 0, leftPending: 0 };
  let after = 0;
  for (;;) {
    const pending = await db
      .select({
        p: payments,
        kind: payment_types.type,
        details: payment_types.details,
        grace: { amount: organisations.failed_payment_grace_period, unit: organisations.failed_payment_grace_period_unit },
        termGrace: { amount: organisations.term_membership_grace_period, unit: organisations.term_membership_grace_period_unit },
        account: gyms.stripe_id,
      })
      .from(payments)
      .innerJoin(organisations, eq(organisations.id, payments.organisation_id))
      .innerJoin(gyms, eq(gyms.id, payments.gym_id))
      .leftJoin(payment_types, eq(payment_types.id, payments.payment_type_id))
      .where(and(eq(payments.status, "pending"), isNotNull(payments.idempotency_key), gt(payments.id, after)))
      .orderBy(asc(payments.id))
      .limit(BATCH);
    if (!pending.length) return report;
    after = pending[pending.length - 1].p.id;
    for (const { p, kind, details, grace, termGrace } of pending) {
      if (kind !== "stripe_card") {
        report.leftPending++;
        continue;
      }
      let result;
      try {
        result = await cards.charge({
          amount: p.amount + p.surcharge,
          currency: "nzd",
          customer: typeof details?.customer === "string" ? details.customer : null,
          paymentMethod: typeof details?.payment_method === "string" ? details.payment_method : `pm_sandbox_${details?.last_four ?? "4242"}`,
          idempotencyKey: p.idempotency_key!,
          description: `Membership ${localDay(p.period_start_at!)} – ${localDay(p.period_end_at!)}`,
          metadata: { payment_id: String(p.id), subscription_id: String(p.subscription_id ?? "") },
        });
      } catch (err) {
        if (err instanceof CardProviderError && err.retryable) {
          report.leftPending++;
          continue;
        }
        result = { status: "declined" as const, id: null, declineCode: "provider_refused", message: (err as Error).message };
      }
      if (result.status === "processing") {
        await db.update(payments).set({ stripe_id: result.id }).where(eq(payments.id, p.id));
        report.leftPending++;
      } else if (result.status === "succeeded") {
        await db.transaction(async (tx) => {
          await tx.update(payments).set({ status: "sent", stripe_id: result.id }).where(and(eq(payments.id, p.id), eq(payments.status, "pending")));
          // Paid up again: the grace period ends once no period's latest attempt has failed.
          if (p.attempt > 0 && p.subscription_id) {
            await tx
              .update(subscriptions)
              .set({ grace_period_ends_at: null })
              .where(
                and(
                  eq(subscriptions.id, p.subscription_id),
                  isNotNull(subscriptions.grace_period_ends_at),
                  sql`not exists (select 1 from ${payments} where ${payments.subscription_id} = ${p.subscription_id} and ${payments.status} = 'failed' and ${latestAttempt})`,
                ),
              );
          }
        });
        report.charged++;
      } else {
        const g = p.is_term_membership ? termGrace : grace;
        await db.transaction(async (tx) => {
          await tx
            .update(payments)
            .set({ status: "failed", stripe_id: result.id, error_status: result.declineCode, error_description: result.message })
            .where(and(eq(payments.id, p.id), eq(payments.status, "pending")));
          // The member keeps access until the grace period ends (domain/failures.ts); a running one is not extended.
          if (p.subscription_id) {
            await tx
              .update(subscriptions)
              .set({ grace_period_ends_at: startOfLocalDay(graceEnds(localDay(now), g.amount, g.unit)) })
              .where(and(eq(subscriptions.id, p.subscription_id), isNull(subscriptions.grace_period_ends_at)));
          }
        });
        report.declined++;
      }
    }
  }
}

/**
 * The run once a day, at 10 am Auckland time, from `from` to `until` (both days included): what the scheduled
 * job will do day by day, for `npm run billing -- --until` and the tests, which move time on. Reports are added up.
 */
export async function billingRunUntil(db: Db, cards: CardProvider, from: LocalDay, until: LocalDay): Promise<RunReport & { days: number }> {
  const total = { planned: 0, charged: 0, declined: 0, leftPending: 0, days: 0 };
  for (let day = from; day <= until; day = addCalendarDays(day, 1)) {
    const report = await billingRun(db, cards, new Date(startOfLocalDay(day).getTime() + 10 * 3_600_000));
    total.planned += report.planned;
    total.charged += report.charged;
    total.declined += report.declined;
    total.days++;
  }
  // What is left waiting at the end, not a sum of every day's.
  total.leftPending = await db.$count(payments, and(eq(payments.status, "pending"), isNotNull(payments.idempotency_key)));
  return total;
}
