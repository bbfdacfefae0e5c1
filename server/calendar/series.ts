import { and, asc, desc, eq, gte, isNull, or } from "drizzle-orm";
import { addCalendarDays, formatLocal, formatTime, hhmmOf, localDay, minutesOfDay, startOfLocalDay } from "../../domain/dates";
import type { AppointmentChange, SeriesChange, SeriesInput } from "../../domain/schemas/calendar";
import { invalid, notFound } from "../core/errors";
import type { CurrentUser } from "../core/current-user";
import { appointments, recurring_schedules } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { assertFree, entriesBetween, selectSeries, type Entry, type SeriesRow } from "./entries";
import { countBefore, describeDays, firstDay, fromRrule, lastDay, occurrenceDays, occurrenceTimes, toRrule, type IsoDay } from "./recurrence";
import { assertBooking, assertMayBook, visibleTo } from "./rules";

/**
 * Recurring schedules (issue 16): a trainer's weekly sessions with a member. The rule is stored (./recurrence.ts), the
 * occurrences are worked out when shown (./entries.ts); moving or cancelling one occurrence writes an appointment row
 * for it alone. Editing "from a date" ends the series the day before and starts its successor, so every session
 * before that day stays as it was; a date on or before the series' first session changes it in place.
 */

/** A new series' sessions are checked for clashes this far ahead (a weekly pattern that clashes does so within weeks). */
const CLASH_HORIZON_DAYS = 366;
const minutes = minutesOfDay;
const hhmm = hhmmOf;

/** A series as the API answers it: its rule spelled out for forms and people. */
export function present(s: SeriesRow, today: string) {
  const rule = fromRrule(s.rrule);
  const end_time = hhmm(minutes(s.start_time) + s.duration_minutes);
  const sample = occurrenceTimes(s.starts_on, s.start_time, s.duration_minutes);
  const ended = Boolean(s.cancelled_at) || (s.ends_on !== null && s.ends_on < today);
  return {
    ...s,
    days: rule.days,
    count: rule.count ?? null,
    until: rule.until ?? null,
    /** For a counted series: the sessions from today on (what a change from today carries on with). */
    sessions_left: rule.count ? Math.max(0, rule.count - countBefore(s.rrule, s.starts_on, today)) : null,
    end_time,
    ended,
    summary: `${describeDays(rule.days)}, ${formatTime(sample.starts_at)} to ${formatTime(sample.ends_at)}`,
  };
}
export type Series = ReturnType<typeof present>;

export async function findSeries(t: Tenant, user: CurrentUser, id: number): Promise<SeriesRow> {
  const [found] = await selectSeries(t).where(t.where(recurring_schedules, eq(recurring_schedules.id, id), visibleTo(user, recurring_schedules)));
  if (!found) throw notFound("No such recurring schedule.");
  return found;
}

export async function listSeries(t: Tenant, user: CurrentUser, q: { trainer_id?: number; member_id?: number; ended?: "0" | "1" }, today: string) {
  const live = and(isNull(recurring_schedules.cancelled_at), or(isNull(recurring_schedules.ends_on), gte(recurring_schedules.ends_on, today)));
  const rows = await selectSeries(t)
    .where(
      t.where(
        recurring_schedules,
        q.trainer_id ? eq(recurring_schedules.trainer_id, q.trainer_id) : undefined,
        q.member_id ? eq(recurring_schedules.member_id, q.member_id) : undefined,
        q.ended === "1" ? undefined : live,
        visibleTo(user, recurring_schedules),
      ),
    )
    .orderBy(asc(recurring_schedules.starts_on), desc(recurring_schedules.id));
  return rows.map((s) => present(s, today));
}

type Pattern = Pick<SeriesInput, "days" | "start_time" | "end_time" | "until" | "count" | "notes">;
const ruleOf = (p: Pattern) => toRrule({ days: p.days as IsoDay[], count: p.count, until: p.until });

