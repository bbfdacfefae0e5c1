import { Hono, type Context } from "hono";
import { formatLocal, formatTime } from "../../../domain/dates";
import { appointmentChange, appointmentRequest, appointmentsQuery } from "../../../domain/schemas/calendar";
import { bookAppointment, cancelAppointment, changeAppointment, findAppointment, listAppointments } from "../../calendar/appointments";
import { appointmentMail } from "../../mail/templates";
import { pathId, readBody, readQuery } from "../body";
import type { ApiEnv } from "../context";
import { calendarAndMessaging } from "../guards";
import { now, requireStaff } from "../middleware";

/**
 * The calendar's appointments (issue 16; a first slice: one-off appointments). Gated by the organisation, like
 * messaging: without calendar and messaging these calls do not exist (404). Rules: server/calendar/appointments.ts.
 */
const calendarOn = calendarAndMessaging;
const staff = [requireStaff, calendarOn] as const;
const when = (d: Date | string) => `${formatLocal(d, "EEEE d MMMM")} at ${formatTime(d)}`;

/** The member is told after the change is committed. */
function tell(c: Context<ApiEnv>, kind: "booked" | "moved" | "cancelled", a: { starts_at: Date | string; gym: string; trainer: { name: string }; member: { email: string; name: string } }, was?: Date | string) {
  const mail = appointmentMail(kind, a.member.email, a.member.name, { trainer: a.trainer.name, gym: a.gym, when: when(a.starts_at), was: was ? when(was) : undefined });
  c.var.afterCommit(() => c.var.deps.mailer.send(mail));
}

export const calendarRoutes = new Hono<ApiEnv>()
  /** GET /api/appointments?from=&to=&trainer_id=: the week (or day) asked for, the ones this user may see. */
  .get("/appointments", ...staff, async (c) => c.json({ data: { data: await listAppointments(c.var.tenant, c.var.user!, readQuery(c, appointmentsQuery)) } }))
  .get("/appointments/:id{[0-9]+}", ...staff, async (c) => c.json({ data: await findAppointment(c.var.tenant, c.var.user!, pathId(c, "No such appointment.")) }))
  /** POST /api/appointments { trainer_id, member_id, gym_id?, starts_at, ends_at, notes? } */
  .post("/appointments", ...staff, async (c) => {
    const made = await bookAppointment(c.var.tenant, c.var.user!, await readBody(c, appointmentRequest), now(c));
    tell(c, "booked", made);
    return c.json({ data: made }, 201);
  })
  /** PUT /api/appointments/{id} { starts_at, ends_at, notes? }: moved or resized. */
  .put("/appointments/:id{[0-9]+}", ...staff, async (c) => {
    const { before, after } = await changeAppointment(c.var.tenant, c.var.user!, pathId(c, "No such appointment."), await readBody(c, appointmentChange), now(c));
    if (String(before.starts_at) !== String(after.starts_at)) tell(c, "moved", after, before.starts_at);
    return c.json({ data: after });
  })
  .delete("/appointments/:id{[0-9]+}", ...staff, async (c) => {
    const was = await cancelAppointment(c.var.tenant, c.var.user!, pathId(c, "No such appointment."), now(c));
    if (!was.cancelled_at) tell(c, "cancelled", was);
    return c.json({ data: { cancelled: true } });
  });
