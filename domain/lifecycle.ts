import type { BillingFrequency } from "./billing";
import { addCalendarDays, formatDate, formatDay, startOfLocalDay } from "./dates";
import { daysBetween, type LocalDay } from "./periods";
import { chargesDue } from "./schedule";
import { STATE_LABELS, statusColour, subscriptionState, type StatusColour, type SubscriptionFacts } from "./subscription";
import { breakFee } from "./terms";

/**
 * What a change to a membership will do, before staff confirm it (issue 12): the next charge (day and amount),
 * what the member pays or is spared, and what the status card will say. Pure functions of the subscription's facts
 * in Auckland calendar days; the API answers them as the action's preview and applies the same facts when it is
 * confirmed (server/subscriptions/), so the preview and the change cannot disagree.
 */
export interface PauseFacts {
  id?: number;
  start: LocalDay;
  /** The day the member is back (exclusive); a pause always has an end. */
  end: LocalDay;
}

export interface MembershipFacts {
  frequency: BillingFrequency;
  /** The price the member pays now, in cents (force_price_amount, else the price's amount). */
  amount: number;
  anchor: LocalDay | null;
  /** Paid up to this day (the current period's end). */
  paidUntil: LocalDay | null;
  pauses: PauseFacts[];
  cancelledAt: Date | null;
  graceEndsAt: Date | null;
  upcomingState: string | null;
  termEndsAt: LocalDay | null;
  coolingEndsAt: LocalDay | null;
  pifEndsAt: LocalDay | null;
  priceChange: { from: LocalDay; amount: number } | null;
  pauseDaysCredit: number;
  /** A cancellation waiting for its day (decision 0058): access until this period end; nothing charged from it. */
  cancelAt?: LocalDay | null;
}

export interface NextCharge {
  day: LocalDay;
  amount: number;
}

export interface CardPreview {
  label: string;
  colour: StatusColour;
  /** The card's line in words: "Paused until 3 Mar 2027", "Cancelled: access until 1 Dec 2026". */
  detail: string;
}

export type Errors = Record<string, string[]>;

/** How far ahead a change may be dated: a year and a bit. */
export const MAX_DAYS_AHEAD = 400;
/** The longest pause: a year. */
export const MAX_PAUSE_DAYS = 365;

/** The first charge from `today` on, under these facts: null when none will come (cancelled, paid in full, stopped). */
export function nextCharge(f: MembershipFacts, today: LocalDay): NextCharge | null {
  if (f.frequency === "one_off" || !f.anchor || !f.paidUntil || f.cancelledAt || f.upcomingState === "failed") return null;
  // Far enough ahead for a year's pause and a yearly period after it.
  const horizon = addCalendarDays(today > f.paidUntil ? today : f.paidUntil, 800);
  const due = chargesDue({ frequency: f.frequency, anchor: f.anchor, paidUntil: f.paidUntil, amount: f.amount, pauses: f.pauses, priceChange: f.priceChange, cancelledFrom: f.cancelAt ?? undefined }, horizon);
  const first = due[0];
  return first ? { day: first.period.start, amount: first.amount } : null;
}

/** Days a pause takes. */
export const pauseDays = (p: PauseFacts) => daysBetween(p.start, p.end);

/** The pause credit left: the days granted less the days every pause of this membership takes. */
export function pauseDaysRemaining(f: Pick<MembershipFacts, "pauses" | "pauseDaysCredit">): number {
  return f.pauseDaysCredit - f.pauses.reduce((sum, p) => sum + pauseDays(p), 0);
}

/** The status card as it will read on `day`, for subscription facts after a change. */
export function cardOn(s: SubscriptionFacts & { pif_ends_at?: Date | null; current_period_start?: Date | null }, day: LocalDay, details: { nextCharge: NextCharge | null }): CardPreview {
  const at = new Date(startOfLocalDay(day).getTime() + 12 * 3_600_000);
  const state = subscriptionState(s, at);
  const colour = statusColour(s, at);
  const date = (d: Date | string | null | undefined) => (d ? formatDate(d) : "");
  const detail =
    state === "paused"
      ? `Paused until ${date(s.pause_end_at)}`
      : state === "cancelled"
        ? s.current_period_end && at < new Date(s.current_period_end)
          ? `Cancelled: access until ${date(s.current_period_end)}`
          : "Cancelled"
        : state === "grace_period"
          ? `A payment failed: access until ${date(s.grace_period_ends_at)}`
          : state === "upcoming"
            ? s.upcoming_state === "failed"
              ? "Stopped: a payment was not made"
              : `Starts ${date(s.current_period_start)}`
            : details.nextCharge
              ? `Next charge ${formatDay(details.nextCharge.day)}`
              : s.pif_ends_at
                ? `Paid in full until ${date(s.pif_ends_at)}`
                : "Active";
  return { label: STATE_LABELS[state], colour, detail };
}