/** The sessions of a rule from `startsOn` to its end or the horizon, as instants (for the clash check). */
function sessions(rule: string, startsOn: string, p: Pattern) {
  const last = lastDay(rule, startsOn);
  const horizon = addCalendarDays(startsOn, CLASH_HORIZON_DAYS);
  return occurrenceDays(rule, startsOn, startsOn, last && last < horizon ? last : horizon).map((day) => occurrenceTimes(day, p.start_time, minutes(p.end_time) - minutes(p.start_time)));
}

/** The rule must fall on at least one day (a count of sessions whose end date comes before the first chosen weekday does not). */
function assertSomeSession(rule: string, startsOn: string, field: string) {
  const first = firstDay(rule, startsOn);
  const last = lastDay(rule, startsOn);
  if (!first || (last && first > last)) throw invalid({ [field]: ["No session falls between these dates on the days chosen"] });
  return first;
}

export async function createSeries(t: Tenant, user: CurrentUser, input: SeriesInput, now: Date) {
  if (input.starts_on < localDay(now)) throw invalid({ starts_on: ["Choose today or a later day"] });
  const gymId = await assertBooking(t, user, input);
  const rule = ruleOf(input);
  const first = assertSomeSession(rule, input.starts_on, "until");
  await assertFree(t, { trainerId: input.trainer_id, memberId: input.member_id }, sessions(rule, first, input), {}, "start_time");
  const [made] = await t.db
    .insert(recurring_schedules)
    .values(
      t.owned({
        gym_id: gymId,
        trainer_id: input.trainer_id,
        member_id: input.member_id,
        rrule: rule,
        starts_on: first,
        ends_on: lastDay(rule, first),
        start_time: input.start_time,
        duration_minutes: minutes(input.end_time) - minutes(input.start_time),
        notes: input.notes ?? null,
        created_by: user.row.id,
        created_at: now,
        updated_at: now,
      }),
    )
    .returning({ id: recurring_schedules.id });
  return present(await findSeries(t, user, made.id), localDay(now));
}

/** Ends `s` before `day`: a counted series becomes one with an end date, so its earlier sessions stay exactly as they were. */
async function endBefore(t: Tenant, s: SeriesRow, day: string, now: Date) {
  const done = countBefore(s.rrule, s.starts_on, day);
  const rule = fromRrule(s.rrule);
  if (done === 0) {
    await t.db.update(recurring_schedules).set({ cancelled_at: now, updated_at: now }).where(t.where(recurring_schedules, eq(recurring_schedules.id, s.id)));
    return;
  }
  const until = addCalendarDays(day, -1);
  const ended = toRrule({ days: rule.days, until });
  await t.db
    .update(recurring_schedules)
    .set({ rrule: ended, ends_on: lastDay(ended, s.starts_on), updated_at: now })
    .where(t.where(recurring_schedules, eq(recurring_schedules.id, s.id)));
}

/**
 * The series from `from` on: the past is left alone. Where sessions happened before `from`, this series ends the day
 * before and a successor (previous_id) carries on with the new pattern; the one-off changes already made to sessions
 * from that day on (a moved or cancelled occurrence) go over to the successor.
 */
