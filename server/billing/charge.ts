import { and, asc, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import { localDay } from "../../domain/dates";
import { graceEnds } from "../../domain/failures";
import type { Db } from "../db/client";
import { gyms, organisations, payment_types, payments } from "../db/schema";
import { arrayLiteral } from "../db/values";
import { CardProviderError, savedCard, type CardProvider } from "../providers/cards/card-provider";
import { recordOutcomes, type ChargeOutcome } from "./outcomes";

/**
 * Charging (the billing run's second step): every pending payment is sent to its provider with its idempotency
 * key, several at once, and the batch's answers are written down together (./outcomes.ts). A crash after the
 * provider charged and before we wrote it down leaves the payment pending; the next run sends the same key again
 * and the provider answers what it did the first time.
 */
export interface ChargeReport {
  charged: number;
  declined: number;
  /** Left pending: the provider could not be reached (tried again next run), or the payment type has no provider yet. */
  leftPending: number;
  /** Bank account payments: the member pays them from their bank; they wait as awaiting_payment until seen arriving. */
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

export async function chargePending(db: Db, cards: CardProvider, now: Date, { only, inFlight = CHARGES_IN_FLIGHT }: ChargeOptions = {}): Promise<ChargeReport> {
  const report = { charged: 0, declined: 0, leftPending: 0, awaiting: 0 };
  let after = 0;
  for (;;) {
    // The batch's ids first, on their own (the partial index, in order), then their rows by primary key: planned
    // with the statistics of before the planning step (thousands of pending rows unseen), one query joining first
    // and sorting after read every pending payment for each batch.
    const ids = (
      await db
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.status, "pending"), isNotNull(payments.idempotency_key), gt(payments.id, after), only ? inArray(payments.id, only) : undefined))
        .orderBy(asc(payments.id))
        .limit(BATCH)
    ).map((r) => r.id);
    if (!ids.length) return report;
    after = ids[ids.length - 1];
    const pending = await db
      .select({
        p: {
          id: payments.id,
          subscription_id: payments.subscription_id,
          amount: payments.amount,
          surcharge: payments.surcharge,
          idempotency_key: payments.idempotency_key,
          period_start_at: payments.period_start_at,
          period_end_at: payments.period_end_at,
          is_term_membership: payments.is_term_membership,
        },
        kind: payment_types.type,
        details: payment_types.details,
        grace: { amount: organisations.failed_payment_grace_period, unit: organisations.failed_payment_grace_period_unit },
        termGrace: { amount: organisations.term_membership_grace_period, unit: organisations.term_membership_grace_period_unit },
      })
      .from(payments)
      .innerJoin(organisations, eq(organisations.id, payments.organisation_id))
      .innerJoin(gyms, eq(gyms.id, payments.gym_id))
      .leftJoin(payment_types, eq(payment_types.id, payments.payment_type_id))
      .where(and(sql`${payments.id} = any(${arrayLiteral(ids)}::int[])`, eq(payments.status, "pending")));

    const today = localDay(now);
    const outcomes: ChargeOutcome[] = [];
    // Whatever happens to one charge, the others' answers are written down before an error goes on up.
    const failure = await eachAtMost(inFlight, pending, async ({ p, kind, details, grace, termGrace }) => {
      if (kind === "bank_account") {
        report.awaiting++;
        return void outcomes.push({ kind: "awaiting", paymentId: p.id });
      }
      if (kind !== "stripe_card") return void report.leftPending++;
      const period = p.period_start_at && p.period_end_at ? `${localDay(p.period_start_at)} – ${localDay(p.period_end_at)}` : "";
      try {
        const result = await cards.charge({
          amount: p.amount + p.surcharge,
          currency: "nzd",
          ...savedCard(details),
          idempotencyKey: p.idempotency_key!,
          description: `Membership ${period}`.trim(),
          metadata: { payment_id: String(p.id), subscription_id: String(p.subscription_id ?? "") },
        });
        if (result.status === "succeeded") {
          report.charged++;
          outcomes.push({ kind: "paid", paymentId: p.id, subscriptionId: p.subscription_id, provider: "stripe", reference: result.id });
        } else if (result.status === "processing") {
          report.leftPending++;
          outcomes.push({ kind: "processing", paymentId: p.id, provider: "stripe", reference: result.id });
        } else {
          report.declined++;
          const g = p.is_term_membership ? termGrace : grace;
          outcomes.push({
            kind: "failed",
            paymentId: p.id,
            subscriptionId: p.subscription_id,
            provider: "stripe",
            reference: result.id,
            code: result.declineCode,
            message: result.message,
            graceEnds: graceEnds(today, g.amount, g.unit),
          });
        }
      } catch (err) {
        // Unknown outcome and worth asking again: it stays pending and goes with the same key next run.
        if (err instanceof CardProviderError && err.retryable) return void report.leftPending++;
        if (!(err instanceof CardProviderError)) throw err;
        report.declined++;
        const g = p.is_term_membership ? termGrace : grace;
        outcomes.push({
          kind: "failed",
          paymentId: p.id,
          subscriptionId: p.subscription_id,
          provider: "stripe",
          reference: null,
          code: "provider_refused",
          message: err.message,
          graceEnds: graceEnds(today, g.amount, g.unit),
        });
      }
    });
    await recordOutcomes(db, outcomes);
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
