import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { ApiEnv } from "../core/context";
import { organisation_users, subscriptions, type payment_types } from "../core/db/schema";
import { recordEvent } from "../core/membership-history";
import { tellChangeAfterCommit } from "../member-mail/membership-changes";
import { methodSummary } from "../self-service/membership";

/**
 * A joined member's new way to pay (issue 31: changed from /membership/payment, through the same provider pages
 * sign-up uses): written in their membership's history, with them as the one who did it, and e-mailed once
 * committed. While they are still joining there is nothing to tell: the confirm page shows the method.
 */
export async function noteMethodChange(c: Context<ApiEnv>, beforeId: number | null, saved: typeof payment_types.$inferSelect) {
  if (beforeId === saved.id) return;
  const t = c.var.tenant;
  const userId = c.var.user!.row.id;
  const [s] = await t.db
    .select({ id: subscriptions.id, user_id: subscriptions.user_id, gym_id: subscriptions.gym_id, upcoming_state: subscriptions.upcoming_state })
    .from(organisation_users)
    .innerJoin(subscriptions, eq(subscriptions.id, organisation_users.latest_subscription_id))
    .where(t.where(organisation_users, eq(organisation_users.user_id, userId)));
  if (!s || s.upcoming_state === "failed") return;
  const method = methodSummary(saved).text;
  await recordEvent(t, { subscriptionId: s.id, userId, actorId: userId, action: "payment_method.change", summary: `Payment method changed to ${method}` });
  tellChangeAfterCommit(c, { s }, { kind: "payment-method", method });
}
