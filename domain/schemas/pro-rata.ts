import { z } from "zod";
import { optional } from "./fields";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day written yyyy-MM-dd (what a date input sends), between 2000 and 2100. */
const calendarDay = (message: string) =>
  z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .refine((v) => DAY.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v && v >= "2000-01-01" && v < "2100-01-01", message);


/**
 * POST /api/prices/{id}/pro-rata: a start date, and the member's billing date (the first full charge) when one
 * was chosen; without it the price's usual billing day (domain/periods.ts defaultFirstFullCharge).
 */
export const proRataRequest = z.object({
  start_date: calendarDay("Enter the start date as a date"),
  billing_date: optional(calendarDay("Enter the billing date as a date")),
});
export type ProRataRequest = z.infer<typeof proRataRequest>;
