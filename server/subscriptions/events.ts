import { and, desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { subscription_events, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

const actor = alias(users, "actor");

/** A member's history, newest first: what was done, by whom, when, and the facts before and after. */
export async function memberEvents(t: Tenant, userId: number, limit = 50) {
  return t.db
    .select({
      id: subscription_events.id,
      subscription_id: subscription_events.subscription_id,
      action: subscription_events.action,
      summary: subscription_events.summary,
      before: subscription_events.before,
      after: subscription_events.after,
      created_at: subscription_events.created_at,
      actor: { id: actor.id, name: actor.name },
    })
    .from(subscription_events)
    .leftJoin(actor, eq(actor.id, subscription_events.actor_id))
    .where(t.where(subscription_events, and(eq(subscription_events.user_id, userId))))
    .orderBy(desc(subscription_events.created_at), desc(subscription_events.id))
    .limit(limit);
}
