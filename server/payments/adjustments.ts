import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { PaymentAdjustedFilter } from "../../domain/payment-filters";
import { GIVEN_BACK_CHARGEBACK_STATUSES, GIVEN_BACK_REFUND_STATUSES, OPEN_CHARGEBACK_STATUS } from "../../domain/refunds";
import { payment_adjustments, payments } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * What was given back on each payment a list shows (issue 28), in the words of domain/refunds.ts `givenBack`:
 * refunded (refunds pending or succeeded), charged back (chargebacks lost), disputed (a chargeback still open).
 *
 * A lateral aggregate joined to the rows being read: one probe of `payment_adjustments_payment_idx` per row, so a
 * page pays for its 50 rows (an export batch for its 1,000), never for the range. An aggregate without GROUP BY
 * always answers one row, so the left join keeps every payment and a payment with nothing given back reads 0.
 */
const a = payment_adjustments;
const refunded = and(eq(a.kind, "refund"), inArray(a.status, [...GIVEN_BACK_REFUND_STATUSES]))!;
const chargedBack = and(eq(a.kind, "chargeback"), inArray(a.status, [...GIVEN_BACK_CHARGEBACK_STATUSES]))!;
const disputed = and(eq(a.kind, "chargeback"), eq(a.status, OPEN_CHARGEBACK_STATUS))!;

export function givenBackOfEach(t: Tenant) {
  return t.db
    .select({
      refunded: sql<number>`coalesce(sum(${a.amount}) filter (where ${refunded}), 0)::int`.as("refunded"),
      charged_back: sql<number>`coalesce(sum(${a.amount}) filter (where ${chargedBack}), 0)::int`.as("charged_back"),
      disputed: sql<boolean>`coalesce(bool_or(${disputed}), false)`.as("disputed"),
    })
    .from(a)
    .where(and(eq(a.organisation_id, payments.organisation_id), eq(a.payment_id, payments.id)))
    .as("given_back");
}

/**
 * The list's `adjusted` filter: payments with such an entry. Driven from the adjustments (few) into the payments by
 * their key, rather than testing every payment of the range: `= any(array(…))` is worked out once, before the
 * payments are read, and then looked up by the primary key. Written as `in (select …)`, PostgreSQL walked the range's
 * date index newest first and probed the adjustments for each payment (a month of one organisation: 35,000 payments
 * for 150 matches, 200–270 ms on the 100,000-member data set). The adjustments are those of payments made in the
 * list's days, read by `payment_adjustments_payment_day_idx` on the payment's day copied onto each adjustment
 * (drizzle/0038): without it, a month of refunds probed every refund the organisation ever made (p95 124–180 ms).
 */
export function adjustedIs(t: Tenant, filter: PaymentAdjustedFilter, gymId: number | null, range: { start: Date; end: Date }): SQL {
  const which = filter === "refunded" ? refunded : filter === "charged_back" ? chargedBack : disputed;
  const ofDays = and(gte(a.payment_created_at, range.start), lt(a.payment_created_at, range.end));
  return sql`${payments.id} = any(array(select ${a.payment_id} from ${a} where ${t.where(a, which, ofDays, gymId ? eq(a.gym_id, gymId) : undefined)}))`;
}
