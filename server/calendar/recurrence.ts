import rrule from "rrule";
import { addCalendarDays, localInstant } from "../../domain/dates";

const { RRule } = rrule;

/**
 * Weekly rules for recurring schedules (issue 16), as iCalendar RRULEs through the rrule library. The rule is
 * expanded over calendar days only ("floating" dates at 00:00 UTC standing for Auckland days) and each day is then
 * given its wall-clock time in Auckland (localInstant): a 9:00 AM session is at 9:00 AM on both sides of a daylight
 * saving change, which expanding instants with a fixed offset would get wrong by an hour.
 */

/** SPEC §9: days are 1–7 from Monday; rrule's weekdays are 0–6 from Monday. */
export type IsoDay = 1 | 2 | 3 | 4 | 5 | 6 | 7;
const CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;

export interface WeeklyRule {
  days: IsoDay[];
  /** Ends after this many sessions (counted from the first day), or on this day (inclusive), or never. */
  count?: number | null;
  until?: string | null;
}

const floating = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** FREQ=WEEKLY;BYDAY=TU,TH[;COUNT=n|;UNTIL=yyyymmddT000000Z], the RRULE line stored with the series. */
export function toRrule(rule: WeeklyRule): string {
  const days = [...new Set(rule.days)].sort((a, b) => a - b).map((d) => CODES[d - 1]);
  const end = rule.count ? `;COUNT=${rule.count}` : rule.until ? `;UNTIL=${rule.until.replaceAll("-", "")}T000000Z` : "";
  return `FREQ=WEEKLY;BYDAY=${days.join(",")}${end}`;
}

/** The stored rule read back: its days, and its count or last day. */
export function fromRrule(text: string): WeeklyRule {
  const o = RRule.parseString(text);
  const days = (o.byweekday as { weekday: number }[] | undefined)?.map((w) => (w.weekday + 1) as IsoDay) ?? [];
  return { days: days.sort((a, b) => a - b), count: o.count ?? null, until: o.until ? dayOf(o.until) : null };
}

const ruleFrom = (text: string, startsOn: string) => new RRule({ ...RRule.parseString(text), dtstart: floating(startsOn) });

/** The days (yyyy-MM-dd) the rule falls on from `fromDay` to `toDay`, both inclusive. */
export function occurrenceDays(text: string, startsOn: string, fromDay: string, toDay: string): string[] {
  if (toDay < fromDay) return [];
  return ruleFrom(text, startsOn).between(floating(fromDay), floating(toDay), true).map(dayOf);
}

/** The first day the rule falls on, or null when it never does (a count of sessions on days that never come). */
export function firstDay(text: string, startsOn: string): string | null {
  const first = ruleFrom(text, startsOn).after(floating(startsOn), true);
  return first ? dayOf(first) : null;
}

/** The last day the rule falls on, or null when it goes on for ever. */
export function lastDay(text: string, startsOn: string): string | null {
  const rule = fromRrule(text);
  if (!rule.count && !rule.until) return null;
  const all = ruleFrom(text, startsOn).all();
  return all.length ? dayOf(all[all.length - 1]) : startsOn;
}

/** How many sessions the rule has before `day` (to turn a counted series into one that ends the day before). */
export const countBefore = (text: string, startsOn: string, day: string) => (day <= startsOn ? 0 : occurrenceDays(text, startsOn, startsOn, addCalendarDays(day, -1)).length);

/** An occurrence's start and end instants: its day at the series' Auckland wall-clock time. */
export function occurrenceTimes(day: string, startTime: string, durationMinutes: number) {
  const starts_at = localInstant(day, startTime);
  return { starts_at, ends_at: new Date(starts_at.getTime() + durationMinutes * 60_000) };
}

const NAMES = ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"];
/** "Tuesdays and Thursdays", "Mondays, Wednesdays and Fridays", "Every day". */
export function describeDays(days: IsoDay[]): string {
  if (days.length === 7) return "Every day";
  const names = [...days].sort((a, b) => a - b).map((d) => NAMES[d - 1]);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : (names[0] ?? "");
}
