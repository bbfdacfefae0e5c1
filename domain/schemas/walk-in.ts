import { z } from "zod";
import { optional, flag } from "./fields";
import { databaseId } from "./ids";
import { email } from "./auth";
import { MSG } from "./messages";
import { calendarDay } from "./subscriptions";
import { calendarDay as day } from "./dates";

/**
 * POST /api/organisations/{id}/members/walk-in and /members/new (issue 32): a person joining at the desk on a recurring
 * price. The desk enters who they are (with their date of birth, for the minimum age), the price and the day it
 * starts; the person chooses how to pay from the link they are sent. `key` is made when the page is shown: the same
 * form sent twice makes one member.
 */
export const walkInRequest = z.object({
  name: z.preprocess((v) => (typeof v === "string" ? v.trim() : v) || undefined, z.string({ required_error: MSG.required }).max(120, MSG.max(120))),
  email,
  mobile_number: optional(
    z
      .string()
      .trim()
      .max(20, MSG.max(20))
      .regex(/^\+?[0-9 ()-]{6,20}$/, "Enter a phone number, such as 021 123 4567"),
  ),
  dob: day("Enter their date of birth, such as 1990-04-21", { from: "1900-01-01", to: "2099-12-31" }),
  gym_id: databaseId("Choose a gym from the list"),
  price_id: databaseId("Choose a membership from the list"),
  start: calendarDay("Enter the day it starts", { required: MSG.required }),
  key: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, "Reload the page: its key is missing"),
  preview: optional(flag),
});
export type WalkInRequest = z.infer<typeof walkInRequest>;
