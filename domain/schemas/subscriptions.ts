import { z } from "zod";
import { optional, flag } from "./fields";
import { PIF_PAYMENT_METHODS } from "../payment";
import { CANCELLATION_REASONS } from "../cancellation-reasons";
import { databaseId } from "./ids";
import { email } from "./auth";
import { MSG } from "./messages";
import { calendarDay as day } from "./dates";

/**
 * The membership actions' requests (issue 12), shared by the API and the back-office forms. Every one that changes
 * a subscription carries the `version` the page showed (subscriptions.version): when someone else changed it since,
 * the API answers 409 and changes nothing. `preview` asks for the effect only; nothing is written.
 */
/** A day of a membership (its start, a pause, a price change): the product's day schema, within 2000–2099. */
export const MEMBERSHIP_DAYS = { from: "2000-01-01", to: "2099-12-31" };
export const calendarDay = (message: string, opts: { required?: string } = {}) => day(message, { ...MEMBERSHIP_DAYS, ...opts });

/** A checkbox or a JSON boolean: "on", "true", "1", true. */

const version = z.coerce.number({ required_error: MSG.required, invalid_type_error: "Reload the page: its version is missing" }).int().min(1).max(2_147_483_647);
const common = { version, preview: optional(flag) };

/** POST /api/subscriptions/{id}/pause: schedule a pause, end a running one early, remove a scheduled one, or adjust the pause-days credit. */
export const pauseRequest = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("pause"),
    start: calendarDay("Enter the day the pause starts"),
    end: calendarDay("Enter the day the member is back"),
    reason: optional(z.string().trim().max(500, MSG.max(500))),
    ...common,
  }),
  z.object({ action: z.literal("end"), pause_id: databaseId("Choose a pause"), end: calendarDay("Enter the day the pause ends"), ...common }),
  z.object({ action: z.literal("remove"), pause_id: databaseId("Choose a pause"), ...common }),
  z.object({
    action: z.literal("credit"),
    days: z.coerce
      .number({ required_error: MSG.required, invalid_type_error: "Enter a whole number of days" })
      .int("Enter a whole number of days")
      .min(-365, "Take away at most 365 days")
      .max(365, MSG.max(365))
      .refine((n) => n !== 0, "Enter a number of days other than 0"),
    ...common,
  }),
]);
export type PauseRequest = z.infer<typeof pauseRequest>;

export { CANCELLATION_REASON_LABELS, CANCELLATION_REASONS, type CancellationReason } from "../cancellation-reasons";

/** A form sends one value or several under one name. */
const list = <T extends z.ZodTypeAny>(item: T) => z.preprocess((v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]), z.array(item));

/** POST /api/subscriptions/{id}/cancel */
export const cancelRequest = z.object({
  when: z.enum(["period_end", "now"], { errorMap: () => ({ message: "Choose when the membership ends" }) }),
  reasons: list(z.enum(CANCELLATION_REASONS, { errorMap: () => ({ message: "Choose reasons from the list" }) })).refine((r) => r.length > 0, "Choose at least one reason"),
  comments: optional(z.string().trim().max(1000, MSG.max(1000))),
  ...common,
});
export type CancelRequest = z.infer<typeof cancelRequest>;

/** POST /api/subscriptions/{id}/undo-cancel */
export const undoCancelRequest = z.object(common);

/** POST /api/subscriptions/schedule-price-change (and change-price-email-preview, which needs no version) */
export const priceChangeRequest = z
  .object({
    subscription_id: databaseId("Choose a membership"),
    price_id: databaseId("Choose a price from the list"),
    from: z.enum(["period_end", "date"], { errorMap: () => ({ message: "Choose when the new price starts" }) }),
    date: optional(calendarDay("Enter the day the new price starts")),
    notify: optional(flag),
    ...common,
  })
  .refine((r) => r.from !== "date" || r.date, { message: "Enter the day the new price starts", path: ["date"] });
export const priceChangeEmailRequest = z
  .object({
    subscription_id: databaseId("Choose a membership"),
    price_id: databaseId("Choose a price from the list"),
    from: z.enum(["period_end", "date"], { errorMap: () => ({ message: "Choose when the new price starts" }) }),
    date: optional(calendarDay("Enter the day the new price starts")),
  })
  .refine((r) => r.from !== "date" || r.date, { message: "Enter the day the new price starts", path: ["date"] });

