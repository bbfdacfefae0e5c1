import { Hono, type MiddlewareHandler } from "hono";
import { localDay } from "../../domain/dates";
import {
  classBookingRulesRequest,
  classCancel,
  classChange,
  classesQuery,
  classScheduleChange,
  classScheduleEnd,
  classScheduleRequest,
  classSchedulesQuery,
  classTypeRequest,
  classTypesQuery,
} from "../../domain/schemas/class-types";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { ownOrganisation } from "../core/guards";
import { now, requireStaff } from "../core/middleware";
import { assertCan, gymsWhere, requireCan } from "../core/permissions";
import { readClassBookingRules, setClassBookingRules } from "./booking-rules-settings";
import { tellClassChanged } from "./class-changed-mail";
import { createClassType, findClassType, inclusionChoices, listClassTypes, setClassTypeArchived, updateClassType } from "./class-types";
import { classesBetween } from "./listing";
import { handOnAfterCommit, pursueRefundsAfterCommit } from "./drop-ins";
import { cancelClass, changeClass, changeSchedule, createSchedule, endSchedule, findClass, findSchedule, listSchedules, presentSchedule } from "./timetable";

/**
 * Group classes, the staff's side (issue 34): class types, the timetable per gym, one class changed or cancelled,
 * and the organisation's booking rules. Not gated by calendar and messaging: every organisation may run classes.
 * Rules: ./class-types.ts, ./timetable.ts. Bookings and rosters: the booking routes.
 */
const read = [requireStaff, requireCan("classes.read")] as const;
const write = [requireStaff, requireCan("classes.write")] as const;
/** Class types are the organisation's: only a holder in every gym changes them. */
const organisationWide: MiddlewareHandler<ApiEnv> = async (c, next) => {
  assertCan(c.var.user!, "classes.write", null);
  await next();
};
const typesWrite = [...write, organisationWide] as const;

