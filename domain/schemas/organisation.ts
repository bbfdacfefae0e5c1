import { z } from "zod";
import { ORGANISATION_PRICE_FREQUENCIES } from "../billing";
import { PERIOD_UNITS } from "../organisation";
import { flag, optional } from "./fields";
import { MSG } from "./messages";
import { CHOOSE } from "./offerings";

/** The organisation's settings (issue 14, /organisation/settings; SPEC §5: name required, each grace period needs both parts). */
export const organisationNameRequest = z.object({
  name: z.string({ required_error: MSG.required, invalid_type_error: MSG.required }).trim().min(1, MSG.required).max(100, MSG.max(100)),
});

/** The longest grace period: a year in days. */
const MAX_PERIOD = 365;

const gracePeriodFields = z.object({
  period: z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ required_error: MSG.required, invalid_type_error: "Enter a whole number" }).int("Enter a whole number").min(0, "The minimum value allowed is 0").max(MAX_PERIOD, MSG.max(MAX_PERIOD)),
  ),
  unit: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(PERIOD_UNITS, { errorMap: (i) => ({ message: i.code === "invalid_enum_value" ? "Choose days, weeks or months" : CHOOSE }) })),
});

/**
 * A grace period as a caller may send it (SPEC §3: "may arrive nested or flat"): `{ period, unit }` as the form
 * sends it, flat `{ failed_payment_grace_period, failed_payment_grace_period_unit }`, or nested under
 * `grace_period`. All three are read as `{ period, unit }`, so the errors name `period` and `unit`.
 */
function gracePeriodRequest(group: string, amountKey: string) {
  return z.preprocess((raw) => {
    if (!raw || typeof raw !== "object") return raw;
    const body = raw as Record<string, unknown>;
    const nested = body[group] && typeof body[group] === "object" ? (body[group] as Record<string, unknown>) : body;
    return {
      period: body.period ?? nested[amountKey],
      unit: body.unit ?? nested[`${amountKey}_unit`],
    };
  }, gracePeriodFields);
}
export const failedPaymentGraceRequest = gracePeriodRequest("grace_period", "failed_payment_grace_period");
export const termGraceRequest = gracePeriodRequest("term_grace_period", "term_membership_grace_period");
export type GracePeriodInput = z.output<typeof gracePeriodFields>;

export const offeringPermissionsRequest = z.object({ enable_offerings: flag, non_stop: flag, limited_access: flag });

export const priceFrequenciesRequest = z.object(Object.fromEntries(ORGANISATION_PRICE_FREQUENCIES.map((f) => [f, flag])) as Record<(typeof ORGANISATION_PRICE_FREQUENCIES)[number], typeof flag>);

/** PUT /api/organisations/{id}/minimum-age { minimum_age }: the youngest who may join online (0: no minimum). */
export const minimumAgeRequest = z.object({
  minimum_age: z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ required_error: MSG.required, invalid_type_error: "Enter a whole number" }).int("Enter a whole number").min(0, "The minimum value allowed is 0").max(99, MSG.max(99)),
  ),
});

/** PUT /api/organisations/{id}/member-mail { payment_receipts, signup_reminders }: which e-mails members get (issue 31). */
export const memberMailRequest = z.object({ payment_receipts: flag, signup_reminders: flag });

/**
 * PUT /api/organisations/{id}/membership-terms { text, url }: the terms members accept when they join (issue 31),
 * in the organisation's own words, or a link to its own page (https), or both. Empty clears it.
 */
export const membershipTermsRequest = z.object({
  text: optional(z.string().trim().max(20_000, MSG.max(20_000))),
  url: optional(
    z
      .string()
      .trim()
      .max(2_000, MSG.max(2_000))
      .refine((v) => {
        try {
          return new URL(v).protocol === "https:";
        } catch {
          return false;
        }
      }, "Enter a web address starting with https://"),
  ),
});
export type MembershipTermsInput = z.output<typeof membershipTermsRequest>;

const wholeDays = (max: number) =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ required_error: MSG.required, invalid_type_error: "Enter a whole number" }).int("Enter a whole number").min(0, "The minimum value allowed is 0").max(max, MSG.max(max)),
  );

/**
 * PUT /api/organisations/{id}/member-self-service: what members may do themselves (issue 31, decision 0058): pause,
 * up to so many days in any twelve months; cancel, with so many days' notice.
 */
export const memberSelfServiceRequest = z.object({
  members_may_pause: flag,
  member_pause_days_per_year: wholeDays(365),
  members_may_cancel: flag,
  member_cancel_notice_days: wholeDays(90),
});
export type MemberSelfServiceInput = z.output<typeof memberSelfServiceRequest>;