/** The facts as the status card reads them (domain/subscription.ts), from these. */
export function cardFacts(f: MembershipFacts, pause: PauseFacts | null) {
  return {
    pause_start_at: pause ? startOfLocalDay(pause.start) : null,
    pause_end_at: pause ? startOfLocalDay(pause.end) : null,
    cancelled_at: f.cancelledAt,
    grace_period_ends_at: f.graceEndsAt,
    upcoming_state: f.upcomingState,
    current_period_end: f.paidUntil ? startOfLocalDay(f.paidUntil) : null,
    pif_ends_at: f.pifEndsAt ? startOfLocalDay(f.pifEndsAt) : null,
  };
}

/** The pause running on `day`, else the next one to come. */
export function currentOrNextPause(pauses: PauseFacts[], day: LocalDay): PauseFacts | null {
  return [...pauses].sort((a, b) => (a.start < b.start ? -1 : 1)).find((p) => p.end > day) ?? null;
}

const dayLabel = (d: LocalDay) => formatDay(d);

function refuse(f: MembershipFacts, action: string): Errors | null {
  if (f.frequency === "one_off") return { _: [`A paid-in-full membership cannot be ${action}`] };
  if (f.cancelledAt) return { _: [`A cancelled membership cannot be ${action}`] };
  if (f.cancelAt) return { _: [`A membership that is cancelling on ${dayLabel(f.cancelAt)} cannot be ${action}: withdraw the cancellation first`] };
  if (f.upcomingState) return { _: [f.upcomingState === "failed" ? `A membership stopped for an unpaid payment cannot be ${action}: settle it first` : `A membership that has not started cannot be ${action}`] };
  return null;
}

export interface PausePreview {
  days: number;
  creditRemainingBefore: number;
  creditRemainingAfter: number;
  nextChargeBefore: NextCharge | null;
  nextChargeAfter: NextCharge | null;
  /** The card on the pause's first day. */
  card: CardPreview;
}

/** Pausing from `start` (today or later) until `end`: no charge falls inside it, and every later one moves by its length. */
export function previewPause(f: MembershipFacts, pause: { start: LocalDay; end: LocalDay }, today: LocalDay): { errors: Errors } | { effect: PausePreview } {
  const refused = refuse(f, "paused");
  if (refused) return { errors: refused };
  const errors: Errors = {};
  if (pause.start < today) errors.start = ["The pause cannot start in the past"];
  else if (pause.start > addCalendarDays(today, MAX_DAYS_AHEAD)) errors.start = ["The pause must start within the next year"];
  if (pause.end <= pause.start) errors.end = ["The pause must end after it starts"];
  else if (daysBetween(pause.start, pause.end) > MAX_PAUSE_DAYS) errors.end = [`A pause is at most ${MAX_PAUSE_DAYS} days`];
  const clash = f.pauses.find((p) => p.end > pause.start && p.start < pause.end);
  if (clash && !errors.start && !errors.end) errors.start = [`It overlaps the pause from ${dayLabel(clash.start)} to ${dayLabel(clash.end)}: end or remove that one first`];
  if (Object.keys(errors).length) return { errors };
  const after = { ...f, pauses: [...f.pauses, pause] };
  const nextChargeAfter = nextCharge(after, today);
  return {
    effect: {
      days: daysBetween(pause.start, pause.end),
      creditRemainingBefore: pauseDaysRemaining(f),
      creditRemainingAfter: pauseDaysRemaining(after),
      nextChargeBefore: nextCharge(f, today),
      nextChargeAfter,
      card: cardOn(cardFacts(after, pause), pause.start, { nextCharge: nextChargeAfter }),
    },
  };
}

/** Ending a running pause on `end` (today or later, before it was to end), or a scheduled one before it starts. */
export function previewEndPause(f: MembershipFacts, pauseId: number, end: LocalDay, today: LocalDay): { errors: Errors } | { effect: PausePreview & { pause: PauseFacts } } {
  const pause = f.pauses.find((p) => p.id === pauseId);
  if (!pause) return { errors: { pause_id: ["No such pause"] } };
  if (pause.end <= today) return { errors: { pause_id: ["That pause is over already"] } };
  if (pause.start > today) return { errors: { pause_id: ["That pause has not started: remove it instead"] } };
  if (end < today) return { errors: { end: ["The pause cannot end in the past"] } };
  if (end >= pause.end) return { errors: { end: [`Choose a day before ${dayLabel(pause.end)}, when it ends anyway`] } };
  const ended = { ...pause, end: end > pause.start ? end : addCalendarDays(pause.start, 1) };
  const after = { ...f, pauses: f.pauses.map((p) => (p === pause ? ended : p)) };
  const nextChargeAfter = nextCharge(after, today);
  return {
    effect: {
      pause: ended,
      days: pauseDays(ended),
      creditRemainingBefore: pauseDaysRemaining(f),
      creditRemainingAfter: pauseDaysRemaining(after),
      nextChargeBefore: nextCharge(f, today),
      nextChargeAfter,
      card: cardOn(cardFacts(after, currentOrNextPause(after.pauses, end)), end, { nextCharge: nextChargeAfter }),
    },
  };
}

