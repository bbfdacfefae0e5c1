import { z } from "zod";
import { optional } from "./fields";
import { MSG } from "./messages";

/** What a difference found by the daily reconciliation (issue 28) is, for the filter and the page. */
export const DIFFERENCE_STATUSES = ["open", "explained", "corrected"] as const;

export const EXPLANATION_MAX = 1000;

/** GET /api/reconciliation?status=&page=: open differences first by default, 50 a page. */
export const reconciliationQuery = z.object({
  status: optional(z.enum([...DIFFERENCE_STATUSES, "all"], { errorMap: () => ({ message: "Choose a status from the list" }) })),
  page: optional(z.coerce.number({ invalid_type_error: "Page must be a number" }).int("Page must be a whole number").min(1, "Page must be 1 or more").max(100_000)),
});

/** POST /api/reconciliation/{id}/explain: what a person found (a note); marks the difference explained. */
export const explainSchema = z.object({
  explanation: z.preprocess((v) => (v == null ? "" : v), z.string({ invalid_type_error: MSG.required }).trim().min(1, MSG.required).max(EXPLANATION_MAX, `Use at most ${EXPLANATION_MAX} characters`)),
});
