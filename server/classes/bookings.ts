import { asc, eq, sql } from "drizzle-orm";
import { addCalendarDays, formatLocal, localDay, localWeekStart, startOfLocalDay } from "../../domain/dates";
import { class_bookings, class_occurrences, class_types, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { invalid, notFound } from "../core/errors";
import { mayBook, mayCancel, memberFacts, type ClassFacts } from "./booking-rules";
import { classById, classesBetween, type ListedClass } from "./listing";
import { bookingCancelled, bookingCreated } from "./events";
import { givePlaceBack, lockClass, takePlace, type BookingRow } from "./places";
import { recordDropInPayment, refundDropIn, type DeskMethod } from "./drop-ins";

/**
 * Bookings for members and staff (issue 34): the rules first (./booking-rules.ts), then a place through
 * ./places.ts, which locks the class. A member's own bookings are taken one at a time (an advisory lock on the
 * member), so two at once cannot both slip under the organisation's most upcoming bookings.
 */
export type By = {
  source: BookingRow["source"];
  createdBy: number;
  /** Staff took a drop-in's money at the desk (the member's card is charged otherwise). */
  desk?: DeskMethod;
};

/** The class as the rules need it, or 404. */
async function classFacts(t: Tenant, classId: number): Promise<ClassFacts & { id: number; ends_at: Date }> {
  const [row] = await t.db
    .select({
      id: class_occurrences.id,
      gym_id: class_occurrences.gym_id,
      starts_at: class_occurrences.starts_at,
      ends_at: class_occurrences.ends_at,
      cancelled_at: class_occurrences.cancelled_at,
      class_type: { id: class_types.id, name: class_types.name, drop_in_amount: class_types.drop_in_amount },
    })
    .from(class_occurrences)
    .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
    .where(t.where(class_occurrences, eq(class_occurrences.id, classId)));
  if (!row) throw notFound("No such class.");
  return row;
}

/** The class's gym (for staff's per-gym permission), or 404. */
export async function classGym(t: Tenant, classId: number): Promise<number> {
  return (await classFacts(t, classId)).gym_id;
}

/** A booking and its class's gym, or 404. */
export async function bookingOf(t: Tenant, bookingId: number) {
  const [row] = await t.db
    .select({ booking: class_bookings, gym_id: class_occurrences.gym_id })
    .from(class_bookings)
    .innerJoin(class_occurrences, eq(class_occurrences.id, class_bookings.occurrence_id))
    .where(t.where(class_bookings, eq(class_bookings.id, bookingId)));
  if (!row) throw notFound("No such booking.");
  return row;
}

/**
 * Books `userId` into the class (or its waitlist when full), under the member's rules. A drop-in holding a place
 * comes back with its payment written (`payment_id`): on a card, the caller charges it once this is committed.
 */
export async function bookClass(t: Tenant, classId: number, userId: number, by: By, now: Date, opts: { waitlist?: boolean } = {}): Promise<BookingRow> {
  await t.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`class-member:${t.organisationId}:${userId}`}))`);
  const [cls, facts] = await Promise.all([classFacts(t, classId), memberFacts(t, userId, now)]);
  const verdict = mayBook(facts, cls, now, by.desk ? "desk" : "card");
  if (!verdict.allowed) throw invalid({ class_id: [verdict.reason] }, verdict.reason);
  try {
    // Money taken at the desk buys a place now, not a place in the waitlist.
    const waitlist = by.desk && verdict.dropIn ? false : opts.waitlist;
    let booking = await takePlace(t, classId, { userId, source: by.source, createdBy: by.createdBy, dropInAmount: verdict.dropIn }, now, { waitlist });
    if (booking.status === "booked") booking = await recordDropInPayment(t, booking, { paymentTypeId: facts.card?.paymentTypeId ?? null, desk: by.desk }, by.createdBy, now);
    await bookingCreated(t, booking.id, now);
    return booking;
  } catch (err) {
    // places.ts names the class's field `occurrence_id`; the API's is `class_id`.
    const e = err as { status?: number; errors?: Record<string, string[]> };
    if (e.status === 422 && e.errors?.occurrence_id) throw invalid({ class_id: e.errors.occurrence_id }, e.errors.occurrence_id[0]);
    throw err;
  }
}

/**
 * Gives up a booking or a waitlist place: refused once the class has started, late_cancelled inside the cut-off.
 * `ownerId`: a member's own (another's is 404). Returns who, if anyone, took the freed place.
 */
export async function cancelClassBooking(t: Tenant, bookingId: number, actorId: number, now: Date, ownerId?: number) {
  const { booking } = await bookingOf(t, bookingId);
  if (ownerId !== undefined && booking.user_id !== ownerId) throw notFound("No such booking.");
  if (booking.status !== "booked" && booking.status !== "waitlisted")
    throw invalid({ booking: ["This booking is no longer open to cancel"] }, "This booking is no longer open to cancel");
  const cls = await classFacts(t, booking.occurrence_id);
  const facts = await memberFacts(t, booking.user_id, now);
  const verdict = mayCancel(cls, facts.rules.cutoffMinutes, now);
  if (!verdict.allowed) throw invalid({ booking: [verdict.reason] }, verdict.reason);
  const done = await givePlaceBack(t, bookingId, now, { late: verdict.late });
  if (done.changed) await bookingCancelled(t, bookingId, now);
  // In time, a drop-in's money goes back; a late cancellation keeps it.
  const refund = done.changed && done.booking.status === "cancelled" ? await refundDropIn(t, done.booking, "cancelled_in_time", actorId, now) : null;
  return { booking: done.booking, late: done.booking.status === "late_cancelled", promoted: done.promoted, refund };
}

/** Attendance is marked from this long before the start (the check-in window's opening, issue 34). */
export const ATTENDANCE_OPENS_MINUTES = 30;

/** Marks a booked member attended or a no-show (and back), under the class's lock. */
export async function markAttendance(t: Tenant, bookingId: number, attended: boolean, now: Date) {
  const { booking: b } = await bookingOf(t, bookingId);
  const cls = await lockClass(t, b.occurrence_id);
  const [booking] = await t.db
    .select()
    .from(class_bookings)
    .where(t.where(class_bookings, eq(class_bookings.id, bookingId)));
  if (cls.cancelled_at) throw invalid({ attended: ["This class was cancelled"] }, "This class was cancelled");
  if (cls.starts_at.getTime() - now.getTime() > ATTENDANCE_OPENS_MINUTES * 60_000)
    throw invalid({ attended: [`Attendance can be marked from ${ATTENDANCE_OPENS_MINUTES} minutes before the class`] });
  if (!["booked", "attended", "no_show"].includes(booking.status))
    throw invalid({ attended: ["Only those holding a place can attend"] }, "Only those holding a place can attend");
  const [after] = await t.db
    .update(class_bookings)
    .set({ status: attended ? "attended" : "no_show", attended_at: attended ? booking.attended_at ?? now : null, updated_at: now })
    .where(t.where(class_bookings, eq(class_bookings.id, bookingId)))
    .returning();
  return after;
}

const ROSTER_ORDER = sql`case ${class_bookings.status} when 'booked' then 0 when 'attended' then 0 when 'no_show' then 0 when 'waitlisted' then 1 when 'late_cancelled' then 2 else 3 end`;

/** A class's roster: everyone booked, waiting, attended, no-show or cancelled, with the class as listed. */
export async function rosterOf(t: Tenant, classId: number, now: Date) {
  const cls = await classById(t, classId);
  if (!cls) throw notFound("No such class.");
  const rows = await t.db
    .select({
      id: class_bookings.id,
      status: class_bookings.status,
      source: class_bookings.source,
      booked_at: class_bookings.booked_at,
      waitlisted_at: class_bookings.waitlisted_at,
      cancelled_at: class_bookings.cancelled_at,
      attended_at: class_bookings.attended_at,
      drop_in_amount: class_bookings.drop_in_amount,
      payment: sql<{ id: number; status: string; pif_payment: string | null; error: string | null } | null>`(select json_build_object('id', p.id, 'status', p.status, 'pif_payment', p.pif_payment, 'error', p.error_description) from payments p where p.id = ${class_bookings.payment_id})`,
      member: { id: users.id, name: users.name, email: users.email },
    })
    .from(class_bookings)
    .innerJoin(users, eq(users.id, class_bookings.user_id))
    .where(t.where(class_bookings, eq(class_bookings.occurrence_id, classId)))
    .orderBy(
      ROSTER_ORDER,
      asc(sql`coalesce(${class_bookings.waitlisted_at}, ${class_bookings.booked_at}, ${class_bookings.created_at})`),
      asc(class_bookings.id),
    );
  const attendanceOpen = !cls.cancelled_at && cls.starts_at.getTime() - now.getTime() <= ATTENDANCE_OPENS_MINUTES * 60_000;
  return { class: cls, attendance_open: attendanceOpen, bookings: rows };
}

/** Those holding a place in the class (booked or attended), for a message to them. */
export async function holdersOf(t: Tenant, classId: number) {
  return t.db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(class_bookings)
    .innerJoin(users, eq(users.id, class_bookings.user_id))
    .where(t.where(class_bookings, eq(class_bookings.occurrence_id, classId), sql`${class_bookings.status} in ('booked', 'attended')`));
}

/** What the member may do with a listed class now: book, join the waitlist, cancel (late or not), or nothing and why; a drop-in's price. */
export function memberAction(cls: ListedClass, facts: Awaited<ReturnType<typeof memberFacts>>, now: Date) {
  const own = cls.my_booking;
  const none = { action: null, late: false, drop_in: null };
  if (own && (own.status === "booked" || own.status === "waitlisted")) {
    const v = mayCancel(cls, facts.rules.cutoffMinutes, now);
    return v.allowed ? { action: "cancel" as const, late: v.late, reason: null, drop_in: own.drop_in_amount } : { ...none, reason: v.reason };
  }
  if (own) return { ...none, reason: own.status === "attended" ? "You attended this class." : own.status === "no_show" ? "Marked as not attended." : null };
  const v = mayBook(facts, cls, now);
  if (!v.allowed) return { ...none, reason: v.reason };
  if (cls.places_left > 0) return { action: "book" as const, late: false, reason: null, drop_in: v.dropIn };
  if (cls.waitlist_left > 0) return { action: "waitlist" as const, late: false, reason: null, drop_in: v.dropIn };
  return { ...none, reason: cls.waitlist_size > 0 ? "This class and its waitlist are full." : "This class is full." };
}

/**
 * The member's timetable (GET /api/me/classes): this week's and next week's classes at their gym (Monday to Sunday,
 * Auckland), or one of them, with places and waitlist places left, their own booking and what they may do.
 */
export async function myClasses(t: Tenant, userId: number, now: Date, week?: 0 | 1) {
  const facts = await memberFacts(t, userId, now);
  const monday = localWeekStart(now);
  const fromDay = week === 1 ? addCalendarDays(monday, 7) : monday;
  const toDay = addCalendarDays(monday, week === 0 ? 7 : 14);
  const classes = facts.gymId === null ? [] : await classesBetween(t, startOfLocalDay(fromDay), startOfLocalDay(toDay), { gymIds: [facts.gymId] }, userId);
  return {
    gym_id: facts.gymId,
    from: fromDay,
    to: addCalendarDays(toDay, -1),
    access: facts.access,
    /** The card a drop-in is charged to (its last four digits), when they have one. */
    card_last_four: facts.card?.lastFour ?? null,
    rules: {
      booking_window_days: facts.rules.windowDays,
      cancel_cutoff_minutes: facts.rules.cutoffMinutes,
      max_bookings: facts.rules.maxBookings,
      upcoming: facts.upcoming,
    },
    classes: classes.map((c) => ({
      id: c.id,
      day: localDay(c.starts_at),
      day_label: formatLocal(c.starts_at, "EEEE d MMMM"),
      starts_at: c.starts_at,
      ends_at: c.ends_at,
      room: c.room,
      class_type: { id: c.class_type.id, name: c.class_type.name, colour: c.class_type.colour, description: c.class_type.description },
      trainer: { name: c.trainer.name },
      gym: c.gym,
      places_left: c.places_left,
      waitlist_left: c.waitlist_left,
      capacity: c.capacity,
      my_booking: c.my_booking,
      ...memberAction(c, facts, now),
    })),
  };
}
