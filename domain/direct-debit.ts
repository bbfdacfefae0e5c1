import { addBusinessDays, isBusinessDay, onOrAfterBusinessDay } from "./business-days";
import { addCalendarDays, localDay, startOfLocalDay } from "./dates";
import type { LocalDay } from "./periods";

/**
 * A direct debit's life in New Zealand (BECS NZ through GoCardless), as GoCardless documents its timings
 * (support.gocardless.com, "BECS NZ payment timings"): a payment created by 5 pm on a business day can be charged
 * two business days later (D); it is submitted to the banks on D and taken from the payer's account that day; the
 * payer's bank has until D+3 to dishonour it, so GoCardless confirms it then, and pays it out on D+4. A failure
 * (a dishonour) is usually reported the next business day. The sandbox follows this timeline; the engine shows
 * its charge date as the payment's expected_charge_date.
 */
export type DirectDebitStatus = "pending_submission" | "submitted" | "confirmed" | "paid_out" | "failed" | "cancelled" | "charged_back";

export const CREATION_DEADLINE_HOUR = 17;
export const NOTICE_BUSINESS_DAYS = 2;
/** When in the day (Auckland) the sandbox's events happen: the banks' overnight files are in by then. */
export const EVENT_HOUR = 6;

/** The earliest day a payment created at `createdAt` can be charged. */
export function earliestChargeDate(createdAt: Date): LocalDay {
  const today = localDay(createdAt);
  const hour = (createdAt.getTime() - startOfLocalDay(today).getTime()) / 3_600_000;
  const from = isBusinessDay(today) && hour < CREATION_DEADLINE_HOUR ? today : onOrAfterBusinessDay(addCalendarDays(today, 1));
  return addBusinessDays(from, NOTICE_BUSINESS_DAYS);
}

/** The charge date GoCardless gives a payment: the one asked for if it can be met (moved to a business day), else the earliest. */
export function chargeDateFor(createdAt: Date, requested: LocalDay | null): LocalDay {
  const earliest = earliestChargeDate(createdAt);
  if (!requested) return earliest;
  const asked = onOrAfterBusinessDay(requested);
  return asked > earliest ? asked : earliest;
}

export interface DirectDebitEvent {
  status: DirectDebitStatus;
  at: Date;
}

/** Every status a payment charged on `chargeDate` passes through after it is created at `createdAt`, in order. */
export function directDebitTimeline(createdAt: Date, chargeDate: LocalDay, outcome: "paid" | "failed"): DirectDebitEvent[] {
  const at = (day: LocalDay) => new Date(startOfLocalDay(day).getTime() + EVENT_HOUR * 3_600_000);
  const events: DirectDebitEvent[] = [
    { status: "pending_submission", at: createdAt },
    { status: "submitted", at: at(chargeDate) },
  ];
  if (outcome === "failed") return [...events, { status: "failed", at: at(addBusinessDays(chargeDate, 1)) }];
  return [...events, { status: "confirmed", at: at(addBusinessDays(chargeDate, 3)) }, { status: "paid_out", at: at(addBusinessDays(chargeDate, 4)) }];
}

/** The status a payment has at `now`: the last of its timeline's events that has happened. */
export function statusAt(timeline: DirectDebitEvent[], now: Date): DirectDebitStatus {
  let status = timeline[0].status;
  for (const e of timeline) if (e.at <= now) status = e.status;
  return status;
}
