import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { formatLocal, formatTime, localDay } from "../../domain/dates";
import { invalid } from "../core/errors";
import type { CurrentUser } from "../core/current-user";
import { appointments, gyms, recurring_schedules, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { trainerClassesBetween } from "./class-busy";
import { occurrenceDays, occurrenceTimes } from "./recurrence";
import { visibleTo } from "./rules";

/**
 * What the calendar shows (issue 16): appointments, and the occurrences of recurring schedules worked out from their
 * rules for the days asked. An occurrence that was moved or cancelled has an appointment row of its own (series_id,
 * occurrence_start), which stands in for it. Both come out in one shape, an entry: `id` is the appointment's (null for
 * an occurrence not yet changed), `series_id` and `occurrence_day` say which occurrence it is.
 */
const trainer = alias(users, "trainer");
const member = alias(users, "member");
const people = {
  trainer: { id: trainer.id, name: trainer.name, calendar_colour: trainer.calendar_colour },
  member: { id: member.id, name: member.name, email: member.email },
};

const appointmentView = {
  id: appointments.id,
  gym_id: appointments.gym_id,
  gym: gyms.name,
  starts_at: appointments.starts_at,
  ends_at: appointments.ends_at,
  notes: appointments.notes,
  cancelled_at: appointments.cancelled_at,
  series_id: appointments.series_id,
  occurrence_start: appointments.occurrence_start,
  ...people,
};

export const seriesView = {
  id: recurring_schedules.id,
  gym_id: recurring_schedules.gym_id,
  gym: gyms.name,
  rrule: recurring_schedules.rrule,
  starts_on: recurring_schedules.starts_on,
  ends_on: recurring_schedules.ends_on,
  start_time: recurring_schedules.start_time,
  duration_minutes: recurring_schedules.duration_minutes,
  notes: recurring_schedules.notes,
  previous_id: recurring_schedules.previous_id,
  cancelled_at: recurring_schedules.cancelled_at,
  created_at: recurring_schedules.created_at,
  ...people,
};
export type SeriesRow = Awaited<ReturnType<ReturnType<typeof selectSeries>["where"]>>[number];

export const selectAppointments = (t: Tenant) =>
  t.db.select(appointmentView).from(appointments).innerJoin(trainer, eq(trainer.id, appointments.trainer_id)).innerJoin(member, eq(member.id, appointments.member_id)).innerJoin(gyms, eq(gyms.id, appointments.gym_id));
export const selectSeries = (t: Tenant) =>
  t.db.select(seriesView).from(recurring_schedules).innerJoin(trainer, eq(trainer.id, recurring_schedules.trainer_id)).innerJoin(member, eq(member.id, recurring_schedules.member_id)).innerJoin(gyms, eq(gyms.id, recurring_schedules.gym_id));

export type AppointmentRow = Awaited<ReturnType<ReturnType<typeof selectAppointments>["where"]>>[number];
export interface Entry extends Omit<AppointmentRow, "id" | "occurrence_start"> {
  id: number | null;
  occurrence_day: string | null;
}

const asEntry = (a: AppointmentRow): Entry => {
  const { occurrence_start, ...rest } = a;
  return { ...rest, occurrence_day: occurrence_start ? localDay(occurrence_start) : null };
};

/** A series' occurrences overlapping [from, to), leaving out those with an appointment row of their own. */
function expand(series: SeriesRow[], from: Date, to: Date, changed: Set<string>): Entry[] {
  const out: Entry[] = [];
  for (const s of series) {
    const first = s.starts_on > localDay(from) ? s.starts_on : localDay(from);
    const last = s.ends_on && s.ends_on < localDay(to) ? s.ends_on : localDay(to);
    for (const day of occurrenceDays(s.rrule, s.starts_on, first, last)) {
      const { starts_at, ends_at } = occurrenceTimes(day, s.start_time, s.duration_minutes);
      if (starts_at >= to || ends_at <= from || changed.has(`${s.id}|${starts_at.toISOString()}`)) continue;
      out.push({ id: null, series_id: s.id, occurrence_day: day, gym_id: s.gym_id, gym: s.gym, starts_at, ends_at, notes: s.notes, cancelled_at: null, trainer: s.trainer, member: s.member });
    }
  }
  return out;
}

/** Series that can have occurrences in [from, to). */
function liveSeriesIn(from: Date, to: Date): SQL {
  return and(isNull(recurring_schedules.cancelled_at), lte(recurring_schedules.starts_on, localDay(to)), or(isNull(recurring_schedules.ends_on), gte(recurring_schedules.ends_on, localDay(from))))!;
}

/** The occurrences (moved, cancelled) that have rows of their own, as "series|start" keys. */
async function changedOccurrences(t: Tenant, seriesIds: number[]): Promise<Set<string>> {
  if (!seriesIds.length) return new Set();
  const rows = await t.db
    .select({ series_id: appointments.series_id, occurrence_start: appointments.occurrence_start })
    .from(appointments)
    .where(t.where(appointments, inArray(appointments.series_id, seriesIds), isNotNull(appointments.occurrence_start)));
  return new Set(rows.map((r) => `${r.series_id}|${r.occurrence_start!.toISOString()}`));
}

export interface EntryFilter {
  trainer_id?: number;
  member_id?: number;
  /** Only these series' sessions (their occurrences and their moved ones). */
  series_ids?: number[];
  /** Leave this series' occurrences out (one being replaced). */
  except_series?: number;
  /** Leave this appointment out (one being moved). */
  except_appointment?: number;
  /** Leave this occurrence out (one being moved for the first time): its series and original start. */
  except_occurrence?: { series_id: number; starts_at: Date };
}

/** Every live entry overlapping [from, to) that `user` may see (all of them when `user` is null: a clash check sees everything), in time order. */
export async function entriesBetween(t: Tenant, user: CurrentUser | null, from: Date, to: Date, f: EntryFilter = {}): Promise<Entry[]> {
  const booked = await selectAppointments(t)
    .where(
      t.where(
        appointments,
        lt(appointments.starts_at, to),
        gt(appointments.ends_at, from),
        isNull(appointments.cancelled_at),
        f.trainer_id ? eq(appointments.trainer_id, f.trainer_id) : undefined,
        f.member_id ? eq(appointments.member_id, f.member_id) : undefined,
        f.except_appointment ? ne(appointments.id, f.except_appointment) : undefined,
        f.series_ids ? inArray(appointments.series_id, f.series_ids) : undefined,
        user ? visibleTo(user, appointments) : undefined,
      ),
    )
    .orderBy(asc(appointments.starts_at), asc(appointments.id));
  const series = await selectSeries(t).where(
    t.where(
      recurring_schedules,
      liveSeriesIn(from, to),
      f.trainer_id ? eq(recurring_schedules.trainer_id, f.trainer_id) : undefined,
      f.member_id ? eq(recurring_schedules.member_id, f.member_id) : undefined,
      f.except_series ? ne(recurring_schedules.id, f.except_series) : undefined,
      f.series_ids ? inArray(recurring_schedules.id, f.series_ids) : undefined,
      user ? visibleTo(user, recurring_schedules) : undefined,
    ),
  );
  const changed = await changedOccurrences(t, series.map((s) => s.id));
  if (f.except_occurrence) changed.add(`${f.except_occurrence.series_id}|${f.except_occurrence.starts_at.toISOString()}`);
  return [...booked.map(asEntry), ...expand(series, from, to, changed)].sort((a, b) => a.starts_at.getTime() - b.starts_at.getTime() || (a.id ?? 0) - (b.id ?? 0));
}

const trainerName = async (t: Tenant, id: number) => (await t.db.select({ name: users.name }).from(users).where(eq(users.id, id)))[0]?.name ?? "The trainer";

/** Who a booking is for: neither the trainer nor the member can be in two sessions at once. */
export interface Booked {
  trainerId: number;
  memberId: number;
}

const lockKey = { trainer: 7_000_000_000, member: 8_000_000_000 };
/** The per-trainer lock every booking of a trainer's time takes first (group classes too, server/classes/clashes.ts). */
export const TRAINER_LOCK = lockKey.trainer;

/**
 * Refuses times that overlap anything else of the trainer's or the member's (appointments and series occurrences),
 * naming the first clash. Under locks on the trainer and the member (taken in that order by every booking, so two
 * cannot wait on each other), so two bookings at once cannot both pass; the caller writes in the same transaction.
 */
export async function assertFree(t: Tenant, who: Booked, wanted: { starts_at: Date; ends_at: Date }[], except: Omit<EntryFilter, "trainer_id" | "member_id"> = {}, field = "starts_at") {
  if (!wanted.length) return;
  await t.db.execute(sql`select pg_advisory_xact_lock(${lockKey.trainer + who.trainerId})`);
  await t.db.execute(sql`select pg_advisory_xact_lock(${lockKey.member + who.memberId})`);
  const from = new Date(Math.min(...wanted.map((w) => w.starts_at.getTime())));
  const to = new Date(Math.max(...wanted.map((w) => w.ends_at.getTime())));
  const clashOf = <B extends { starts_at: Date; ends_at: Date }>(busy: B[]) => {
    for (const w of wanted) {
      const clash = busy.find((b) => b.starts_at < w.ends_at && b.ends_at > w.starts_at);
      if (clash) return clash;
    }
    return null;
  };
  const when = (e: { starts_at: Date; ends_at: Date }) => `${formatLocal(e.starts_at, "EEE d MMM")}, ${formatTime(e.starts_at)} to ${formatTime(e.ends_at)}`;
  const trainerClash = clashOf(await entriesBetween(t, null, from, to, { trainer_id: who.trainerId, ...except }));
  if (trainerClash) throw invalid({ [field]: [`${trainerClash.trainer.name} is already booked then: ${when(trainerClash)} with ${trainerClash.member.name}`] });
  // A group class the trainer runs (issue 34) is as busy as a session.
  const classClash = clashOf(await trainerClassesBetween(t, who.trainerId, from, to));
  if (classClash) throw invalid({ [field]: [`${await trainerName(t, who.trainerId)} runs a class then: ${classClash.name} at ${classClash.gym}, ${when(classClash)}`] });
  const memberClash = clashOf(await entriesBetween(t, null, from, to, { member_id: who.memberId, ...except }));
  if (memberClash) throw invalid({ [field]: [`${memberClash.member.name} already has a session then: ${when(memberClash)} with ${memberClash.trainer.name}`] });
}
