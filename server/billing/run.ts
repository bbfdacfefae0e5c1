import { and, inArray, isNotNull, sql } from "drizzle-orm";
import { addCalendarDays, startOfLocalDay } from "../../domain/dates";
import type { LocalDay } from "../../domain/periods";
import type { Db } from "../core/db/client";
import { payments } from "../core/db/schema";
import type { Providers } from "../core/providers/registry";
import { chargePending, type ChargeReport } from "./charge";
import { pursueRefunds } from "./refunds";
import { syncDoorAccess, type DoorReport } from "./doors";
import { endLapsedGraces } from "./outcomes";
import { planCharges, planRetries, planRetryIds } from "./plan";
import { startDueSubscriptions } from "./start";

export { chargePending } from "./charge";
export { planCharges, planRetries } from "./plan";

/**
 * The billing run (issue 11), in steps that each survive a crash at any point:
 * 0. grace periods that ran out unpaid end the member's access (./outcomes.ts endLapsedGraces), before anything
 *    is planned for the day; then upcoming subscriptions whose day has come start (./start.ts), their first
 *    payment charged.
 * 1. planning (./plan.ts): every period come due, and every soft decline whose retry day has come, becomes a
 *    `pending` payment, committed with the subscription's period moved on. Nothing is charged yet.
 * 2. charging (./charge.ts): every pending payment goes to its provider with its idempotency key; the answers are
 *    written down (./outcomes.ts). A crash in between is reconciled by sending the same key again.
 * 3. the door (./doors.ts) is told whose access stopped, and lets back in those whose membership was settled.
 * Payments under way at a provider (direct debits, bank payments) are asked for their state in step 2 of each run;
 * the providers' webhooks usually settle them sooner.
 * The run works across organisations, as the seed and sign-in do: it is the system, not a member of staff.
 */
export interface RunReport extends ChargeReport {
  /** Upcoming subscriptions whose start day came: started, and their first payment charged. */
  started: number;
  planned: number;
  /** Subscriptions whose grace period ran out unpaid in this run: access stopped. */
  lapsed: number;
  doors: DoorReport;
  /** Refunds asked after this run: made, refused, still on their way. */
  refunds: { succeeded: number; failed: number; pending: number };
  /** How long each step took, in milliseconds (lapse, start, plan, charge, doors). */
  ms: Record<string, number>;
}

const ANALYZE_AFTER = 5_000;

/** The run's steps in order, as `onStep` names them when each begins (the crash trial aims its kills by them). */
export const RUN_STEPS = ["lapse", "start", "plan", "charge", "refunds", "doors"] as const;
export type RunStep = (typeof RUN_STEPS)[number];

export async function billingRun(db: Db, providers: Providers, now: Date, onStep?: (step: RunStep) => void): Promise<RunReport> {
  // A simulated clock (npm run billing, the tests) follows the run, so the sandboxes live on the run's day.
  providers.clock.set?.(now);
  const timer = stepTimer();
  onStep?.("lapse");
  // Access that stopped when a day began is stopped before anything is planned or charged for that day: a period
  // starting on or after the stop day is never charged (issue 28, finding 1).
  const lapsed = (await endLapsedGraces(db, now)).length;
  timer.lap("lapse");
  onStep?.("start");
  const started = await startDueSubscriptions(db, providers, now);
  timer.lap("start");
  onStep?.("plan");
  const planned = (await planCharges(db, now)) + (await planRetries(db, now));
  // Thousands of new pending rows are news to the planner until autovacuum notices; without them its estimates
  // pick plans that read every pending payment for each batch of the charge step.
  if (planned >= ANALYZE_AFTER) await db.execute(sql`analyze payments`);
  timer.lap("plan");
  onStep?.("charge");
  const charged = await chargePending(db, providers, now);
  // Answers the charge step heard (a bank payment or direct debit asked for its state) can make a retry due today:
  // it is made now, not only if the run happens to run again today (after a crash, the trial found a run done
  // twice made a try a single run did not: decision 0043). Only the new tries are sent.
  const late = await planRetryIds(db, now);
  if (late.length) {
    const more = await chargePending(db, providers, now, { only: late });
    for (const k of ["charged", "declined", "leftPending", "awaiting"] as const) charged[k] += more[k];
  }
  // Refunds on their way (a direct debit's takes a day or more) or never answered: asked again (./refunds.ts).
  onStep?.("refunds");
  const refunds = await pursueRefunds(db, providers, null, now);
  timer.lap("charge");
  onStep?.("doors");
  // Last, so the door hears both of this run's news: access stopped above, and access back for debts paid now.
  const doors = await syncDoorAccess(db, providers, now);
  timer.lap("doors");
  return { started, planned: planned + late.length, ...charged, lapsed, doors, refunds, ms: timer.ms };
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
 * `onStep` hears each step of each day as it begins (the crash trial's child reports them to aim its kills).
 */
export async function billingRunUntil(
  db: Db,
  providers: Providers,
  from: LocalDay,
  until: LocalDay,
  onStep?: (day: LocalDay, step: RunStep) => void,
  /** What the scheduler does before each day's run (cancellations whose notice is up: server/jobs/scheduler.ts), at that day's run time. */
  beforeEachDay?: (at: Date) => Promise<unknown>,
): Promise<Omit<RunReport, "ms"> & { days: number }> {
  const total = { started: 0, planned: 0, charged: 0, declined: 0, awaiting: 0, leftPending: 0, lapsed: 0, doors: { suspended: 0, restored: 0, failed: 0 }, refunds: { succeeded: 0, failed: 0, pending: 0 }, days: 0 };
  for (let day = from; day <= until; day = addCalendarDays(day, 1)) {
    const at = new Date(startOfLocalDay(day).getTime() + 10 * 3_600_000);
    await beforeEachDay?.(at);
    const report = await billingRun(db, providers, at, onStep && ((step) => onStep(day, step)));
    total.started += report.started;
    total.planned += report.planned;
    total.charged += report.charged;
    total.declined += report.declined;
    total.awaiting += report.awaiting;
    total.lapsed += report.lapsed;
    for (const k of ["suspended", "restored", "failed"] as const) total.doors[k] += report.doors[k];
    for (const k of ["succeeded", "failed"] as const) total.refunds[k] += report.refunds[k];
    total.refunds.pending = report.refunds.pending;
    total.days++;
  }
  // What is left waiting at the end, not a sum of every day's.
  total.leftPending = await db.$count(payments, and(inArray(payments.status, ["pending", "awaiting_payment"]), isNotNull(payments.idempotency_key)));
  return total;
}