/** Removing a pause that has not started yet. */
export function previewRemovePause(f: MembershipFacts, pauseId: number, today: LocalDay): { errors: Errors } | { effect: PausePreview } {
  const pause = f.pauses.find((p) => p.id === pauseId);
  if (!pause) return { errors: { pause_id: ["No such pause"] } };
  if (pause.start <= today) return { errors: { pause_id: ["That pause has started: end it early instead"] } };
  const after = { ...f, pauses: f.pauses.filter((p) => p !== pause) };
  const nextChargeAfter = nextCharge(after, today);
  return {
    effect: {
      days: 0,
      creditRemainingBefore: pauseDaysRemaining(f),
      creditRemainingAfter: pauseDaysRemaining(after),
      nextChargeBefore: nextCharge(f, today),
      nextChargeAfter,
      card: cardOn(cardFacts(after, currentOrNextPause(after.pauses, today)), today, { nextCharge: nextChargeAfter }),
    },
  };
}

export interface CancelPreview {
  when: "period_end" | "now";
  /** The last day of access is the day before this. */
  accessEnds: LocalDay;
  /** Charged once when the cancellation is confirmed (a term cancelled after cooling-off). */
  breakFee: number;
  coolingOff: boolean;
  /** The paid days given up by cancelling now (no refund is made automatically). */
  unusedDays: number;
  nextChargeBefore: NextCharge | null;
  /** Until when the cancellation can be undone (null: it cannot). */
  undoUntil: LocalDay | null;
  card: CardPreview;
}

/**
 * Cancelling at the end of the paid period (the member keeps access until then; it can be undone until then), or
 * now (access ends today; final). A term membership cancelled after its cooling-off window pays the break fee
 * (domain/terms.ts); inside it, nothing.
 */
export function previewCancel(f: MembershipFacts, when: "period_end" | "now", today: LocalDay, breakFeePercentage: number | null): { errors: Errors } | { effect: CancelPreview } {
  if (f.cancelledAt) return { errors: { _: ["This membership is cancelled already"] } };
  if (f.frequency === "one_off" && when === "period_end" && !f.pifEndsAt) return { errors: { when: ["A paid-in-full membership without an end can only be cancelled now"] } };
  const paidEnd = f.frequency === "one_off" ? f.pifEndsAt : f.paidUntil;
  const accessEnds = when === "now" || !paidEnd || paidEnd < today ? today : paidEnd;
  const inTerm = !!f.termEndsAt && today < f.termEndsAt && !!f.anchor;
  const coolingOff = inTerm && !!f.coolingEndsAt && today < f.coolingEndsAt;
  const fee = inTerm ? breakFee({ amount: f.amount, frequency: f.frequency }, { anchor: f.anchor!, ends: f.termEndsAt!, coolingEnds: f.coolingEndsAt }, today, breakFeePercentage) : 0;
  const cancelledAt = startOfLocalDay(today);
  const after = cardFacts({ ...f, cancelledAt, paidUntil: accessEnds }, null);
  return {
    effect: {
      when,
      accessEnds,
      breakFee: fee,
      coolingOff,
      unusedDays: paidEnd && when === "now" && paidEnd > today ? daysBetween(today, paidEnd) : 0,
      nextChargeBefore: nextCharge(f, today),
      undoUntil: when === "period_end" && accessEnds > today ? accessEnds : null,
      card: cardOn({ ...after, current_period_end: startOfLocalDay(accessEnds) }, today, { nextCharge: null }),
    },
  };
}

export interface PriceChangePreview {
  takesEffect: LocalDay;
  fromAmount: number;
  toAmount: number;
  nextChargeBefore: NextCharge | null;
  nextChargeAfter: NextCharge | null;
  card: CardPreview;
}

/** Moving to another price from the end of the paid period, or from a day (tomorrow or later): periods from then on are charged the new amount. */
export function previewPriceChange(f: MembershipFacts, to: { amount: number; frequency: BillingFrequency }, from: LocalDay | null, today: LocalDay): { errors: Errors } | { effect: PriceChangePreview } {
  const refused = refuse(f, "moved to another price");
  if (refused) return { errors: refused };
  if (to.frequency !== f.frequency) return { errors: { price_id: [`Choose a ${f.frequency.replace("_", " ")} price: a change keeps the member's billing rhythm`] } };
  if (from !== null && from <= today) return { errors: { date: ["Choose a day from tomorrow"] } };
  if (from !== null && from > addCalendarDays(today, MAX_DAYS_AHEAD)) return { errors: { date: ["Choose a day within the next year"] } };
  const takesEffect = from ?? f.paidUntil ?? today;
  const after = { ...f, priceChange: { from: takesEffect, amount: to.amount } };
  const nextChargeAfter = nextCharge(after, today);
  return {
    effect: {
      takesEffect,
      fromAmount: f.amount,
      toAmount: to.amount,
      nextChargeBefore: nextCharge(f, today),
      nextChargeAfter,
      card: cardOn(cardFacts(after, currentOrNextPause(f.pauses, today)), today, { nextCharge: nextChargeAfter }),
    },
  };
}
