import { calendarDay } from "./dates";
import { MEMBERSHIP_DAYS } from "./subscriptions";
import { z } from "zod";
import { optional } from "./fields";
import { databaseId } from "./ids";
import {
  PAYMENT_ADJUSTED_FILTERS,
  PAYMENT_METHOD_FILTERS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_OUTCOME_FILTERS,
  PAYMENT_OUTCOME_LABELS,
  type PaymentAdjustedFilter,
  type PaymentMethodFilter,
} from "../payment-filters";

export { PAYMENT_ADJUSTED_FILTERS, PAYMENT_METHOD_FILTERS, PAYMENT_METHOD_LABELS, PAYMENT_OUTCOME_FILTERS, PAYMENT_OUTCOME_LABELS, type PaymentAdjustedFilter, type PaymentMethodFilter };

/**
 * The /payments and /visits lists' filters (issue 12): GET parameters, so a filtered list is a link, and the same
 * filters for their CSV exports. A date range is at most a year and a bit; without one, the last 30 days.
 */
const day = (message: string) => calendarDay(message, MEMBERSHIP_DAYS);

export const LIST_PER_PAGE = 50;
export const MAX_RANGE_DAYS = 400;


const common = {
  from: optional(day("Enter the start date as a date")),
  to: optional(day("Enter the end date as a date")),
  /** A gym of the organisation, or "all" (organisation admins only); the current gym when absent. */
  gym: optional(z.union([z.literal("all"), databaseId("Choose a gym from the list")])),
  member: optional(databaseId("Choose a member")),
  q: optional(z.string().trim().max(100, "Search for at most 100 characters")),
  page: optional(z.coerce.number().int().min(1).max(100_000)).transform((v) => v ?? 1),
};

const range = <T extends { from?: string; to?: string }>(q: T, ctx: z.RefinementCtx) => {
  if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: "custom", path: ["to"], message: "The end date must be on or after the start date" });
  if (q.from && q.to && (Date.parse(q.to) - Date.parse(q.from)) / 864e5 > MAX_RANGE_DAYS) ctx.addIssue({ code: "custom", path: ["from"], message: `Choose at most ${MAX_RANGE_DAYS} days` });
};

export const paymentListQuery = z
  .object({
    ...common,
    status: optional(z.enum(PAYMENT_OUTCOME_FILTERS, { errorMap: () => ({ message: "Choose a status from the list" }) })),
    method: optional(z.enum(PAYMENT_METHOD_FILTERS, { errorMap: () => ({ message: "Choose a payment method from the list" }) })),
    /** Payments with money given back (issue 28): refunded, charged back or disputed. */
    adjusted: optional(z.enum(PAYMENT_ADJUSTED_FILTERS, { errorMap: () => ({ message: "Choose refunded, charged back or disputed" }) })),
  })
  .superRefine(range);
export type PaymentListQuery = z.infer<typeof paymentListQuery>;

export const VISIT_RESULT_FILTERS = ["successful", "refused"] as const;
export const visitListQuery = z
  .object({
    ...common,
    result: optional(z.enum(VISIT_RESULT_FILTERS, { errorMap: () => ({ message: "Choose entered or refused" }) })),
  })
  .superRefine(range);
export type VisitListQuery = z.infer<typeof visitListQuery>;
