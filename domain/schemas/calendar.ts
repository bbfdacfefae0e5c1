import { z } from "zod";
import { calendarDay, instant as dateTime } from "./dates";
import { optional } from "./fields";
import { MSG } from "./messages";

/** Personal-training appointments (issue 16): instants with their offset (the pages send Pacific/Auckland times). */
export const MAX_APPOINTMENT_HOURS = 12;
const id = (message: string) => z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v === "" ? undefined : v), z.number({ required_error: MSG.required, invalid_type_error: message }).int().positive(message));
const instant = dateTime();

const times = z.object({ starts_at: instant, ends_at: instant, notes: optional(z.string().trim().max(1000, MSG.max(1000))) });
function ordered(v: { starts_at: Date; ends_at: Date }, ctx: z.RefinementCtx) {
  if (v.ends_at <= v.starts_at) ctx.addIssue({ code: "custom", path: ["ends_at"], message: "Choose an end after the start" });
  else if (v.ends_at.getTime() - v.starts_at.getTime() > MAX_APPOINTMENT_HOURS * 3600_000) ctx.addIssue({ code: "custom", path: ["ends_at"], message: `An appointment can be at most ${MAX_APPOINTMENT_HOURS} hours` });
}

/** POST /api/appointments. */
export const appointmentRequest = times
  .extend({ trainer_id: id("Choose a trainer"), member_id: id("Choose a member"), gym_id: optional(id("Choose a gym from the list")) })
  .superRefine(ordered);
export type AppointmentInput = z.output<typeof appointmentRequest>;

/** PUT /api/appointments/{id}: moved, resized, or its notes changed (the trainer and member stay). */
export const appointmentChange = times.superRefine(ordered);
export type AppointmentChange = z.output<typeof appointmentChange>;

export const appointmentsQuery = z
  .object({ from: instant, to: instant, trainer_id: optional(id("Choose a trainer")) })
  .refine((q) => q.to > q.from && q.to.getTime() - q.from.getTime() <= 42 * 86_400_000, { path: ["to"], message: "Ask for at most six weeks at a time" });

/** Recurring schedules (issue 16): weekly on chosen days (1–7 from Monday, SPEC §9), Auckland wall-clock times. */
export const MAX_SERIES_COUNT = 200;
const day = (message = "Enter a date") => calendarDay(message);
const clock = z.string({ required_error: MSG.required, invalid_type_error: "Enter a time" }).min(1, MSG.required).regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Enter a time");
/** A form's checkboxes (one value or several) or a JSON array. */
const weekdays = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : (Array.isArray(v) ? v : [v]).map((d) => (typeof d === "string" && /^\d$/.test(d) ? Number(d) : d))),
  z.array(z.number({ invalid_type_error: "Choose days from Monday (1) to Sunday (7)" }).int().min(1, "Choose days from Monday (1) to Sunday (7)").max(7, "Choose days from Monday (1) to Sunday (7)")).min(1, "Choose at least one day"),
);
const count = z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), z.number({ invalid_type_error: "Enter a whole number of sessions" }).int("Enter a whole number of sessions").min(1, "Enter at least 1 session").max(MAX_SERIES_COUNT, `At most ${MAX_SERIES_COUNT} sessions`));

const pattern = z.object({
  days: weekdays,
  start_time: clock,
  end_time: clock,
  until: optional(day()),
  count: optional(count),
  notes: optional(z.string().trim().max(1000, MSG.max(1000))),
});
function patternRules(v: { start_time: string; end_time: string; until?: string; count?: number }, ctx: z.RefinementCtx, startField: "starts_on" | "from", start: string) {
  if (v.end_time <= v.start_time) ctx.addIssue({ code: "custom", path: ["end_time"], message: "Choose an end after the start" });
  if (v.until && v.count) ctx.addIssue({ code: "custom", path: ["until"], message: "Choose an end date or a number of sessions, not both" });
  else if (v.until && start && v.until < start) ctx.addIssue({ code: "custom", path: ["until"], message: `Choose an end date on or after the ${startField === "from" ? "change" : "start"}` });
}

/** POST /api/recurring-schedules. */
export const seriesRequest = pattern
  .extend({ trainer_id: id("Choose a trainer"), member_id: id("Choose a member"), gym_id: optional(id("Choose a gym from the list")), starts_on: day() })
  .superRefine((v, ctx) => patternRules(v, ctx, "starts_on", v.starts_on));
export type SeriesInput = z.output<typeof seriesRequest>;

/** PUT /api/recurring-schedules/{id}: the series from `from` on (the past stays as it was). */
export const seriesChange = pattern.extend({ from: day() }).superRefine((v, ctx) => patternRules(v, ctx, "from", v.from));
export type SeriesChange = z.output<typeof seriesChange>;

/** DELETE /api/recurring-schedules/{id}?from=: the series ends before this day (today when absent). */
export const seriesEnd = z.object({ from: optional(day()) });

export const seriesQuery = z.object({ trainer_id: optional(id("Choose a trainer")), member_id: optional(id("Choose a member")), ended: optional(z.enum(["0", "1"])) });
