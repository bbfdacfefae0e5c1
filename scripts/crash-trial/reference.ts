/**
 * What the crash trial's members should have been charged (decision 0043), worked out apart from the engine: no
 * import from server/billing or domain/ (not its dates, business days, schedule or retry rule). It is a plain
 * day-by-day walk of the written rules (decisions 0013, 0041) for the trial's one shape of member, from tables:
 *
 * - weekly, periods from FIRST_DAY (a Monday) every 7 days, each charged on its first day at the 10 am run;
 * - how each rail answers (ANSWER_DAY): a card in the same run; a bank payment (Akahu) at the next day's run; a
 *   direct debit (GoCardless, BECS NZ) is charged two business days after it is made (made by 5 pm on a business
 *   day), fails the business day after its charge date, and is confirmed (paid) three business days after it, each
 *   seen by that day's run; business days are Monday to Friday less the public holidays in HOLIDAYS;
 * - how each member's bank answers (OUTCOMES): pays; short of funds (a soft decline, every time); gone (a hard one);
 * - the amount (AMOUNTS): the price, and on a card the gym's surcharge, written out in cents;
 * - the organisation's grace period (GRACE_DAYS): the first failure the run learns of starts it; access stops when
 *   it ends, at the start of that day, before anything is planned or charged that day; paid up, it ends;
 * - retries of a soft decline 1, 3, 5 and 7 days after the period's first failure, made only before access stops,
 *   with the last day of access taking the last try the cut drops; a try is made at the first run on or after its
 *   day once the run has heard the try before it failed (an answer heard while that run charges counts: the try is
 *   made in the same run); a hard decline is not retried; nothing is tried after access stopped.
 */

export type Rail = "card" | "direct_debit" | "bank";
export type Outcome = "pays" | "short" | "gone";

export interface ExpectedPeriod {
  start: string;
  attempts: { day: string; amount: number }[];
  outcome: "paid" | "failed" | "open";
}

export interface ExpectedMember {
  /** The day access stops (grace end); null when it never does within the trial. */
  stopDay: string | null;
  periods: ExpectedPeriod[];
}

/** New Zealand public holidays the trial's days can meet (the trial refuses days past the table). */
export const HOLIDAYS = ["2026-02-06", "2026-04-03", "2026-04-06", "2026-04-27"];
export const LAST_DAY_KNOWN = "2026-04-30";

/** Cents charged for a price of `price` on each rail: card surcharge 1.5 % (rounded half up) + 30 c. */
export const AMOUNTS: Record<number, Record<Rail, number>> = {
  2_000: { card: 2_060, direct_debit: 2_000, bank: 2_000 },
  1_750: { card: 1_806, direct_debit: 1_750, bank: 1_750 },
};

export const GRACE_DAYS = 7;
const RETRY_AFTER = [1, 3, 5, 7];

const day = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
const business = (d: string) => weekday(d) !== 0 && weekday(d) !== 6 && !HOLIDAYS.includes(d);
/** The nth business day after d (d itself moved on to a business day first). */
const businessAfter = (d: string, n: number) => {
  let x = d;
  while (!business(x)) x = day(x, 1);
  for (let i = 0; i < n; i++) {
    x = day(x, 1);
    while (!business(x)) x = day(x, 1);
  }
  return x;
};

/** The run that first sees the answer to a try made at the 10 am run of `made`. */
export function answerDay(rail: Rail, made: string, paid: boolean): string {
  if (rail === "card") return made;
  if (rail === "bank") return day(made, 1);
  const chargeDate = businessAfter(made, 2);
  return businessAfter(chargeDate, paid ? 3 : 1);
}

/** The retry days of a period first failing on `firstFailed`, while access lasts (stop: the day it stops). */
export function retryDays(firstFailed: string, stop: string | null): string[] {
  const all = RETRY_AFTER.map((n) => day(firstFailed, n));
  if (!stop) return all;
  const kept = all.filter((d) => d < stop);
  const lastOfAccess = day(stop, -1);
  if (kept.length < all.length && lastOfAccess > firstFailed && lastOfAccess > (kept.at(-1) ?? firstFailed)) kept.push(lastOfAccess);
  return kept;
}

export function expectedMember(rail: Rail, outcome: Outcome, price: number, firstDay: string, lastDay: string): ExpectedMember {
  if (lastDay > LAST_DAY_KNOWN) throw new Error(`the reference knows holidays only to ${LAST_DAY_KNOWN}`);
  const amount = AMOUNTS[price][rail];
  interface Try {
    day: string;
    answered: string;
    paid: boolean;
  }
  const periods: { start: string; tries: Try[]; firstFailed: string | null }[] = [];
  let stop: string | null = null;
  let lapsed = false;
  const make = (d: string): Try => {
    const paid = outcome === "pays";
    return { day: d, answered: answerDay(rail, d, paid), paid };
  };
  for (let d = firstDay; d <= lastDay; d = day(d, 1)) {
    // 1. Access that stops today stops before anything else.
    if (stop && d >= stop) lapsed = true;
    // Retries whose day has come and whose try before has failed, as far as the run has heard (`seen`: before today's
    // charging, the answers of earlier days; after it, today's too).
    const retry = (seen: (answered: string) => boolean) => {
      for (const p of periods) {
        const last = p.tries.at(-1)!;
        if (last.day === d || last.paid || !seen(last.answered) || outcome !== "short" || !p.firstFailed) continue;
        const next = retryDays(p.firstFailed, stop)[p.tries.length - 1];
        if (next && next <= d) p.tries.push(make(d));
      }
    };
    // 2. Planning: today's period, then the retries due.
    if (!lapsed) {
      if ((Date.parse(d) - Date.parse(firstDay)) % (7 * 86_400_000) === 0) periods.push({ start: d, tries: [make(d)], firstFailed: null });
      retry((answered) => answered < d);
    }
    // 3. Charging: the answers seen today. A failure starts the grace period (one running is not moved); paid up, it ends.
    for (const p of periods) {
      const t = p.tries.at(-1)!;
      if (t.answered !== d) continue;
      if (!t.paid) {
        p.firstFailed ??= d;
        if (!stop && !lapsed) stop = day(d, GRACE_DAYS);
      }
    }
    if (!lapsed && stop && periods.every((p) => p.tries.at(-1)!.paid)) stop = null;
    // A retry the answers heard while charging made due today is made in the same run (decision 0043).
    if (!lapsed) retry((answered) => answered <= d);
  }
  return {
    stopDay: stop,
    periods: periods.map((p) => {
      const last = p.tries.at(-1)!;
      return {
        start: p.start,
        attempts: p.tries.map((t) => ({ day: t.day, amount })),
        outcome: last.answered > lastDay ? "open" : last.paid ? "paid" : "failed",
      };
    }),
  };
}
