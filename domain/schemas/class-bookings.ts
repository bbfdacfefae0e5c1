import { z } from "zod";
import { MESSAGE_MAX, TOO_LONG } from "../messaging";
import { optional } from "./fields";
import { databaseId } from "./ids";
import { MSG } from "./messages";

/** Group classes' bookings (issue 34): a member's own, staff's on a roster, attendance, and a message to a class. */

/** POST /api/me/class-bookings: a place in the class, or on its waitlist when it is full (unless `waitlist` is off). */
export const memberClassBookingRequest = z.object({
  class_id: databaseId("Choose a class"),
  waitlist: optional(z.preprocess((v) => (v === "0" || v === "false" ? false : v === "1" || v === "true" || v === "on" ? true : v), z.boolean())),
});

/** POST /api/classes/{id}/bookings: staff put a member in the class (the member's own rules apply). */
export const rosterBookingRequest = z.object({
  member_id: databaseId("Choose a member"),
  waitlist: optional(z.preprocess((v) => (v === "0" || v === "false" ? false : v === "1" || v === "true" || v === "on" ? true : v), z.boolean())),
  /** When the member's membership does not cover the class (a drop-in): charged to their card (the default), or taken at the desk. */
  drop_in_paid: z.enum(["card", "cash", "eftpos"], { errorMap: () => ({ message: "Choose how the drop-in is paid" }) }).default("card"),
});

/** POST /api/class-bookings/{id}/attendance: came, or did not. */
export const attendanceRequest = z.object({
  attended: z.preprocess(
    (v) => (v === "1" || v === "true" || v === "on" ? true : v === "0" || v === "false" ? false : v),
    z.boolean({ required_error: MSG.required, invalid_type_error: "Choose attended or no-show" }),
  ),
});

/** POST /api/classes/{id}/messages: to everyone holding a place in the class. */
export const classMessageRequest = z.object({
  subject: optional(z.string().trim().max(150, MSG.max(150))),
  body: z.string({ required_error: MSG.required, invalid_type_error: MSG.required }).trim().min(1, MSG.required).max(MESSAGE_MAX, TOO_LONG),
});

/** GET /api/me/classes: this week (0) or next (1), or both when absent. */
export const myClassesQuery = z.object({ week: optional(z.enum(["0", "1"], { errorMap: () => ({ message: "Choose this week or next" }) })) });
