import { z } from "zod";
import { optional } from "./fields";
import { calendarDay } from "./dates";
import { WEBHOOK_CALL_STATUSES, WEBHOOK_PROVIDER_NAMES } from "../webhook-calls";

export { WEBHOOK_CALL_STATUSES, WEBHOOK_PROVIDER_NAMES };

const day = calendarDay("Enter a date as yyyy-mm-dd");

const PROVIDER_KEYS = Object.keys(WEBHOOK_PROVIDER_NAMES) as [keyof typeof WEBHOOK_PROVIDER_NAMES, ...(keyof typeof WEBHOOK_PROVIDER_NAMES)[]];


/** GET /api/webhook-calls?provider=&status=&from=&to=&page=: newest first, 50 a page. */
export const webhookCallsQuery = z
  .object({
    provider: optional(z.enum(PROVIDER_KEYS, { errorMap: () => ({ message: "Choose Stripe, GoCardless or Akahu" }) })),
    status: optional(z.enum(WEBHOOK_CALL_STATUSES, { errorMap: () => ({ message: "Choose a status from the list" }) })),
    from: optional(day),
    to: optional(day),
    page: optional(z.coerce.number({ invalid_type_error: "Page must be a number" }).int("Page must be a whole number").min(1, "Page must be 1 or more").max(100_000)),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "The end date must be on or after the start date", path: ["to"] });
