import { addCalendarDays } from "./dates";
import { addCalendarMonths, type LocalDay } from "./periods";

/**
 * What a failed charge means for the member (issue 11): a soft decline may pass another day and is retried on
 * RETRY_AFTER_DAYS; a hard one cannot pass until the member changes something, so it is not retried and the
 * member is e-mailed a link to update their payment method. Either way the organisation's grace period starts.
 */
export type DeclineKind = "soft" | "hard";

/**
 * Stripe decline codes (https://docs.stripe.com/declines/codes), GoCardless failure causes (payments'
 * `details.cause`) and Akahu payment status codes that no retry can fix. Every other code, and one we do not know, is soft: a
 * wasted retry costs nothing, a missed one costs the gym the payment.
 */
export const HARD_DECLINES = new Set([
  // Stripe
  "lost_card",
  "stolen_card",
  "expired_card",
  "pickup_card",
  "restricted_card",
  "incorrect_number",
  "invalid_account",
  "card_not_supported",
  "currency_not_supported",
  "do_not_try_again",
  "fraudulent",
  "merchant_blacklist",
  "revocation_of_authorization",
  "revocation_of_all_authorizations",
  "security_violation",
  "stop_payment_order",
  "transaction_not_allowed",
  "new_account_information_available",
  // Ours: the member has no card saved at the provider
  "no_payment_method",
  // Ours: a paid charge the payer's bank took back (a lost dispute, a direct debit charged back): charging the same
  // card or account again is wrong; staff take it (server/billing/chargebacks.ts)
  "charged_back",
  // GoCardless
  "mandate_cancelled",
  "mandate_expired",
  "mandate_suspended_by_payer",
  "bank_account_closed",
  "bank_account_transferred",
  "invalid_bank_details",
  "direct_debit_not_enabled",
  "authorisation_disputed",
  "no_mandate",
  // Akahu (bank payments; its status_code, lower-cased) and ours: the member must change something first
  "invalid_account",
  "authentication_failed",
  "mfa_unsupported",
  "multisig_unsupported",
  "single_limit_exceeded",
  "no_bank_connection",
]);

export function declineKind(code: string | null | undefined): DeclineKind {
  return code && HARD_DECLINES.has(code) ? "hard" : "soft";
}

/** Days after the first failure on which a soft decline is tried again: four more tries within a week. */
export const RETRY_AFTER_DAYS = [1, 3, 5, 7] as const;

/**
 * Every try of a charge that first failed on `firstFailed` (decision 0041): RETRY_AFTER_DAYS after it, but only while
 * the member still has access, that is before `accessStops` (the day their grace period ends). When the grace period
 * cuts the schedule short, the last day of access gets one last try instead, so a gym's usual week of grace still
 * sees four tries (days 1, 3, 5 and 6) and a member is never charged again after their access stopped. A hard
 * decline gets none. The billing run, the member's e-mails and the expected-payments page all ask this one rule.
 */
export function retrySchedule(firstFailed: LocalDay, kind: DeclineKind, accessStops: LocalDay | null = null): LocalDay[] {
  if (kind === "hard") return [];
  const days = RETRY_AFTER_DAYS.map((after) => addCalendarDays(firstFailed, after));
  if (!accessStops) return days;
  const kept = days.filter((day) => day < accessStops);
  const lastDayOfAccess = addCalendarDays(accessStops, -1);
  if (kept.length < days.length && lastDayOfAccess > firstFailed && lastDayOfAccess > (kept.at(-1) ?? firstFailed)) kept.push(lastDayOfAccess);
  return kept;
}

/** The day of the next try after `retries` tries (0 after the first failure), or null when the schedule is spent. */
export function nextRetryDay(firstFailed: LocalDay, retries: number, kind: DeclineKind, accessStops: LocalDay | null = null): LocalDay | null {
  return retrySchedule(firstFailed, kind, accessStops)[retries] ?? null;
}

export type GraceUnit = "day" | "week" | "month";

/**
 * The day access stops when a failure starting on `failed` stays unpaid: the organisation's failed-payment grace
 * period (a term membership uses the term grace period), in Auckland calendar days. The member keeps access
 * until that day begins.
 */
export function graceEnds(failed: LocalDay, amount: number, unit: GraceUnit): LocalDay {
  if (!Number.isInteger(amount) || amount < 0) throw new RangeError("A grace period is a whole number from 0");
  if (unit === "month") return addCalendarMonths(failed, amount);
  return addCalendarDays(failed, unit === "week" ? amount * 7 : amount);
}
