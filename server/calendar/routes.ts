import { Hono } from "hono";
import { isCalendarDay } from "../../domain/schemas/dates";
import { formatLocal, localDay, startOfLocalDay } from "../../domain/dates";
import { appointmentChange, appointmentRequest, appointmentsQuery, seriesChange, seriesEnd, seriesQuery, seriesRequest } from "../../domain/schemas/calendar";
import { bookAppointment, cancelAppointment, changeAppointment, findAppointment, listAppointments } from "./appointments";
import { cancelOccurrence, changeSeries, createSeries, endSeries, findSeries, listSeries, moveOccurrence, nextSessions, present, sentence } from "./series";
import { assertMemberHere } from "./rules";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { notFound } from "../core/errors";
import { calendarCan } from "../core/guards";
import { now, requireStaff } from "../core/middleware";
import { tellAppointment, tellSeries } from "./tell";

/**
 * The calendar (issue 16): appointments, recurring schedules and their single sessions. Gated by the organisation,
 * like messaging: without calendar and messaging these calls do not exist (404). Rules: server/calendar/.
 */
const read = [requireStaff, calendarCan("calendar.read")] as const;
const write = [requireStaff, calendarCan("calendar.write")] as const;
const dayOf = (c: { req: { param: (k: string) => string | undefined } }) => {
  const day = c.req.param("day") ?? "";
  if (!isCalendarDay(day)) throw notFound("No session of this recurring schedule on that day.");
  return day;
};
const longDay = (day: string) => formatLocal(startOfLocalDay(day), "EEEE d MMMM");

