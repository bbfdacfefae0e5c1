import { z } from "zod";
import { databaseId } from "./ids";
import { searchSchema } from "./search";

/** GET /api/check-in/members?q=: a name, e-mail, mobile number or member code (issue 32); blank finds nobody. */
export const checkInSearchQuery = z.object({ q: searchSchema.shape.query });

const formKey = z
  .string({ required_error: "Reload the page: its check-in key is missing" })
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "Reload the page: its check-in key is missing");

/** POST /api/check-ins: the member staff chose, checked in at their current gym. */
export const checkInRequest = z.object({ user_id: databaseId("Choose a member to check in"), key: formKey });

/** POST /api/check-ins/kiosk: a member's own code, typed at the entrance's kiosk. */
export const kioskCheckInRequest = z.object({
  code: z.string({ required_error: "Enter your member code" }).trim().min(1, "Enter your member code").max(20, "Enter the 8 characters of your member code"),
  key: formKey,
});
