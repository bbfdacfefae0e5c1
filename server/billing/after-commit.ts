import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { ApiEnv } from "../core/context";
import { now } from "../core/middleware";
import type { Db } from "../core/db/client";
import { subscriptions } from "../core/db/schema";
import type { Providers } from "../core/providers/registry";
import { sandboxProviders } from "../core/providers/registry";
import { chargePending } from "./charge";
import { settleIfPaidUp } from "./settle";
import { syncDoorAccess } from "./doors";
import { chargeFirstPayments } from "./start";

/**
 * Money a member of staff moved (a charge at the desk, a break fee, a membership started now), taken once the
 * request that wrote the payments down is committed: the system's work, on the system's handle, for these
 * payments only. Then what they paid for is settled: a grace period ends, a stopped membership runs again and its
 * member is let back in at the door. A declined first payment stops its membership, as at sign-up.
 */
export async function chargeCommitted(
  deps: { db: Db; providers?: Providers },
  payments: { ids: number[]; subscriptionId: number; first?: boolean },
  now: Date,
): Promise<void> {
  const providers = deps.providers ?? sandboxProviders(deps.db);
  const stopped = async () => (await deps.db.select({ state: subscriptions.upcoming_state }).from(subscriptions).where(eq(subscriptions.id, payments.subscriptionId)))[0]?.state === "failed";
  const wasStopped = await stopped();
  if (payments.first) await chargeFirstPayments(deps.db, providers, payments.ids, now);
  else await chargePending(deps.db, providers, now, { only: payments.ids });
  // A charge that paid the debt lets the member back in as it is written down (./outcomes.ts); a desk payment is settled here.
  const settled = await settleIfPaidUp(deps.db, payments.subscriptionId, now);
  if (settled || (wasStopped && !(await stopped()))) await syncDoorAccess(deps.db, providers, now);
}

/**
 * Payments written in this request, charged once it is committed (a payment is written down before any provider is
 * asked); their receipts go out as soon as the charge has its answer, not at the next minute.
 */
export function chargeAfterCommit(c: Context<ApiEnv>, paymentIds: number[], subscriptionId: number, opts: { first?: boolean } = {}) {
  const at = now(c);
  const deps = c.var.deps;
  c.var.afterCommit(async () => {
    await chargeCommitted(deps, { ids: paymentIds, subscriptionId, first: opts.first }, at);
    deps.jobs?.start("member-mail");
  });
}
