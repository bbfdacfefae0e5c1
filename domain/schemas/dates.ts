import { z } from "zod";
import { MSG } from "./messages";

/**
 * The product's one rule for a day (decision 0046): written yyyy-MM-dd, a real calendar day (no 29 February in a
 * year without one, no 31 April), and within 1900–2200. Outside that range no date means anything to a gym, and
 * the database and the Auckland clock arithmetic refuse or overflow (year 9999 plus a week is year 10000), which
 * answered 500s. Every schema that reads a day, every page that reads one from its address, uses this.
 */
export const EARLIEST_DAY = "1900-01-01";
export const LATEST_DAY = "2200-12-31";

const DATETIME = z.string().datetime({ offset: true });
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day yyyy-MM-dd between `from` and `to` (the product's range unless narrower). */
export function isCalendarDay(v: unknown, from = EARLIEST_DAY, to = LATEST_DAY): v is string {
  if (typeof v !== "string") return false;
  const m = SHAPE.exec(v);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day && v >= from && v <= to;
}

/**
 * A day a form or a query sends (trimmed; blank is `required`, "Value is required" unless told), with the field's
 * own message when it is not one. A field that words a wrong shape apart from a day that does not exist pipes a
 * regex of its own into this (see DAY_SHAPE).
 */
export const calendarDay = (message: string, opts: { from?: string; to?: string; required?: string } = {}) =>
  z
    .string({ required_error: opts.required ?? MSG.required, invalid_type_error: message })
    .trim()
    .min(1, opts.required ?? MSG.required)
    .refine((v) => isCalendarDay(v, opts.from, opts.to), message);

/** yyyy-MM-dd, the shape alone: for a field whose message for "not written as a date" differs from "not a real day". */
export const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** An instant with its offset (2026-12-02T10:00:00+13:00), on a day within the product's range. */
export const instant = (message = "Enter a date and time") =>
  z
    .string({ required_error: MSG.required, invalid_type_error: MSG.required })
    .min(1, MSG.required)
    .refine((v) => DATETIME.safeParse(v).success && isCalendarDay(v.slice(0, 10)), message)
    .transform((v) => new Date(v));
