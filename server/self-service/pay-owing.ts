import { eq } from "drizzle-orm";
import type { MemberPayOwingRequest } from "../../domain/schemas/subscriptions";
import { isUniqueViolation } from "../core/db/errors";
import { organisation_users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { ApiError, invalid } from "../core/errors";
import { applyManualPayment, manualPaymentEffect } from "../subscriptions/payments";
import { myMembership } from "./member-actions";

/**
 * A member paying what is owing now (issue 31), with the way they pay now (a card just added, say): the same
 * charge staff take at the desk (server/subscriptions/payments.ts), every owed period a new attempt, the member as
 * the one who took it in the history. Always open to them: paying a debt needs no organisation setting.
 */
export async function payMine(t: Tenant, userId: number, req: MemberPayOwingRequest, now: Date) {
  const m = await myMembership(t, userId);
  const [place] = await t.db
    .select({ method: organisation_users.default_payment_type_id })
    .from(organisation_users)
    .where(t.where(organisation_users, eq(organisation_users.user_id, userId)));
  if (!place?.method) throw invalid({ payment_type: ["Connect a way to pay first"] });
  if (req.preview) return { preview: await manualPaymentEffect(t, m, { method: "charge" }), membership: m };
  try {
    const done = await applyManualPayment(t, m, { method: "charge", key: req.key, version: req.version }, userId, now);
    return { done, membership: m };
  } catch (err) {
    // The billing run's retry of the same period, written a moment before ours: one attempt per period, the index decides.
    if (isUniqueViolation(err)) throw new ApiError(409, "This payment is being taken already. Reload the page to see how it went.", "conflict");
    throw err;
  }
}
