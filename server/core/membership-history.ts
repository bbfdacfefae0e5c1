import { subscription_events } from "./db/schema";
import type { Tenant } from "./db/tenant";

/** One action on a membership, written in the same transaction as the change (issue 12's history). In the core, as
 * every kind of change writes one: the membership actions, sign-up, billing's refunds. Read by ../subscriptions/events.ts. */
export async function recordEvent(
  t: Tenant,
  e: {
    subscriptionId: number | null;
    userId: number;
    actorId: number | null;
    action: string;
    summary: string;
    before?: Record<string, unknown> | null;
    after?: Record<string, unknown> | null;
  },
) {
  const [row] = await t.db
    .insert(subscription_events)
    .values(
      t.owned({
        subscription_id: e.subscriptionId,
        user_id: e.userId,
        actor_id: e.actorId,
        action: e.action,
        summary: e.summary,
        before: e.before ?? null,
        after: e.after ?? null,
      }),
    )
    .returning();
  return row;
}
