import { z } from "zod";
import { CONFIDENCE_ANSWERS, HEAR_ABOUT_US_ANSWERS } from "../member";
import { databaseId } from "./ids";
import { MSG } from "./messages";
import { calendarDay } from "./subscriptions";
import { calendarDay as day } from "./dates";

/**
 * The sign-up confirm page's requests (issue 13), shared by the API and the page. The register fields are the
 * member's own (PUT /api/me/register-fields); the confirmation (POST /api/subscriptions) carries an idempotency key
 * made when the page was drawn, so a double tap, back-and-resubmit or a retry after the client's time-out makes one.
 */

const blank = (v: unknown) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v);
const required = (max: number) => z.string({ required_error: MSG.required }).trim().min(1, MSG.required).max(max, MSG.max(max));
const phone = z
  .string({ required_error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .regex(/^\+?[\d\s().-]{6,20}$/, "Enter a phone number, such as 021 555 0123");
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { errorMap: (issue) => ({ message: issue.code === "invalid_type" ? MSG.required : "Choose an answer from the list" }) });

export const registerFieldsSchema = z
  .object({
    address: required(200),
    suburb: z.preprocess(blank, z.string().trim().max(100, MSG.max(100)).optional()),
    city: required(100),
    post_code: z.string({ required_error: MSG.required }).trim().min(1, MSG.required).regex(/^\d{4}$/, "Enter a 4-digit postcode"),
    dob: day("Enter your date of birth, such as 1990-04-21"),
    emergency_contact_name: required(120),
    emergency_contact_number: phone,
    emergency_contact_relationship: required(60),
    confidence_and_experience: z.preprocess(blank, choice(CONFIDENCE_ANSWERS).optional()),
    hear_about_us: z.preprocess(blank, choice(HEAR_ABOUT_US_ANSWERS)),
    hear_about_us_other: z.preprocess(blank, z.string().trim().max(200, MSG.max(200)).optional()),
  })
  .superRefine((v, ctx) => {
    if (v.hear_about_us === "other" && !v.hear_about_us_other) ctx.addIssue({ code: "custom", path: ["hear_about_us_other"], message: MSG.required });
  });
export type RegisterFields = z.infer<typeof registerFieldsSchema>;

const accepted = z.preprocess((v) => v === true || v === "on" || v === "true" || v === "1", z.literal(true, { errorMap: () => ({ message: "Accept the terms to join" }) }));

export const confirmSubscriptionSchema = z.object({
  price_id: databaseId("Choose a membership"),
  start_date: calendarDay("Enter the day you want to start"),
  terms: accepted,
  idempotency_key: z.string({ required_error: "Reload the page and try again" }).trim().regex(/^[A-Za-z0-9_-]{16,64}$/, "Reload the page and try again"),
});
export type ConfirmSubscription = z.infer<typeof confirmSubscriptionSchema>;

export const signupQuoteQuery = z.object({ price_id: databaseId("Choose a membership"), start_date: calendarDay("Enter the day you want to start") });

/** How far ahead a person may choose to start. */
export const LATEST_START_DAYS = 60;

/** Age in whole years on `day` for a date of birth (both yyyy-MM-dd). */
export function ageOn(dob: string, day: string): number {
  const [y, m, d] = dob.split("-").map(Number);
  const [ty, tm, td] = day.split("-").map(Number);
  return ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
}
