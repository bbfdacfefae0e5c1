import { and, eq, isNotNull, sql } from "drizzle-orm";
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
  /** How long each step took, in milliseconds (start, plan, charge, lapse). */
  ms: Record<string, number>;
}

const ANALYZE_AFTER = 5_000;

export async function billingRun(db: Db, cards: CardProvider, now: Date): Promise<RunReport> {
  const timer = stepTimer();
  const started = await startDueSubscriptions(db, cards, now);
  timer.lap("start");
  const planned = (await planCharges(db, now)) + (await planRetries(db, now));
  // Thousands of new pending rows are news to the planner until autovacuum notices; without them its estimates
  // pick plans that read every pending payment for each batch of the charge step.
  if (planned >= ANALYZE_AFTER) await db.execute(sql`analyze payments`);
  timer.lap("plan");
  const charged = await chargePending(db, cards, now);
  timer.lap("charge");
  const lapsed = await endLapsedGraces(db, now);
  timer.lap("lapse");
  return { started, planned, ...charged, lapsed, ms: timer.ms };
}

/** Milliseconds per step, for the run's log line and the benchmark. */
function stepTimer() {
  const ms: Record<string, number> = {};
  let last = performance.now();
  return {
    ms,
    lap(step: string) {
      const now = performance.now();
      ms[step] = Math.round(now - last);
      last = now;
    },
  };
}

/**
 * The run once a day, at 10 am Auckland time, from `from` to `until` (both days included): what the scheduled
 * job will do day by day, for `npm run billing -- --until` and the tests, which move time on. Reports are added up.
 */
export async function billingRunUntil(db: Db, cards: CardProvider, from: LocalDay, until: LocalDay): Promise<Omit<RunReport, "ms"> & { days: number }> {
  const total = { started: 0, planned: 0, charged: 0, declined: 0, awaiting: 0, leftPending: 0, lapsed: 0, days: 0 };
  for (let day = from; day <= until; day = addCalendarDays(day, 1)) {
    const report = await billingRun(db, cards, new Date(startOfLocalDay(day).getTime() + 10 * 3_600_000));
    total.started += report.started;
    total.planned += report.planned;
    total.charged += report.charged;
    total.declined += report.declined;
    total.awaiting += report.awaiting;
    total.lapsed += report.lapsed;
    total.days++;
  }
  // What is left waiting at the end, not a sum of every day's.
  total.leftPending = await db.$count(payments, and(eq(payments.status, "pending"), isNotNull(payments.idempotency_key)));
  return total;
}