export const timetableRoutes = new Hono<ApiEnv>()
  /** GET /api/class-types?archived=1: the organisation's class types (archived too with archived=1), each with what includes it. */
  .get("/class-types", ...read, async (c) => c.json({ data: { data: await listClassTypes(c.var.tenant, readQuery(c, classTypesQuery)) } }))
  /** GET /api/class-types/form-options: the offerings and prices a class type may be included in. */
  .get("/class-types/form-options", ...read, async (c) => c.json({ data: { offerings: await inclusionChoices(c.var.tenant) } }))
  /** POST /api/class-types { name, description?, duration_minutes, default_capacity, default_waitlist?, colour?, drop_in_amount? (cents), offering_ids?, price_ids? } */
  .post("/class-types", ...typesWrite, async (c) => c.json({ data: await createClassType(c.var.tenant, await readBody(c, classTypeRequest), now(c)) }, 201))
  .get("/class-types/:id{[0-9]+}", ...read, async (c) => c.json({ data: await findClassType(c.var.tenant, pathId(c, "No such class type.")) }))
  .put("/class-types/:id{[0-9]+}", ...typesWrite, async (c) =>
    c.json({ data: await updateClassType(c.var.tenant, pathId(c, "No such class type."), await readBody(c, classTypeRequest), now(c)) }),
  )
  /** POST /api/class-types/{id}/archive and /restore: no new classes of it (those scheduled run). */
  .post("/class-types/:id{[0-9]+}/archive", ...typesWrite, async (c) =>
    c.json({ data: await setClassTypeArchived(c.var.tenant, pathId(c, "No such class type."), true, now(c)) }),
  )
  .post("/class-types/:id{[0-9]+}/restore", ...typesWrite, async (c) =>
    c.json({ data: await setClassTypeArchived(c.var.tenant, pathId(c, "No such class type."), false, now(c)) }),
  )

  /** GET /api/class-schedules?gym_id=&ended=1: the timetable's live schedules (ended too with ended=1). */
  .get("/class-schedules", ...read, async (c) => {
    const q = readQuery(c, classSchedulesQuery);
    const gyms = gymsWhere(c.var.user!, "classes.read");
    const list = await listSchedules(c.var.tenant, q, localDay(now(c)));
    return c.json({ data: { data: gyms === "all" ? list : list.filter((s) => gyms.includes(s.gym_id)) } });
  })
  /** POST /api/class-schedules { gym_id, class_type_id, trainer_id, repeat: once|weekly, days?, starts_on, until?, start_time, duration_minutes?, room?, capacity?, waitlist_size? } */
  .post("/class-schedules", ...write, async (c) =>
    c.json({ data: await createSchedule(c.var.tenant, c.var.user!, await readBody(c, classScheduleRequest), now(c)) }, 201),
  )
  .get("/class-schedules/:id{[0-9]+}", ...read, async (c) => {
    const s = await findSchedule(c.var.tenant, pathId(c, "No such class schedule."));
    assertCan(c.var.user!, "classes.read", s.gym_id);
    return c.json({ data: presentSchedule(s, localDay(now(c))) });
  })
  /** PUT /api/class-schedules/{id} { from, days, start_time, duration_minutes?, trainer_id, room?, capacity?, waitlist_size?, until? }: from that day on. */
  .put("/class-schedules/:id{[0-9]+}", ...write, async (c) => {
    const done = await changeSchedule(c.var.tenant, c.var.user!, pathId(c, "No such class schedule."), await readBody(c, classScheduleChange), now(c));
    tellClassChanged(c, "cancelled", done.cancelled);
    pursueRefundsAfterCommit(c, done.cancelled.flatMap((t) => t.refunds));
    // More places (or a longer waitlist let through) go to those waiting: each told (or charged, a drop-in), as after a cancellation.
    for (const p of done.promoted) await handOnAfterCommit(c, p);
    return c.json({ data: { ...done.schedule, classes_cancelled: done.cancelled.length } });
  })
  /** DELETE /api/class-schedules/{id}?from=yyyy-mm-dd&reason=: no classes from that day (today when absent); those booked are e-mailed. */
  .delete("/class-schedules/:id{[0-9]+}", ...write, async (c) => {
    const done = await endSchedule(c.var.tenant, c.var.user!, pathId(c, "No such class schedule."), readQuery(c, classScheduleEnd), now(c));
    tellClassChanged(c, "cancelled", done.cancelled);
    pursueRefundsAfterCommit(c, done.cancelled.flatMap((t) => t.refunds));
    return c.json({ data: { ended: true, from: done.from, classes_cancelled: done.cancelled.length } });
  })

  /** GET /api/classes?from=&to=&gym_id=&trainer_id=&cancelled=1: the classes in that span (at most six weeks) with their places taken and left. */
  .get("/classes", ...read, async (c) => {
    const q = readQuery(c, classesQuery);
    const gyms = gymsWhere(c.var.user!, "classes.read");
    const gymIds = q.gym_id ? (gyms === "all" || gyms.includes(q.gym_id) ? [q.gym_id] : []) : gyms === "all" ? undefined : gyms;
    const list = await classesBetween(c.var.tenant, q.from, q.to, { gymIds, trainerId: q.trainer_id, withCancelled: q.cancelled === "1" });
    return c.json({ data: { data: list } });
  })
  .get("/classes/:id{[0-9]+}", ...read, async (c) => {
    const cls = await findClass(c.var.tenant, pathId(c, "No such class."));
    assertCan(c.var.user!, "classes.read", cls.gym_id);
    return c.json({ data: cls });
  })
  /** PUT /api/classes/{id} { starts_at, ends_at, trainer_id, room?, capacity, waitlist_size }: that one class; those booked are told if it moves. */
  .put("/classes/:id{[0-9]+}", ...write, async (c) => {
    const done = await changeClass(c.var.tenant, c.var.user!, pathId(c, "No such class."), await readBody(c, classChange), now(c));
    if (done.moved) tellClassChanged(c, "moved", [done.moved], done.before.starts_at);
    for (const p of done.promoted) await handOnAfterCommit(c, p);
    return c.json({ data: done.after });
  })
  /** DELETE /api/classes/{id}?reason=: that one class cancelled; everyone booked or waiting is e-mailed, once. */
  .delete("/classes/:id{[0-9]+}", ...write, async (c) => {
    const { reason } = readQuery(c, classCancel);
    const done = await cancelClass(c.var.tenant, c.var.user!, pathId(c, "No such class."), reason ?? null, now(c));
    tellClassChanged(c, "cancelled", done.told);
    pursueRefundsAfterCommit(c, done.told.flatMap((t) => t.refunds));
    return c.json({ data: { ...done.class, told: done.told.reduce((n, t) => n + t.people.length, 0) } });
  })

  /** GET/PUT /api/organisations/{id}/class-booking-rules: booking window (days), cancel cutoff (minutes), most bookings at once. */
  .get("/organisations/:id{[0-9]+}/class-booking-rules", requireStaff, ownOrganisation, async (c) =>
    c.json({ data: await readClassBookingRules(c.var.tenant) }),
  )
  .put("/organisations/:id{[0-9]+}/class-booking-rules", requireStaff, requireCan("settings.write"), ownOrganisation, async (c) =>
    c.json({ data: await setClassBookingRules(c.var.tenant, await readBody(c, classBookingRulesRequest), now(c)) }),
  );
