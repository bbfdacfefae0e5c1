import { and, eq, isNotNull } from "drizzle-orm";
import { addCalendarDays, startOfLocalDay } from "../../domain/dates";
import type { LocalDay } from "../../domain/periods";
import type { Db } from "../db/client";
import { payments } from "../db/schema";
import type { CardProvider } from "../providers/cards/card-provider";
import { chargePending, type ChargeReport } from "./charge";
import { endLapsedGraces } from "./outcomes";
import { planCharges, planRetries } from "./plan";
import { startDueSubscriptions } from "./start";

export { chargePending } from "./charge";
export { planCharges, planRetries } from "./plan";

/**
 * The billing run (issue 11), in steps that each survive a crash at any point:
 * 0. upcoming subscriptions whose day has come start (./start.ts), their first payment charged.
 * 1. planning (./plan.ts): every period come due, and every soft decline whose retry day has come, becomes a
 *    `pending` payment, committed with the subscription's period moved on. Nothing is charged yet.
 * 2. charging (./charge.ts): every pending payment goes to its provider with its idempotency key; the answers are
 *    written down (./outcomes.ts). A crash in between is reconciled by sending the same key again.
 * 3. grace periods that ran out unpaid end the member's access (./outcomes.ts endLapsedGraces).
 * The run works across organisations, as the seed and sign-in do: it is the system, not a member of staff.
 */
export interface RunReport extends ChargeReport {
  /** Upcoming subscriptions whose start day came: started, and their first payment charged. */
  started: number;
  planned: number;
  /** Subscriptions whose grace period ran out unpaid in this run: access stopped. */
  lapsed: number;
}

export async function billingRun(db: Db, cards: CardProvider, now: Date): Promise<RunReport> {
  const started = await startDueSubscriptions(db, cards, now);
  const planned = (await planCharges(db, now)) + (await planRetries(db, now));
  const charged = await chargePending(db, cards, now);
  return { started, planned, ...charged, lapsed: await endLapsedGraces(db, now) };
}

/**
 * The run once a day, at 10 am Auckland time, from `from` to `until` (both days included): what the scheduled
 * job will do day by day, for `npm run billing -- --until` and the tests, which move time on. Reports are added up.
 */
export async function billingRunUntil(db: Db, cards: CardProvider, from: LocalDay, until: LocalDay): Promise<RunReport & { days: number }> {
  const total = { started: 0, planned: 0, charged: 0, declined: 0, leftPending: 0, lapsed: 0, days: 0 };
  for (let day = from; day <= until; day = addCalendarDays(day, 1)) {
    const report = await billingRun(db, cards, new Date(startOfLocalDay(day).getTime() + 10 * 3_600_000));
    total.started += report.started;
    total.planned += report.planned;
    total.charged += report.charged;
    total.declined += report.declined;
    total.lapsed += report.lapsed;
    total.days++;
  }
  // What is left waiting at the end, not a sum of every day's.
  total.leftPending = await db.$count(payments, and(eq(payments.status, "pending"), isNotNull(payments.idempotency_key)));
  return total;
}