export async function changeSeries(t: Tenant, user: CurrentUser, id: number, input: SeriesChange, now: Date) {
  const s = await findSeries(t, user, id);
  if (s.cancelled_at || (s.ends_on && s.ends_on < localDay(now))) throw invalid({ _: ["This recurring schedule has ended: make a new one"] });
  assertMayBook(user, s.trainer.id, s.gym_id);
  if (input.from < localDay(now)) throw invalid({ from: ["Choose today or a later day: the past stays as it was"] });
  const rule = ruleOf(input);
  const first = assertSomeSession(rule, input.from, "until");
  // Sessions from `from` on that were moved or cancelled one by one keep their day: the new pattern's session on
  // that day is the one they replaced, so it is not checked (the moved session itself was checked when it moved).
  const kept = await changedFrom(t, s.id, input.from);
  const keptDays = new Set(kept.map((k) => k.day));
  const wanted = sessions(rule, first, input).filter((w) => !keptDays.has(localDay(w.starts_at)));
  await assertFree(t, { trainerId: s.trainer.id, memberId: s.member.id }, wanted, { except_series: s.id }, "start_time");
  const fields = { rrule: rule, starts_on: first, ends_on: lastDay(rule, first), start_time: input.start_time, duration_minutes: minutes(input.end_time) - minutes(input.start_time), notes: input.notes ?? null, updated_at: now };
  let seriesId = s.id;
  if (countBefore(s.rrule, s.starts_on, input.from) === 0) {
    await t.db.update(recurring_schedules).set(fields).where(t.where(recurring_schedules, eq(recurring_schedules.id, s.id)));
  } else {
    await endBefore(t, s, input.from, now);
    const [made] = await t.db
      .insert(recurring_schedules)
      .values(t.owned({ ...fields, gym_id: s.gym_id, trainer_id: s.trainer.id, member_id: s.member.id, previous_id: s.id, created_by: user.row.id, created_at: now }))
      .returning({ id: recurring_schedules.id });
    seriesId = made.id;
  }
  await carryOver(t, kept, seriesId, fields, now);
  return { before: s, after: present(await findSeries(t, user, seriesId), localDay(now)) };
}

/** The series' sessions from `from` on that have a row of their own (moved or cancelled one by one), with their original day. */
async function changedFrom(t: Tenant, seriesId: number, from: string) {
  const rows = await t.db
    .select({ id: appointments.id, occurrence_start: appointments.occurrence_start })
    .from(appointments)
    .where(t.where(appointments, eq(appointments.series_id, seriesId), gte(appointments.occurrence_start, startOfLocalDay(from))));
  return rows.map((r) => ({ id: r.id, day: localDay(r.occurrence_start!) }));
}

/**
 * A changed series' moved and cancelled sessions go with it: one whose day is still in the pattern stands in for the
 * new session of that day (its original start becomes that session's, so it is still matched); one whose day is no
 * longer in it stays where it was as an appointment of its own (a moved one is still a booked session).
 */
async function carryOver(t: Tenant, kept: { id: number; day: string }[], seriesId: number, p: { rrule: string; starts_on: string; start_time: string; duration_minutes: number }, now: Date) {
  for (const k of kept) {
    const still = occurrenceDays(p.rrule, p.starts_on, k.day, k.day).length === 1;
    await t.db
      .update(appointments)
      .set(still ? { series_id: seriesId, occurrence_start: occurrenceTimes(k.day, p.start_time, p.duration_minutes).starts_at, updated_at: now } : { series_id: null, occurrence_start: null, updated_at: now })
      .where(t.where(appointments, eq(appointments.id, k.id)));
  }
}

/** Ends the series before `from` (today when absent); its moved sessions from then on are cancelled with it. */
export async function endSeries(t: Tenant, user: CurrentUser, id: number, from: string | undefined, now: Date) {
  const s = await findSeries(t, user, id);
  assertMayBook(user, s.trainer.id, s.gym_id);
  const day = from ?? localDay(now);
  if (day < localDay(now)) throw invalid({ from: ["Choose today or a later day: the past stays as it was"] });
  const live = !s.cancelled_at && (!s.ends_on || s.ends_on >= day);
  if (live) {
    await endBefore(t, s, day, now);
    await t.db
      .update(appointments)
      .set({ cancelled_at: now, updated_at: now })
      .where(t.where(appointments, eq(appointments.series_id, s.id), isNull(appointments.cancelled_at), gte(appointments.starts_at, startOfLocalDay(day))));
  }
  return { series: s, from: day, ended: live };
}

/** The occurrence of `s` on `day`, checked to be one. */
function occurrence(s: SeriesRow, day: string) {
  const on = !s.cancelled_at && occurrenceDays(s.rrule, s.starts_on, day, day).length === 1;
  if (!on) throw notFound("No session of this recurring schedule on that day.");
  return occurrenceTimes(day, s.start_time, s.duration_minutes);
}

