import { addCalendarDays, formatDay } from "./dates";
import {
  cardOn,
  cardFacts,
  currentOrNextPause,
  nextCharge,
  previewCancel,
  previewPause,
  type CancelPreview,
  type Errors,
  type MembershipFacts,
  type NextCharge,
  type PausePreview,
} from "./lifecycle";
import { daysBetween, type LocalDay } from "./periods";
import { chargesDue } from "./schedule";

/**
 * What a member may do to their own membership on the sign-up app (issue 31, decision 0058), on top of the rules
 * staff work under (domain/lifecycle.ts: the same previews, so the member sees what staff would see):
 * - pause, where the organisation allows it, up to its days in any twelve months (counting every pause of this
 *   membership that overlaps those twelve months, whoever made it), starting tomorrow at the earliest;
 * - cancel, where the organisation allows it, giving its notice: at the end of the paid period when that is at
 *   least the notice away, else at the end of the period the notice runs into, with the payments before then
 *   still taken (a scheduled cancellation). A term whose leaving costs a break fee is not cancelled from here:
 *   the gym talks it through with the member.
 */
export interface MemberRules {
  mayPause: boolean;
  pauseDaysPerYear: number;
  mayCancel: boolean;
  noticeDays: number;
}

/** Pause days this membership has used, or will, in the twelve months ending on `day` (exclusive). */
export function pauseDaysInYearBefore(f: Pick<MembershipFacts, "pauses">, day: LocalDay): number {
  const from = addCalendarDays(day, -365);
  return f.pauses.reduce((sum, p) => {
    const start = p.start > from ? p.start : from;
    const end = p.end < day ? p.end : day;
    return sum + (end > start ? daysBetween(start, end) : 0);
  }, 0);
}

export function previewMemberPause(
  f: MembershipFacts,
  rules: MemberRules,
  pause: { start: LocalDay; end: LocalDay },
  today: LocalDay,
): { errors: Errors } | { effect: PausePreview & { daysLeftAfter: number } } {
  if (!rules.mayPause) return { errors: { _: ["Your gym does not let members pause their own membership here: ask the gym"] } };
  if (pause.start <= today) return { errors: { start: ["Choose a day from tomorrow"] } };
  const answer = previewPause(f, pause, today);
  if ("errors" in answer) return answer;
  // Every twelve months the pause touches: its end's window holds the most of it.
  const used = pauseDaysInYearBefore(f, pause.end);
  const days = answer.effect.days;
  const left = rules.pauseDaysPerYear - used;
  if (days > left) {
    return {
      errors: {
        end: [
          left > 0
            ? `You can pause for at most ${left} more ${left === 1 ? "day" : "days"} in this twelve months (${rules.pauseDaysPerYear} a year)`
            : `You have used the ${rules.pauseDaysPerYear} pause days a year your gym allows`,
        ],
      },
    };
  }
  return { effect: { ...answer.effect, daysLeftAfter: left - days } };
}

export interface MemberCancelPreview extends CancelPreview {
  /** True when the notice runs past the paid period: the cancellation waits for `accessEnds`. */
  scheduled: boolean;
  /** The payments still taken before access ends (a scheduled cancellation's). */
  paymentsBefore: NextCharge[];
  noticeDays: number;
}

export function previewMemberCancel(
  f: MembershipFacts,
  rules: MemberRules,
  today: LocalDay,
  breakFeePercentage: number | null,
): { errors: Errors } | { effect: MemberCancelPreview } {
  if (!rules.mayCancel) return { errors: { _: ["Your gym does not let members cancel their own membership here: ask the gym"] } };
  if (f.cancelAt) return { errors: { _: [`Your membership is already cancelling: your last day is the day before ${formatDay(f.cancelAt)}`] } };
  if (f.upcomingState === "failed") return { errors: { _: ["A payment is owing: settle it with the gym first"] } };
  const base = previewCancel(f, "period_end", today, breakFeePercentage);
  if ("errors" in base) return base;
  if (base.effect.breakFee > 0)
    return {
      errors: {
        _: [
          "Your membership is in its term, and leaving early costs a break fee: the gym will talk it through with you. Ask at the desk or send them a message.",
        ],
      },
    };
  const noticeEnds = addCalendarDays(today, rules.noticeDays);
  const unscheduled = { effect: { ...base.effect, scheduled: false, paymentsBefore: [], noticeDays: rules.noticeDays } };
  // Within a term's cooling-off a member leaves free, at the end of the paid period: no notice can turn that into a fee.
  if (base.effect.coolingOff) return unscheduled;
  if (f.frequency === "one_off" || !f.anchor || !f.paidUntil || f.paidUntil >= noticeEnds) return unscheduled;
  // The periods that start before the notice runs out are still paid for; access lasts to the last one's end.
  const due = chargesDue(
    { frequency: f.frequency, anchor: f.anchor, paidUntil: f.paidUntil, amount: f.amount, pauses: f.pauses, priceChange: f.priceChange },
    addCalendarDays(noticeEnds, -1),
  );
  if (!due.length) return unscheduled;
  const accessEnds = due[due.length - 1].period.end;
  const after = { ...f, cancelAt: accessEnds };
  return {
    effect: {
      ...base.effect,
      accessEnds,
      unusedDays: 0,
      undoUntil: accessEnds,
      scheduled: true,
      paymentsBefore: due.map((d) => ({ day: d.period.start, amount: d.amount })),
      noticeDays: rules.noticeDays,
      card: {
        ...cardOn(cardFacts(after, currentOrNextPause(f.pauses, today)), today, { nextCharge: nextCharge(after, today) }),
        detail: `Cancelling: access until ${formatDay(accessEnds)}`,
      },
    },
  };
}
