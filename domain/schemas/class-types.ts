import { z } from "zod";
import { calendarDay, instant as dateTime } from "./dates";
import { optional } from "./fields";
import { MSG } from "./messages";
import { money } from "./offerings";
import { CALENDAR_COLOURS, type CalendarColour } from "../staff";

/**
 * Group classes, the staff's side (issue 34, decision 0065 "Staff"): class types, the timetable per gym, one class
 * changed or cancelled, and the organisation's booking rules. Forms send strings; JSON may send numbers.
 */
const numeric = (v: unknown) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v === "" || v === null ? undefined : v);
const whole = (min: number, max: number, what = "a whole number") =>
  z.preprocess(
    numeric,
    z
      .number({ required_error: MSG.required, invalid_type_error: `Enter ${what}` })
      .int(`Enter ${what}`)
      .min(min, `The minimum value allowed is ${min}`)
      .max(max, MSG.max(max)),
  );
const id = (message: string) => z.preprocess(numeric, z.number({ required_error: message, invalid_type_error: message }).int().positive(message));
const ids = (message: string) =>
  z
    .preprocess((v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]), z.array(id(message)).max(500))
    .transform((a) => [...new Set(a)]);
const text = (max: number) => z.string({ required_error: MSG.required, invalid_type_error: MSG.required }).trim().min(1, MSG.required).max(max, MSG.max(max));

export const MAX_CLASS_MINUTES = 600;
export const MAX_CLASS_PLACES = 500;
export const DEFAULT_CLASS_COLOUR = "#2563eb";

/** POST /api/class-types and PUT /api/class-types/{id}. A drop-in price in cents (null: members whose membership includes it only). */
export const classTypeRequest = z.object({
  name: text(100),
  description: optional(z.string().trim().max(2000, MSG.max(2000))),
  duration_minutes: whole(5, MAX_CLASS_MINUTES, "the length in whole minutes"),
  default_capacity: whole(1, MAX_CLASS_PLACES),
  default_waitlist: optional(whole(0, MAX_CLASS_PLACES)).transform((v) => v ?? 0),
  /** One of the calendar's colours (domain/staff.ts), by name or its #rrggbb: pages draw them with classes, not inline styles (CSP). */
  colour: optional(
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => v in CALENDAR_COLOURS || Object.values(CALENDAR_COLOURS).includes(v as never), "Choose one of the colours"),
  ).transform((v) => (v ? CALENDAR_COLOURS[v as CalendarColour] ?? v : DEFAULT_CLASS_COLOUR)),
  drop_in_amount: optional(money("cents").pipe(z.number().min(1, "Enter an amount above zero, or leave it empty"))).transform((v) => v ?? null),
  /** Offerings every price of which includes the class, and single prices that include it. */
  offering_ids: ids("Choose offerings from the list"),
  price_ids: ids("Choose prices from the list"),
});
export type ClassTypeInput = z.output<typeof classTypeRequest>;

export const classTypesQuery = z.object({ archived: optional(z.enum(["0", "1"])) });

const day = (message = "Enter a date") => calendarDay(message);
const clock = z
  .string({ required_error: MSG.required, invalid_type_error: "Enter a time" })
  .min(1, MSG.required)
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Enter a time");
const weekdays = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : (Array.isArray(v) ? v : [v]).map((d) => (typeof d === "string" && /^\d$/.test(d) ? Number(d) : d))),
  z.array(
    z
      .number({ invalid_type_error: "Choose days from Monday (1) to Sunday (7)" })
      .int()
      .min(1, "Choose days from Monday (1) to Sunday (7)")
      .max(7, "Choose days from Monday (1) to Sunday (7)"),
  ),
);

/** What a class on the timetable is: when (a start time and length), who runs it, where, and how many places. */
const slot = z.object({
  start_time: clock,
  /** Minutes; the class type's length when absent. */
  duration_minutes: optional(whole(5, MAX_CLASS_MINUTES, "the length in whole minutes")),
  trainer_id: id("Choose a trainer"),
  room: optional(z.string().trim().max(100, MSG.max(100))),
  /** The class type's places and waitlist when absent. */
  capacity: optional(whole(1, MAX_CLASS_PLACES)),
  waitlist_size: optional(whole(0, MAX_CLASS_PLACES)),
});

