import { z } from "zod";
import { addCalendarDays } from "../dates";
import { optional } from "./fields";
import { calendarDay, DAY_SHAPE, isCalendarDay } from "./dates";
import { databaseId } from "./ids";

const day = (what: string) =>
  z
    .string({ required_error: `Enter the ${what}` })
    .regex(DAY_SHAPE, `Enter the ${what} as yyyy-mm-dd`)
    .pipe(calendarDay(`Enter a real ${what}`));

/** The longest range the expected-payments check looks at in one go: a quarter. */
export const EXPECTED_PAYMENTS_MAX_DAYS = 92;

/** GET /api/expected-payments-debugging?from=&to=&gym=&page=&mismatches=1 */
export const expectedPaymentsQuery = z
  .object({
    from: day("start date"),
    to: day("end date"),
    gym: optional(databaseId("Choose a gym from the list")),
    mismatches: optional(z.enum(["1", "0"]).transform((v) => v === "1")),
    page: optional(z.coerce.number({ invalid_type_error: "Page must be a number" }).int().min(1, "Page must be 1 or more").max(100_000)),
  })
  .refine((q) => q.from <= q.to, { message: "The end date must be on or after the start date", path: ["to"] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < EXPECTED_PAYMENTS_MAX_DAYS, {
    message: `Look at ${EXPECTED_PAYMENTS_MAX_DAYS} days or fewer at a time`,
    path: ["to"],
  });

/**
 * SPEC §7 lists GET /api/expected-payments-debugging with no query: a day not given (or left blank) is filled in
 * (decision 0040). Nothing given: the last four weeks up to today in Auckland, as /expected-payments-debugging
 * shows. Only the start: four weeks from it, never past today (or the start itself, when it is later). Only the
 * end: the four weeks up to it. A day given but malformed is not filled in: it is the field's 422.
 */
export const EXPECTED_PAYMENTS_DEFAULT_DAYS = 28;
const isDay = (v: unknown): v is string => isCalendarDay(v);

export function withDefaultDays(raw: unknown, today: string): unknown {
  if (typeof raw !== "object" || raw === null) return raw;
  const q = { ...(raw as Record<string, unknown>) };
  const blank = (v: unknown) => v === undefined || v === "";
  const span = EXPECTED_PAYMENTS_DEFAULT_DAYS - 1;
  if (blank(q.from) && blank(q.to)) return { ...q, from: addCalendarDays(today, -span), to: today };
  if (blank(q.to)) {
    const from = q.from;
    if (!isDay(from)) return { ...q, to: today };
    const end = addCalendarDays(from, span);
    return { ...q, to: end < today ? end : from > today ? from : today };
  }
  if (blank(q.from)) return { ...q, from: isDay(q.to) ? addCalendarDays(q.to, -span) : addCalendarDays(today, -span) };
  return q;
}

/** The query with its days filled in as of `today` (Auckland). */
export const expectedPaymentsQueryOn = (today: string) => z.preprocess((raw) => withDefaultDays(raw, today), expectedPaymentsQuery);

/** GET /api/active-user-debugging?member=&day= */
export const activeUserQuery = z.object({
  member: databaseId("Choose a member"),
  day: day("day"),
});
