import { and, asc, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { localDay } from "../../domain/dates";
import { graceEnds } from "../../domain/failures";
import type { PaymentTypeKind } from "../../domain/surcharge";
import type { Db } from "../core/db/client";
import { bank_connections, gyms, organisations, payment_types, payments } from "../core/db/schema";
import { arrayLiteral } from "../core/db/values";
import { ProviderError } from "../core/providers/errors";
import type { Providers } from "../core/providers/registry";
import { recordOutcomes, type ChargeOutcome } from "./outcomes";
import { providerOf, pursue, type UnsettledPayment } from "./rails";

/**
 * Charging (the billing run's second step): every unsettled payment goes to its provider (./rails.ts), several at
 * once, and the batch's answers are written down together (./outcomes.ts). A crash after the provider acted and
 * before we wrote it down leaves the payment pending; the next run sends the same idempotency key again and the
 * provider answers what it did the first time. Payments under way (a direct debit waiting for its charge date, a
 * bank payment waiting for the payer's approval) are asked for their state each run until they settle.
 */
export interface ChargeReport {
  charged: number;
  declined: number;
  /** Left pending: under way at the provider, or the provider could not be reached (asked again next run). */
  leftPending: number;
  /** Bank payments waiting for the payer to approve them in their bank (awaiting_payment). */
  awaiting: number;
}

const BATCH = 1_000;
/** Provider calls in flight at once: a provider answers in tens to hundreds of milliseconds, so waiting for each in turn is most of a run. */
export const CHARGES_IN_FLIGHT = 16;

export interface ChargeOptions {
  /** Only these payments (a sign-up's first payment, charged while the member waits). */
  only?: number[];
  inFlight?: number;
}

export async function chargePending(db: Db, providers: Providers, now: Date, { only, inFlight = CHARGES_IN_FLIGHT }: ChargeOptions = {}): Promise<ChargeReport> {
  const report = { charged: 0, declined: 0, leftPending: 0, awaiting: 0 };
  const unsettled = sql`${payments.status} in ('pending', 'awaiting_payment')`;
  let after = 0;
  for (;;) {
    // The batch's ids first, on their own (the partial index, in order), then their rows by primary key: planned
    // with the statistics of before the planning step (thousands of pending rows unseen), one query joining first
    // and sorting after read every pending payment for each batch.
    const ids = (
      await db
        .select({ id: payments.id })
        .from(payments)
        .where(and(unsettled, isNotNull(payments.idempotency_key), gt(payments.id, after), only ? inArray(payments.id, only) : undefined))
        .orderBy(asc(payments.id))
        .limit(BATCH)
    ).map((r) => r.id);
    if (!ids.length) return report;
    after = ids[ids.length - 1];
    const rows = await db
      .select({
        p: {
          id: payments.id,
          subscription_id: payments.subscription_id,
          amount: payments.amount,
          surcharge: payments.surcharge,
          idempotency_key: payments.idempotency_key,
          period_start_at: payments.period_start_at,
          period_end_at: payments.period_end_at,
          expected_charge_date: payments.expected_charge_date,
          is_term_membership: payments.is_term_membership,
          stripe_id: payments.stripe_id,
          gocardless_payment_id: payments.gocardless_payment_id,
          akahu_payment_id: payments.akahu_payment_id,
          meta: payments.meta,
        },
        kind: payment_types.type,
        details: payment_types.details,
        gym: { id: gyms.id, stripe_id: gyms.stripe_id, gocardless_organisation_id: gyms.gocardless_organisation_id, integrations: gyms.integrations },
        destination: sql<{ name: string; account_number: string } | null>`(select json_build_object('name', d.name, 'account_number', d.bank_account_number)
          from destination_accounts d where d.gym_id = ${payments.gym_id} order by d.id desc limit 1)`,
        bankToken: sql<string | null>`case when ${bank_connections.revoked_at} is null and not ${bank_connections.reauthenticate} then ${bank_connections.access_token} end`,
        grace: { amount: organisations.failed_payment_grace_period, unit: organisations.failed_payment_grace_period_unit },
        termGrace: { amount: organisations.term_membership_grace_period, unit: organisations.term_membership_grace_period_unit },
      })
      .from(payments)
      .innerJoin(organisations, eq(organisations.id, payments.organisation_id))
      .innerJoin(gyms, eq(gyms.id, payments.gym_id))
      .leftJoin(payment_types, eq(payment_types.id, payments.payment_type_id))
      .leftJoin(
        bank_connections,
        and(eq(bank_connections.organisation_id, payments.organisation_id), eq(bank_connections.user_id, payments.user_id), eq(bank_connections.provider, "akahu")),
      )
      .where(and(sql`${payments.id} = any(${arrayLiteral(ids)}::int[])`, unsettled));

    const today = localDay(now);
    const outcomes: ChargeOutcome[] = [];
    // Whatever happens to one charge, the others' answers are written down before an error goes on up.
    const failure = await eachAtMost(inFlight, rows, async ({ p, kind, details, gym, destination, bankToken, grace, termGrace }) => {
      const unsettledPayment: UnsettledPayment = {
        id: p.id,
        subscriptionId: p.subscription_id,
        amount: p.amount,
        surcharge: p.surcharge,
        idempotencyKey: p.idempotency_key!,
        periodStart: p.period_start_at,
        periodEnd: p.period_end_at,
        expectedChargeDate: p.expected_charge_date,
        references: { stripe: p.stripe_id, gocardless: p.gocardless_payment_id, akahu: p.akahu_payment_id },
        description: typeof p.meta?.description === "string" ? p.meta.description : null,
        kind: (kind ?? null) as PaymentTypeKind | null,
        details,
        gym,
        destination,
        bankToken,
      };
      const g = p.is_term_membership ? termGrace : grace;
      const fail = (provider: ChargeOutcome["provider"], reference: string | null, code: string, message: string) => {
        report.declined++;
        outcomes.push({ kind: "failed", paymentId: p.id, subscriptionId: p.subscription_id, provider, reference, code, message, graceEnds: graceEnds(today, g.amount, g.unit), failedAt: now });
      };
      try {
        const { provider, result } = await pursue(providers, unsettledPayment);
        if (result.status === "succeeded") {
          report.charged++;
          outcomes.push({ kind: "paid", paymentId: p.id, subscriptionId: p.subscription_id, provider, reference: result.id });
        } else if (result.status === "processing") {
          report.leftPending++;
          outcomes.push({ kind: "processing", paymentId: p.id, provider, reference: result.id, chargeDate: result.chargeDate ?? null });
        } else if (result.status === "awaiting_approval") {
          report.awaiting++;
          outcomes.push({ kind: "awaiting", paymentId: p.id, provider, reference: result.id });
        } else fail(provider, result.id, result.declineCode, result.message);
      } catch (err) {
        // Unknown outcome and worth asking again: it stays as it is and goes with the same key next run.
        if (err instanceof ProviderError && err.retryable) return void report.leftPending++;
        if (!(err instanceof ProviderError)) throw err;
        fail(providerOf(unsettledPayment.kind), null, "provider_refused", err.message);
      }
    });
    await recordOutcomes(db, outcomes, now);
    if (failure) throw failure.error;
  }
}

/** Runs `work` over every item, at most `limit` at once, and answers the first error after all have finished. */
async function eachAtMost<T>(limit: number, items: T[], work: (item: T) => Promise<void>): Promise<{ error: unknown } | null> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (next < items.length) {
      try {
        await work(items[next++]);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return failure;
}
