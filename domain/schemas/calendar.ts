import { z } from "zod";
import { optional } from "./fields";
import { MSG } from "./messages";

/** Personal-training appointments (issue 16): instants with their offset (the pages send Pacific/Auckland times). */
export const MAX_APPOINTMENT_HOURS = 12;
const id = (message: string) => z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v === "" ? undefined : v), z.number({ required_error: MSG.required, invalid_type_error: message }).int().positive(message));
const instant = z.string({ required_error: MSG.required, invalid_type_error: MSG.required }).min(1, MSG.required).datetime({ offset: true, message: "Enter a date and time" }).transform((v) => new Date(v));

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