/** POST /api/subscriptions/{id}/remove-price-change, /start-now */
export const versionOnlyRequest = z.object(common);

export const MANUAL_PAYMENT_METHODS = ["charge", ...PIF_PAYMENT_METHODS] as const;
export const MANUAL_PAYMENT_METHOD_LABELS: Record<(typeof MANUAL_PAYMENT_METHODS)[number], string> = {
  charge: "Charge their saved payment method now",
  eftpos: "EFTPOS at the desk",
  cash: "Cash",
  bank_transfer: "Bank transfer (marked received when it arrives)",
};

/** POST /api/subscriptions/{id}/manual-payment: the balance owing, charged now or recorded as taken. */
export const manualPaymentRequest = z.object({
  method: z.enum(MANUAL_PAYMENT_METHODS, { errorMap: () => ({ message: "Choose how it is paid" }) }),
  note: optional(z.string().trim().max(500, MSG.max(500))),
  /** Made when the form was shown: the same form sent twice makes one payment. */
  key: z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/, "Reload the page: its payment key is missing"),
  ...common,
});
export type ManualPaymentRequest = z.infer<typeof manualPaymentRequest>;

/** POST /api/members/{id}/pif: a paid-in-full membership, paid at the desk. */
export const pifRequest = z.object({
  price_id: databaseId("Choose a paid-in-full price"),
  start: calendarDay("Enter the day it starts"),
  method: z.enum(PIF_PAYMENT_METHODS, { errorMap: () => ({ message: "Choose how it was paid" }) }),
  key: z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/, "Reload the page: its payment key is missing"),
  preview: optional(flag),
});
export type PifRequest = z.infer<typeof pifRequest>;

/** POST /api/organisations/{id}/members/onboard-pif: a new member who paid in full at the desk; they are invited to set a password. */
export const onboardPifRequest = z.object({
  name: z.preprocess((v) => (typeof v === "string" ? v.trim() : v) || undefined, z.string({ required_error: MSG.required }).max(120, MSG.max(120))),
  email,
  mobile_number: optional(z.string().trim().max(20, MSG.max(20)).regex(/^\+?[0-9 ()-]{6,20}$/, "Enter a phone number, such as 021 123 4567")),
  gym_id: databaseId("Choose a gym from the list"),
  price_id: databaseId("Choose a paid-in-full price"),
  start: calendarDay("Enter the day it starts"),
  method: z.enum(PIF_PAYMENT_METHODS, { errorMap: () => ({ message: "Choose how it was paid" }) }),
  key: z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/, "Reload the page: its payment key is missing"),
  preview: optional(flag),
});
export type OnboardPifRequest = z.infer<typeof onboardPifRequest>;

/** POST /api/me/membership/pause (issue 31): a member pausing their own membership, from tomorrow at the earliest. */
export const memberPauseRequest = z.object({
  start: calendarDay("Enter the day your pause starts"),
  end: calendarDay("Enter the day you are back"),
  ...common,
});
export type MemberPauseRequest = z.infer<typeof memberPauseRequest>;

/** POST /api/me/membership/cancel (issue 31): a member cancelling their own membership, with the organisation's notice. */
export const memberCancelRequest = z.object({
  reasons: list(z.enum(CANCELLATION_REASONS, { errorMap: () => ({ message: "Choose reasons from the list" }) })).refine((r) => r.length > 0, "Choose at least one reason"),
  comments: optional(z.string().trim().max(1000, MSG.max(1000))),
  ...common,
});
export type MemberCancelRequest = z.infer<typeof memberCancelRequest>;

/** POST /api/me/membership/pay-owing (issue 31): a member paying what is owing now, with the way they pay now. */
export const memberPayOwingRequest = z.object({
  /** Made when the page was shown: the same form sent twice pays once. */
  key: z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/, "Reload the page: its payment key is missing"),
  ...common,
});
export type MemberPayOwingRequest = z.infer<typeof memberPayOwingRequest>;