const repeat = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  z.enum(["once", "weekly"], { errorMap: () => ({ message: "Choose once or weekly" }) }).default("weekly"),
);
function weeklyRules(v: { repeat: "once" | "weekly"; days: number[]; until?: string }, ctx: z.RefinementCtx, start: string) {
  if (v.repeat === "weekly" && !v.days.length) ctx.addIssue({ code: "custom", path: ["days"], message: "Choose at least one day" });
  if (v.repeat === "weekly" && v.until && start && v.until < start)
    ctx.addIssue({ code: "custom", path: ["until"], message: "Choose an end date on or after the start" });
}

/** POST /api/class-schedules: once on `starts_on`, or weekly on `days` (1–7 from Monday) from `starts_on`, until a day or for good. */
export const classScheduleRequest = slot
  .extend({
    gym_id: id("Choose a gym from the list"),
    class_type_id: id("Choose a class type"),
    repeat,
    days: weekdays,
    starts_on: day(),
    until: optional(day()),
  })
  .superRefine((v, ctx) => weeklyRules(v, ctx, v.starts_on));
export type ClassScheduleInput = z.output<typeof classScheduleRequest>;

/** PUT /api/class-schedules/{id}: a weekly class from `from` on (the classes before stay as they were). */
export const classScheduleChange = slot.extend({ from: day(), days: weekdays, until: optional(day()) }).superRefine((v, ctx) => {
  if (!v.days.length) ctx.addIssue({ code: "custom", path: ["days"], message: "Choose at least one day" });
  if (v.until && v.until < v.from) ctx.addIssue({ code: "custom", path: ["until"], message: "Choose an end date on or after the change" });
});
export type ClassScheduleChange = z.output<typeof classScheduleChange>;

/** DELETE /api/class-schedules/{id}?from=: no classes from that day (today when absent). */
export const classScheduleEnd = z.object({ from: optional(day()), reason: optional(z.string().trim().max(500, MSG.max(500))) });
export const classSchedulesQuery = z.object({ gym_id: optional(id("Choose a gym from the list")), ended: optional(z.enum(["0", "1"])) });

const instant = dateTime();
/** PUT /api/classes/{id}: one class moved, given another trainer or room, or its places changed. */
export const classChange = z
  .object({
    starts_at: instant,
    ends_at: instant,
    trainer_id: id("Choose a trainer"),
    room: optional(z.string().trim().max(100, MSG.max(100))),
    capacity: whole(1, MAX_CLASS_PLACES),
    waitlist_size: whole(0, MAX_CLASS_PLACES),
  })
  .superRefine((v, ctx) => {
    if (v.ends_at <= v.starts_at) ctx.addIssue({ code: "custom", path: ["ends_at"], message: "Choose an end after the start" });
    else if (v.ends_at.getTime() - v.starts_at.getTime() > MAX_CLASS_MINUTES * 60_000)
      ctx.addIssue({ code: "custom", path: ["ends_at"], message: `A class can be at most ${MAX_CLASS_MINUTES / 60} hours` });
  });
export type ClassChange = z.output<typeof classChange>;

/** DELETE /api/classes/{id}?reason=: that one class cancelled. */
export const classCancel = z.object({ reason: optional(z.string().trim().max(500, MSG.max(500))) });

/** GET /api/classes?gym_id=&from=&to=: at most six weeks. */
export const classesQuery = z
  .object({
    from: instant,
    to: instant,
    gym_id: optional(id("Choose a gym from the list")),
    trainer_id: optional(id("Choose a trainer")),
    cancelled: optional(z.enum(["0", "1"])),
  })
  .refine((q) => q.to > q.from && q.to.getTime() - q.from.getTime() <= 42 * 86_400_000, { path: ["to"], message: "Ask for at most six weeks at a time" });

/** PUT /api/organisations/{id}/class-booking-rules. */
export const classBookingRulesRequest = z.object({
  class_booking_window_days: whole(0, 365, "a whole number of days"),
  class_cancel_cutoff_minutes: whole(0, 10_080, "a whole number of minutes"),
  class_max_bookings: whole(1, 100),
});
export type ClassBookingRules = z.output<typeof classBookingRulesRequest>;