/** The occurrence's own row, when it was moved or cancelled before. */
async function occurrenceRow(t: Tenant, seriesId: number, originalStart: Date) {
  const [row] = await t.db
    .select({ id: appointments.id, starts_at: appointments.starts_at, cancelled_at: appointments.cancelled_at })
    .from(appointments)
    .where(t.where(appointments, eq(appointments.series_id, seriesId), eq(appointments.occurrence_start, originalStart)));
  return row ?? null;
}

/** One session moved (or its notes changed), the rest of the series untouched. */
export async function moveOccurrence(t: Tenant, user: CurrentUser, id: number, day: string, input: AppointmentChange, now: Date) {
  const s = await findSeries(t, user, id);
  assertMayBook(user, s.trainer.id, s.gym_id);
  const original = occurrence(s, day);
  const row = await occurrenceRow(t, s.id, original.starts_at);
  if (row?.cancelled_at) throw invalid({ _: ["This session was cancelled: book a new one"] });
  await assertFree(t, { trainerId: s.trainer.id, memberId: s.member.id }, [input], row ? { except_appointment: row.id } : { except_occurrence: { series_id: s.id, starts_at: original.starts_at } });
  const was = row?.starts_at ?? original.starts_at;
  const notes = input.notes !== undefined ? input.notes : s.notes;
  const values = { starts_at: input.starts_at, ends_at: input.ends_at, notes, updated_at: now };
  if (row) await t.db.update(appointments).set(values).where(t.where(appointments, eq(appointments.id, row.id)));
  else
    await t.db
      .insert(appointments)
      .values(t.owned({ ...values, gym_id: s.gym_id, trainer_id: s.trainer.id, member_id: s.member.id, series_id: s.id, occurrence_start: original.starts_at, created_by: user.row.id, created_at: now }));
  return { series: s, was, starts_at: input.starts_at };
}

/** One session cancelled, the rest of the series untouched. */
export async function cancelOccurrence(t: Tenant, user: CurrentUser, id: number, day: string, now: Date) {
  const s = await findSeries(t, user, id);
  assertMayBook(user, s.trainer.id, s.gym_id);
  const original = occurrence(s, day);
  const row = await occurrenceRow(t, s.id, original.starts_at);
  if (row?.cancelled_at) return { series: s, starts_at: row.starts_at, cancelled: false };
  if (row) await t.db.update(appointments).set({ cancelled_at: now, updated_at: now }).where(t.where(appointments, eq(appointments.id, row.id)));
  else
    await t.db
      .insert(appointments)
      .values(t.owned({ ...original, gym_id: s.gym_id, trainer_id: s.trainer.id, member_id: s.member.id, notes: s.notes, series_id: s.id, occurrence_start: original.starts_at, created_by: user.row.id, cancelled_at: now, created_at: now, updated_at: now }));
  return { series: s, starts_at: row?.starts_at ?? original.starts_at, cancelled: true };
}

/** The next sessions of these series over the coming weeks, as the calendar shows them (moved ones moved, cancelled ones gone). */
export async function nextSessions(t: Tenant, user: CurrentUser, seriesIds: number[], now: Date, weeks = 8): Promise<Map<number, Entry[]>> {
  const out = new Map<number, Entry[]>(seriesIds.map((id) => [id, []]));
  if (!seriesIds.length) return out;
  const entries = await entriesBetween(t, user, now, new Date(now.getTime() + weeks * 7 * 86_400_000), { series_ids: seriesIds });
  for (const e of entries) if (e.series_id && out.has(e.series_id)) out.get(e.series_id)!.push(e);
  return out;
}

/** "Tuesdays and Thursdays, 9:00 AM to 10:00 AM, from Tue 1 Dec 2026" (for e-mails). */
export function sentence(s: Series) {
  const end = s.until ? `, until ${formatLocal(startOfLocalDay(s.until), "EEE d MMM yyyy")}` : s.count ? `, ${s.count} sessions` : "";
  return `${s.summary}, from ${formatLocal(startOfLocalDay(s.starts_on), "EEE d MMM yyyy")}${end}`;
}
