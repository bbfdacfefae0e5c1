import { and, asc, desc, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { addCalendarDays, formatLocal, formatTime, hhmmOf, localDay, minutesOfDay } from "../../domain/dates";
import type { ClassChange, ClassScheduleChange, ClassScheduleInput } from "../../domain/schemas/class-types";
import { invalid, notFound } from "../core/errors";
import type { CurrentUser } from "../core/current-user";
import { assertCan } from "../core/permissions";
import { class_bookings, class_occurrences, class_schedules, class_types, gyms, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { describeDays, firstDay, fromRrule, lastDay, occurrenceDays, occurrenceTimes, toRrule, type IsoDay } from "../calendar/recurrence";
import { assertTrainerAt, gymFor } from "../calendar/rules";
import { liveClassType } from "./class-types";
import { assertTrainerFree } from "./clashes";
import type { Told } from "./class-changed-mail";
import { bookingCancelled, classCancelled } from "./events";
import { classById } from "./listing";
import { writeOccurrences } from "./occurrences";
import { countsOf, lockClass, promoteFirst, type BookingRow } from "./places";
import { refundDropIn } from "./drop-ins";

/**
 * A gym's timetable (issue 34, decision 0065 "Staff"): classes scheduled once or weekly, a weekly class changed from a
 * date on (the classes before stay as they were) or ended, and one class changed or cancelled on its own. Classes are
 * rows (./occurrences.ts), so a change from a date carries the rows already written over to the new pattern with
 * their bookings; a row whose day leaves the pattern is cancelled and those booked are told.
 */
const CLASH_HORIZON_DAYS = 366;
const trainer = alias(users, "schedule_trainer");

const scheduleView = {
  id: class_schedules.id,
  gym_id: class_schedules.gym_id,
  gym: gyms.name,
  class_type: { id: class_types.id, name: class_types.name, colour: class_types.colour },
  trainer: { id: trainer.id, name: trainer.name, calendar_colour: trainer.calendar_colour },
  room: class_schedules.room,
  capacity: class_schedules.capacity,
  waitlist_size: class_schedules.waitlist_size,
  rrule: class_schedules.rrule,
  starts_on: class_schedules.starts_on,
  ends_on: class_schedules.ends_on,
  start_time: class_schedules.start_time,
  duration_minutes: class_schedules.duration_minutes,
  generated_until: class_schedules.generated_until,
  previous_id: class_schedules.previous_id,
  cancelled_at: class_schedules.cancelled_at,
  created_at: class_schedules.created_at,
};
const selectSchedules = (t: Tenant) =>
  t.db
    .select(scheduleView)
    .from(class_schedules)
    .innerJoin(class_types, eq(class_types.id, class_schedules.class_type_id))
    .innerJoin(trainer, eq(trainer.id, class_schedules.trainer_id))
    .innerJoin(gyms, eq(gyms.id, class_schedules.gym_id));
type ScheduleView = Awaited<ReturnType<ReturnType<typeof selectSchedules>["where"]>>[number];

/** A schedule as the API answers it: its days and times spelled out for forms and people. */
export function presentSchedule(s: ScheduleView, today: string) {
  const days = s.rrule ? fromRrule(s.rrule).days : [];
  const sample = occurrenceTimes(s.starts_on, s.start_time, s.duration_minutes);
  const times = `${formatTime(sample.starts_at)} to ${formatTime(sample.ends_at)}`;
  return {
    ...s,
    repeat: s.rrule ? ("weekly" as const) : ("once" as const),
    days,
    until: s.rrule ? fromRrule(s.rrule).until ?? null : null,
    end_time: hhmmOf(minutesOfDay(s.start_time) + s.duration_minutes),
    ended: Boolean(s.cancelled_at) || (s.ends_on !== null && s.ends_on < today),
    summary: s.rrule ? `${describeDays(days as IsoDay[])}, ${times}` : `Once, ${formatLocal(sample.starts_at, "EEE d MMM yyyy")}, ${times}`,
  };
}
export type ClassSchedule = ReturnType<typeof presentSchedule>;

export async function findSchedule(t: Tenant, id: number) {
  const [s] = await selectSchedules(t).where(t.where(class_schedules, eq(class_schedules.id, id)));
  if (!s) throw notFound("No such class schedule.");
  return s;
}

export async function listSchedules(t: Tenant, q: { gym_id?: number; ended?: "0" | "1" }, today: string) {
  const live = and(isNull(class_schedules.cancelled_at), or(isNull(class_schedules.ends_on), gte(class_schedules.ends_on, today)));
  const rows = await selectSchedules(t)
    .where(t.where(class_schedules, q.gym_id ? eq(class_schedules.gym_id, q.gym_id) : undefined, q.ended === "1" ? undefined : live))
    .orderBy(asc(class_schedules.start_time), asc(class_types.name), desc(class_schedules.id));
  return rows.map((s) => presentSchedule(s, today));
}

/** The classes of a pattern from `first` to its end or the clash horizon, as instants. */
function classTimes(rule: string | null, first: string, startTime: string, minutes: number) {
  if (!rule) return [{ day: first, ...occurrenceTimes(first, startTime, minutes) }];
  const last = lastDay(rule, first);
  const horizon = addCalendarDays(first, CLASH_HORIZON_DAYS);
  return occurrenceDays(rule, first, first, last && last < horizon ? last : horizon).map((day) => ({ day, ...occurrenceTimes(day, startTime, minutes) }));
}

const rowOf = async (t: Tenant, id: number) =>
  (
    await t.db
      .select()
      .from(class_schedules)
      .where(t.where(class_schedules, eq(class_schedules.id, id)))
  )[0];

export async function createSchedule(t: Tenant, user: CurrentUser, input: ClassScheduleInput, now: Date) {
  const gymId = await gymFor(t, input.gym_id);
  assertCan(user, "classes.write", gymId);
  const type = await liveClassType(t, input.class_type_id);
  await assertTrainerAt(t, input.trainer_id, gymId);
  const today = localDay(now);
  if (input.starts_on < today) throw invalid({ starts_on: ["Choose today or a later day"] });
  const minutes = input.duration_minutes ?? type.duration_minutes;
  const rule = input.repeat === "weekly" ? toRrule({ days: input.days as IsoDay[], until: input.until }) : null;
  const first = rule ? firstDay(rule, input.starts_on) : input.starts_on;
  if (!first || (rule && input.until && first > input.until)) throw invalid({ until: ["No class falls between these dates on the days chosen"] });
  const wanted = classTimes(rule, first, input.start_time, minutes);
  if (wanted[0].starts_at <= now) throw invalid({ start_time: ["Choose a time later than now"] });
  await assertTrainerFree(t, input.trainer_id, wanted);
  const [made] = await t.db
    .insert(class_schedules)
    .values(
      t.owned({
        gym_id: gymId,
        class_type_id: type.id,
        trainer_id: input.trainer_id,
        room: input.room ?? null,
        capacity: input.capacity ?? type.default_capacity,
        waitlist_size: input.waitlist_size ?? type.default_waitlist,
        rrule: rule,
        starts_on: first,
        ends_on: rule ? input.until ?? null : first,
        start_time: input.start_time,
        duration_minutes: minutes,
        created_by: user.row.id,
        created_at: now,
        updated_at: now,
      }),
    )
    .returning();
  await writeOccurrences(t, made, first, today);
  return presentSchedule(await findSchedule(t, made.id), today);
}

/** Those who hold a place in or wait for these classes, to be told. */
async function peopleIn(t: Tenant, occurrenceIds: number[]) {
  if (!occurrenceIds.length) return new Map<number, Told["people"]>();
  const rows = await t.db
    .select({ occurrence_id: class_bookings.occurrence_id, user_id: users.id, email: users.email, name: users.name })
    .from(class_bookings)
    .innerJoin(users, eq(users.id, class_bookings.user_id))
    .where(t.where(class_bookings, inArray(class_bookings.occurrence_id, occurrenceIds), inArray(class_bookings.status, ["booked", "waitlisted"])));
  const out = new Map<number, Told["people"]>();
  for (const r of rows) out.set(r.occurrence_id, [...(out.get(r.occurrence_id) ?? []), { user_id: r.user_id, email: r.email, name: r.name }]);
  return out;
}

/**
 * Cancels classes: each is locked (as every change of its places is, server/classes/places.ts), and one already
 * cancelled is left alone, so cancelling twice tells nobody twice. The bookings and waitlist are cancelled with it,
 * not given back one by one: nobody is promoted into a class that is not running.
 */
export async function cancelOccurrences(t: Tenant, ids: number[], reason: string | null, actorId: number, now: Date): Promise<Told[]> {
  const told: Told[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    const cls = await lockClass(t, id);
    if (cls.cancelled_at) continue;
    const people = (await peopleIn(t, [id])).get(id) ?? [];
    await t.db
      .update(class_occurrences)
      .set({ cancelled_at: now, cancel_reason: reason, updated_at: now })
      .where(t.where(class_occurrences, eq(class_occurrences.id, id)));
    const cancelled = await t.db
      .update(class_bookings)
      .set({ status: "cancelled", cancelled_at: now, updated_at: now })
      .where(t.where(class_bookings, eq(class_bookings.occurrence_id, id), inArray(class_bookings.status, ["booked", "waitlisted"])))
      .returning();
    // The integrators' webhooks, in this transaction: the class, then each booking it took with it.
    await classCancelled(t, id, now);
    for (const b of cancelled) await bookingCancelled(t, b.id, now);
    const [type] = await t.db
      .select({ name: class_types.name })
      .from(class_types)
      .where(t.where(class_types, eq(class_types.id, cls.class_type_id)));
    // Drop-ins paid for a class that is not running are refunded whole.
    const refunds: number[] = [];
    for (const b of cancelled) {
      const refund = await refundDropIn(t, b, "class_cancelled", actorId, now);
      if (refund) refunds.push(refund);
    }
    told.push({ occurrence_id: id, gym_id: cls.gym_id, name: type.name, starts_at: cls.starts_at, reason, people, refunds });
  }
  return told;
}

const assertLive = (s: ScheduleView, today: string) => {
  if (s.cancelled_at || (s.ends_on && s.ends_on < today)) throw invalid({ _: ["This class schedule has ended: schedule a new one"] });
};

/** The schedule's rows from `day` on that are not cancelled. */
const rowsFrom = (t: Tenant, scheduleId: number, day: string) =>
  t.db
    .select()
    .from(class_occurrences)
    .where(
      t.where(
        class_occurrences,
        eq(class_occurrences.schedule_id, scheduleId),
        gte(class_occurrences.occurrence_day, day),
        isNull(class_occurrences.cancelled_at),
      ),
    )
    .orderBy(asc(class_occurrences.occurrence_day));

/**
 * A weekly class from `from` on. Classes before stay as they were: where there are some, this schedule ends the day
 * before and a successor (previous_id) carries on; otherwise it changes in place. Classes already written from that
 * day on go over with their bookings: one still on the schedule's pattern takes the new time, trainer, room and
 * places (refused if it has more booked than the new places); one changed on its own keeps its own; one whose day
 * leaves the pattern is cancelled and those booked are told.
 */
export async function changeSchedule(t: Tenant, user: CurrentUser, id: number, input: ClassScheduleChange, now: Date) {
  const s = await findSchedule(t, id);
  assertCan(user, "classes.write", s.gym_id);
  const today = localDay(now);
  assertLive(s, today);
  if (!s.rrule) throw invalid({ _: ["This class is on once: change that class itself"] });
  if (input.from < today) throw invalid({ from: ["Choose today or a later day: the past stays as it was"] });
  await assertTrainerAt(t, input.trainer_id, s.gym_id);
  const minutes = input.duration_minutes ?? s.duration_minutes;
  const rule = toRrule({ days: input.days as IsoDay[], until: input.until });
  const first = firstDay(rule, input.from);
  if (!first || (input.until && first > input.until)) throw invalid({ until: ["No class falls between these dates on the days chosen"] });
  const capacity = input.capacity ?? s.capacity;
  const waitlist = input.waitlist_size ?? s.waitlist_size;

  const rows = await rowsFrom(t, s.id, input.from);
  const onPattern = (day: string) => occurrenceDays(rule, first, day, day).length === 1;
  const changedAlone = (r: (typeof rows)[number]) =>
    r.starts_at.getTime() !== occurrenceTimes(r.occurrence_day, s.start_time, s.duration_minutes).starts_at.getTime() ||
    r.trainer_id !== s.trainer.id ||
    r.room !== s.room;
  const alone = new Set(rows.filter(changedAlone).map((r) => r.id));
  const aloneDays = new Set(rows.filter((r) => alone.has(r.id)).map((r) => r.occurrence_day));
  const wanted = classTimes(rule, first, input.start_time, minutes).filter((w) => !aloneDays.has(w.day) && w.starts_at > now);
  await assertTrainerFree(t, input.trainer_id, wanted, { schedule_id: s.id });
  const carried = rows.filter((r) => !alone.has(r.id) && onPattern(r.occurrence_day));
  for (const r of carried) {
    const { booked, waitlisted } = await countsOf(t, r.id);
    if (booked > capacity)
      throw invalid({
        capacity: [`${booked} members are booked on ${formatLocal(r.starts_at, "EEE d MMM")}: choose at least ${booked} places, or change from a later date`],
      });
    if (waitlisted > waitlist)
      throw invalid({ waitlist_size: [`${waitlisted} members wait on ${formatLocal(r.starts_at, "EEE d MMM")}: choose a waitlist of at least ${waitlisted}`] });
  }

  const fields = {
    trainer_id: input.trainer_id,
    room: input.room ?? null,
    capacity,
    waitlist_size: waitlist,
    rrule: rule,
    starts_on: first,
    ends_on: input.until ?? null,
    start_time: input.start_time,
    duration_minutes: minutes,
    updated_at: now,
  };
  const earlier = await t.db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(class_occurrences)
    .where(t.where(class_occurrences, eq(class_occurrences.schedule_id, s.id), sql`${class_occurrences.occurrence_day} < ${input.from}`));
  let newId = s.id;
  if (!earlier[0].n && s.starts_on >= input.from) {
    await t.db
      .update(class_schedules)
      .set({ ...fields, generated_until: null })
      .where(t.where(class_schedules, eq(class_schedules.id, s.id)));
  } else {
    await endBefore(t, s, input.from, now);
    const [made] = await t.db
      .insert(class_schedules)
      .values(t.owned({ ...fields, gym_id: s.gym_id, class_type_id: s.class_type.id, previous_id: s.id, created_by: user.row.id, created_at: now }))
      .returning({ id: class_schedules.id });
    newId = made.id;
  }
  // The rows already written: carried over (their places held), moved alone (kept), or off the pattern (cancelled).
  const promoted: BookingRow[] = [];
  for (const r of carried) {
    const times = occurrenceTimes(r.occurrence_day, input.start_time, minutes);
    await lockClass(t, r.id);
    await t.db
      .update(class_occurrences)
      .set({ schedule_id: newId, ...times, trainer_id: input.trainer_id, room: input.room ?? null, capacity, waitlist_size: waitlist, updated_at: now })
      .where(t.where(class_occurrences, eq(class_occurrences.id, r.id)));
    promoted.push(...(await promoteAll(t, r.id, now)));
  }
  for (const r of rows.filter((r) => alone.has(r.id) && onPattern(r.occurrence_day))) {
    await t.db
      .update(class_occurrences)
      .set({ schedule_id: newId, updated_at: now })
      .where(t.where(class_occurrences, eq(class_occurrences.id, r.id)));
  }
  const dropped = rows.filter((r) => !alone.has(r.id) && !onPattern(r.occurrence_day)).map((r) => r.id);
  const told = await cancelOccurrences(t, dropped, "The class no longer runs on this day", user.row.id, now);
  await writeOccurrences(t, (await rowOf(t, newId))!, first, today);
  return { schedule: presentSchedule(await findSchedule(t, newId), today), cancelled: told, promoted };
}

/** Raised places go to those waiting, first come first served (./places.ts), until the class is full. */
async function promoteAll(t: Tenant, occurrenceId: number, now: Date) {
  const cls = await lockClass(t, occurrenceId);
  const promoted: BookingRow[] = [];
  for (let p = await promoteFirst(t, cls, now); p; p = await promoteFirst(t, cls, now)) promoted.push(p);
  return promoted;
}

/** Ends `s` before `day`: a weekly rule gets an end date, so its earlier classes stay; one with none before is cancelled whole. */
async function endBefore(t: Tenant, s: ScheduleView, day: string, now: Date) {
  if (s.starts_on >= day) {
    await t.db
      .update(class_schedules)
      .set({ cancelled_at: now, updated_at: now })
      .where(t.where(class_schedules, eq(class_schedules.id, s.id)));
    return;
  }
  const until = addCalendarDays(day, -1);
  const rrule = s.rrule ? toRrule({ days: fromRrule(s.rrule).days, until }) : null;
  const ends = s.ends_on && s.ends_on < until ? s.ends_on : until;
  await t.db
    .update(class_schedules)
    .set({ rrule, ends_on: ends, generated_until: s.generated_until && s.generated_until > ends ? ends : s.generated_until, updated_at: now })
    .where(t.where(class_schedules, eq(class_schedules.id, s.id)));
}

/** No classes from `from` (today when absent): the schedule ends the day before, and its classes from then are cancelled (those booked are told). */
export async function endSchedule(t: Tenant, user: CurrentUser, id: number, q: { from?: string; reason?: string }, now: Date) {
  const s = await findSchedule(t, id);
  assertCan(user, "classes.write", s.gym_id);
  const today = localDay(now);
  const day = q.from ?? today;
  if (day < today) throw invalid({ from: ["Choose today or a later day: the past stays as it was"] });
  const live = !s.cancelled_at && (!s.ends_on || s.ends_on >= day);
  if (live) await endBefore(t, s, day, now);
  // From today, only classes not yet started: one under way runs to its end.
  const rows = (await rowsFrom(t, s.id, day)).filter((r) => r.starts_at > now);
  const told = await cancelOccurrences(
    t,
    rows.map((r) => r.id),
    q.reason ?? null,
    user.row.id,
    now,
  );
  return { schedule: presentSchedule(await findSchedule(t, id), today), from: day, ended: live, cancelled: told };
}

/** One class as listed, or 404. */
export async function findClass(t: Tenant, id: number) {
  const cls = await classById(t, id);
  if (!cls) throw notFound("No such class.");
  return cls;
}

/**
 * One class moved, given another trainer or room, or its places changed. A class cannot lose places its members hold
 * (nor waitlist places); places added go to those waiting. Returns the class before and after.
 */
export async function changeClass(t: Tenant, user: CurrentUser, id: number, input: ClassChange, now: Date) {
  const before = await findClass(t, id);
  assertCan(user, "classes.write", before.gym_id);
  if (before.cancelled_at) throw invalid({ _: ["This class is cancelled"] });
  if (before.starts_at <= now) throw invalid({ _: ["This class has started: it can no longer be changed"] });
  if (input.starts_at <= now) throw invalid({ starts_at: ["Choose a time later than now"] });
  await assertTrainerAt(t, input.trainer_id, before.gym_id);
  await assertTrainerFree(t, input.trainer_id, [input], { occurrence_id: id }, "starts_at");
  await lockClass(t, id);
  const { booked, waitlisted } = await countsOf(t, id);
  if (input.capacity < booked) throw invalid({ capacity: [`${booked} members are booked: choose at least ${booked} places`] });
  if (input.waitlist_size < waitlisted) throw invalid({ waitlist_size: [`${waitlisted} members wait: choose a waitlist of at least ${waitlisted}`] });
  await t.db
    .update(class_occurrences)
    .set({
      starts_at: input.starts_at,
      ends_at: input.ends_at,
      trainer_id: input.trainer_id,
      room: input.room ?? null,
      capacity: input.capacity,
      waitlist_size: input.waitlist_size,
      updated_at: now,
    })
    .where(t.where(class_occurrences, eq(class_occurrences.id, id)));
  const promoted = await promoteAll(t, id, now);
  const after = await findClass(t, id);
  const moved = before.starts_at.getTime() !== after.starts_at.getTime();
  const people = moved ? (await peopleIn(t, [id])).get(id) ?? [] : [];
  return {
    before,
    after,
    promoted,
    moved: moved
      ? ({ occurrence_id: id, gym_id: after.gym_id, name: after.class_type.name, starts_at: after.starts_at, reason: null, people, refunds: [] } satisfies Told)
      : null,
  };
}

/** That one class cancelled; cancelling one already cancelled changes nothing and tells nobody. */
export async function cancelClass(t: Tenant, user: CurrentUser, id: number, reason: string | null, now: Date) {
  const cls = await findClass(t, id);
  assertCan(user, "classes.write", cls.gym_id);
  if (!cls.cancelled_at && cls.ends_at <= now) throw invalid({ _: ["This class has taken place: it can no longer be cancelled"] });
  const told = await cancelOccurrences(t, [id], reason, user.row.id, now);
  return { class: await findClass(t, id), told };
}