export const calendarRoutes = new Hono<ApiEnv>()
  /** GET /api/appointments?from=&to=&trainer_id=: the week (or day) asked for, the ones this user may see, with the recurring sessions. */
  .get("/appointments", ...read, async (c) => c.json({ data: { data: await listAppointments(c.var.tenant, c.var.user!, readQuery(c, appointmentsQuery)) } }))
  .get("/appointments/:id{[0-9]+}", ...read, async (c) => c.json({ data: await findAppointment(c.var.tenant, c.var.user!, pathId(c, "No such appointment.")) }))
  /** POST /api/appointments { trainer_id, member_id, gym_id?, starts_at, ends_at, notes? } */
  .post("/appointments", ...write, async (c) => {
    const made = await bookAppointment(c.var.tenant, c.var.user!, await readBody(c, appointmentRequest), now(c));
    tellAppointment(c, "booked", made, `a${made.id}`);
    return c.json({ data: made }, 201);
  })
  /** PUT /api/appointments/{id} { starts_at, ends_at, notes? }: moved or resized. */
  .put("/appointments/:id{[0-9]+}", ...write, async (c) => {
    const { before, after } = await changeAppointment(c.var.tenant, c.var.user!, pathId(c, "No such appointment."), await readBody(c, appointmentChange), now(c));
    if (before.starts_at.getTime() !== after.starts_at.getTime()) tellAppointment(c, "moved", after, `a${after.id}`, before.starts_at);
    return c.json({ data: after });
  })
  .delete("/appointments/:id{[0-9]+}", ...write, async (c) => {
    const was = await cancelAppointment(c.var.tenant, c.var.user!, pathId(c, "No such appointment."), now(c));
    if (!was.cancelled_at) tellAppointment(c, "cancelled", was, `a${was.id}`);
    return c.json({ data: { cancelled: true } });
  })

  /** GET /api/recurring-schedules?trainer_id=&member_id=&ended=1: the live ones (ended too with ended=1), each with its next sessions. */
  .get("/recurring-schedules", ...read, async (c) => {
    const list = await listSeries(c.var.tenant, c.var.user!, readQuery(c, seriesQuery), localDay(now(c)));
    const next = await nextSessions(c.var.tenant, c.var.user!, list.map((s) => s.id), now(c));
    return c.json({ data: { data: list.map((s) => ({ ...s, next_sessions: next.get(s.id) ?? [] })) } });
  })
  /** POST /api/recurring-schedules { trainer_id, member_id, gym_id?, days: [1–7], start_time, end_time, starts_on, until? | count?, notes? } */
  .post("/recurring-schedules", ...write, async (c) => {
    const made = await createSeries(c.var.tenant, c.var.user!, await readBody(c, seriesRequest), now(c));
    tellSeries(c, "booked", made, sentence(made), longDay(made.starts_on));
    return c.json({ data: made }, 201);
  })
  .get("/recurring-schedules/:id{[0-9]+}", ...read, async (c) => {
    const s = present(await findSeries(c.var.tenant, c.var.user!, pathId(c, "No such recurring schedule.")), localDay(now(c)));
    const next = await nextSessions(c.var.tenant, c.var.user!, [s.id], now(c));
    return c.json({ data: { ...s, next_sessions: next.get(s.id) ?? [] } });
  })
  /** PUT /api/recurring-schedules/{id} { from, days, start_time, end_time, until? | count?, notes? }: the series from that day on. */
  .put("/recurring-schedules/:id{[0-9]+}", ...write, async (c) => {
    const input = await readBody(c, seriesChange);
    const { after } = await changeSeries(c.var.tenant, c.var.user!, pathId(c, "No such recurring schedule."), input, now(c));
    tellSeries(c, "changed", after, sentence(after), longDay(after.starts_on));
    return c.json({ data: after });
  })
  /** DELETE /api/recurring-schedules/{id}?from=yyyy-mm-dd: no sessions from that day (today when absent). */
  .delete("/recurring-schedules/:id{[0-9]+}", ...write, async (c) => {
    const { from } = readQuery(c, seriesEnd);
    const ended = await endSeries(c.var.tenant, c.var.user!, pathId(c, "No such recurring schedule."), from, now(c));
    if (ended.ended) tellSeries(c, "ended", ended.series, present(ended.series, ended.from).summary, longDay(ended.from));
    return c.json({ data: { ended: true, from: ended.from } });
  })
  /** PUT /api/recurring-schedules/{id}/occurrences/{yyyy-mm-dd} { starts_at, ends_at, notes? }: that one session moved. */
  .put("/recurring-schedules/:id{[0-9]+}/occurrences/:day", ...write, async (c) => {
    const day = dayOf(c);
    const moved = await moveOccurrence(c.var.tenant, c.var.user!, pathId(c, "No such recurring schedule."), day, await readBody(c, appointmentChange), now(c));
    if (moved.was.getTime() !== moved.starts_at.getTime()) tellAppointment(c, "moved", { ...moved.series, starts_at: moved.starts_at }, `s${moved.series.id}-${day}`, moved.was);
    return c.json({ data: { moved: true } });
  })
  /** DELETE /api/recurring-schedules/{id}/occurrences/{yyyy-mm-dd}: that one session cancelled. */
  .delete("/recurring-schedules/:id{[0-9]+}/occurrences/:day", ...write, async (c) => {
    const day = dayOf(c);
    const done = await cancelOccurrence(c.var.tenant, c.var.user!, pathId(c, "No such recurring schedule."), day, now(c));
    if (done.cancelled) tellAppointment(c, "cancelled", { ...done.series, starts_at: done.starts_at }, `s${done.series.id}-${day}`);
    return c.json({ data: { cancelled: true } });
  })
  /** GET /api/users/{id}/recurring-schedule: a member's live recurring sessions (SPEC §7), as on their member page. */
  .get("/users/:id{[0-9]+}/recurring-schedule", ...read, async (c) => {
    const memberId = pathId(c, "No such member.");
    await assertMemberHere(c.var.tenant, memberId);
    const list = await listSeries(c.var.tenant, c.var.user!, { member_id: memberId }, localDay(now(c)));
    const next = await nextSessions(c.var.tenant, c.var.user!, list.map((s) => s.id), now(c));
    return c.json({ data: { data: list.map((s) => ({ ...s, next_sessions: (next.get(s.id) ?? []).slice(0, 3) })) } });
  });
