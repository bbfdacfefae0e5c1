import type { Db } from "../db/client";
import type { Providers } from "../providers/registry";
import { sandboxProviders } from "../providers/registry";
import { settleIfPaidUp } from "../subscriptions/payments";
import { chargePending } from "./charge";
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
  if (payments.first) await chargeFirstPayments(deps.db, providers, payments.ids, now);
  else await chargePending(deps.db, providers, now, { only: payments.ids });
  if (await settleIfPaidUp(deps.db, payments.subscriptionId, now)) await syncDoorAccess(deps.db, providers, now);
}
