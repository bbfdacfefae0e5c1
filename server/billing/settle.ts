import { and, eq, inArray, sql } from "drizzle-orm";
import type { BillingFrequency } from "../../domain/billing";
import { localDay, startOfLocalDay } from "../../domain/dates";
import { periodOn } from "../../domain/periods";
import type { Db } from "../core/db/client";
import { payments, prices, subscriptions } from "../core/db/schema";
import { latestAttempt } from "./plan";

/**
 * Nothing owed any more: the grace period ends, and a membership stopped for the debt starts again with the period
 * running today (charged by the next run; the weeks it was stopped are not). On any handle: the request's, or the
 * system's after a charge.
 */
export async function settleIfPaidUp(db: Db, subscriptionId: number, now: Date): Promise<boolean> {
  const [s] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  if (!s || (!s.grace_period_ends_at && s.upcoming_state !== "failed")) return false;
  const [{ owing }] = await db
    .select({ owing: sql<number>`count(*)::int` })
    .from(payments)
    .where(and(eq(payments.subscription_id, subscriptionId), inArray(payments.status, ["failed", "awaiting_payment"]), latestAttempt, sql`${payments.period_start_at} is not null`));
  if (owing) return false;
  const values: Partial<typeof subscriptions.$inferInsert> = { grace_period_ends_at: null, updated_at: now };
  if (s.upcoming_state === "failed") {
    values.upcoming_state = null;
    const [price] = await db.select({ frequency: prices.billing_frequency }).from(prices).where(eq(prices.id, s.price_id));
    if (s.billing_anchor && s.current_period_end && price && price.frequency !== "one_off") {
      const running = periodOn(s.billing_anchor, price.frequency as BillingFrequency, localDay(now));
      if (running.start > localDay(s.current_period_end)) values.current_period_end = startOfLocalDay(running.start);
    }
  }
  await db.update(subscriptions).set(values).where(eq(subscriptions.id, subscriptionId));
  return true;
}
