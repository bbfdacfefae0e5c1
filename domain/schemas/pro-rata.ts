import { z } from "zod";
import { optional } from "./fields";

import { calendarDay } from "./subscriptions";


/**
 * POST /api/prices/{id}/pro-rata: a start date, and the member's billing date (the first full charge) when one
 * was chosen; without it the price's usual billing day (domain/periods.ts defaultFirstFullCharge).
 */
export const proRataRequest = z.object({
  start_date: calendarDay("Enter the start date as a date", { required: "Enter the start date as a date" }),
  billing_date: optional(calendarDay("Enter the billing date as a date", { required: "Enter the billing date as a date" })),
});
