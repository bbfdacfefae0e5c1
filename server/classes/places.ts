import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { invalid, notFound } from "../core/errors";
import { class_bookings, class_occurrences } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * Who holds a class's places (issue 34, decision 0065): the one place that books, waitlists, frees and hands on a
 * place. Each change first locks the class's row (SELECT … FOR UPDATE), so changes to one class happen one after
 * another: two members can never both take its last place, and a freed place goes to exactly one person from the
 * waitlist. Whether someone may book at all (their membership, the booking window, their limit) is asked before,
 * by the caller (./booking-rules.ts); this module only counts.
 */

export type BookingRow = typeof class_bookings.$inferSelect;
export type ClassRow = typeof class_occurrences.$inferSelect;

/** Statuses that hold a place in the class. */
export const HOLDS_PLACE = ["booked", "attended"] as const;
/** Statuses of a live booking: a place, or a place in the waitlist. */
export const LIVE = ["booked", "attended", "waitlisted", "no_show"] as const;

/** The class's row, locked until the transaction ends. */
export async function lockClass(t: Tenant, occurrenceId: number): Promise<ClassRow> {
  const [row] = await t.db
    .select()
    .from(class_occurrences)
    .where(t.where(class_occurrences, eq(class_occurrences.id, occurrenceId)))
    .for("update");
  if (!row) throw notFound("No such class.");
  return row;
}

/** How many hold a place and how many wait, now (under the lock, exact). */
export async function countsOf(t: Tenant, occurrenceId: number) {
  const [c] = await t.db
    .select({
      booked: sql<number>`count(*) filter (where ${class_bookings.status} in ('booked', 'attended'))`.mapWith(Number),
      waitlisted: sql<number>`count(*) filter (where ${class_bookings.status} = 'waitlisted')`.mapWith(Number),
    })
    .from(class_bookings)
    .where(t.where(class_bookings, eq(class_bookings.occurrence_id, occurrenceId), inArray(class_bookings.status, ["booked", "attended", "waitlisted"])));
  return c;
}

export interface Taker {
  userId: number;
  source: BookingRow["source"];
  createdBy: number;
  /** A drop-in's price: its payment is written by the caller once the place is taken (./drop-ins.ts). */
  dropInAmount?: number | null;
}

/**
 * A place for `who` in the class, or a place on its waitlist when it is full, or a refusal when both are. The class
 * must be neither cancelled nor started. A second live booking of the same person is refused (and the unique index
 * class_bookings_live_idx stands behind that).
 */
export async function takePlace(t: Tenant, occurrenceId: number, who: Taker, now: Date, opts: { waitlist?: boolean } = {}): Promise<BookingRow> {
  const cls = await lockClass(t, occurrenceId);
  if (cls.cancelled_at) throw invalid({ occurrence_id: ["This class was cancelled"] });
  if (cls.starts_at <= now) throw invalid({ occurrence_id: ["This class has already started"] });
  const [mine] = await t.db
    .select({ status: class_bookings.status })
    .from(class_bookings)
    .where(t.where(class_bookings, eq(class_bookings.occurrence_id, occurrenceId), eq(class_bookings.user_id, who.userId), inArray(class_bookings.status, [...LIVE])));
  if (mine) throw invalid({ occurrence_id: [mine.status === "waitlisted" ? "Already on the waitlist for this class" : "Already booked into this class"] });
  const { booked, waitlisted } = await countsOf(t, occurrenceId);
  const status = booked < cls.capacity ? "booked" : waitlisted < cls.waitlist_size && opts.waitlist !== false ? "waitlisted" : null;
  if (!status) throw invalid({ occurrence_id: [cls.waitlist_size > 0 ? "This class and its waitlist are full" : "This class is full"] });
  const [made] = await t.db
    .insert(class_bookings)
    .values(
      t.owned({
        occurrence_id: occurrenceId,
        user_id: who.userId,
        status,
        booked_at: status === "booked" ? now : null,
        waitlisted_at: status === "waitlisted" ? now : null,
        drop_in_amount: who.dropInAmount ?? null,
        source: who.source,
        created_by: who.createdBy,
        created_at: now,
        updated_at: now,
      }),
    )
    .returning();
  return made;
}

/**
 * Gives a booking or a waitlist place up: `late` when it is too close to the start (the place is freed all the same,
 * the booking is marked late_cancelled). A place freed goes to the first on the waitlist, returned as `promoted` so the
 * caller can tell them. Giving up what is already given up changes nothing (and promotes no one).
 */
export async function givePlaceBack(t: Tenant, bookingId: number, now: Date, opts: { late?: boolean } = {}) {
  const [b] = await t.db.select().from(class_bookings).where(t.where(class_bookings, eq(class_bookings.id, bookingId)));
  if (!b) throw notFound("No such booking.");
  const cls = await lockClass(t, b.occurrence_id);
  // Read again under the lock: another request may have changed it since.
  const [booking] = await t.db.select().from(class_bookings).where(t.where(class_bookings, eq(class_bookings.id, bookingId)));
  if (booking.status !== "booked" && booking.status !== "waitlisted") return { booking, class: cls, changed: false, promoted: null };
  const [after] = await t.db
    .update(class_bookings)
    .set({ status: opts.late && booking.status === "booked" ? "late_cancelled" : "cancelled", cancelled_at: now, updated_at: now })
    .where(t.where(class_bookings, eq(class_bookings.id, bookingId)))
    .returning();
  const promoted = booking.status === "booked" && !cls.cancelled_at && cls.starts_at > now ? await promoteFirst(t, cls, now) : null;
  return { booking: after, class: cls, changed: true, promoted };
}

/** While the class has a free place and someone waits: the first waiting (oldest) takes it. Under the class's lock. */
export async function promoteFirst(t: Tenant, cls: ClassRow, now: Date): Promise<BookingRow | null> {
  const { booked } = await countsOf(t, cls.id);
  if (booked >= cls.capacity) return null;
  const [first] = await t.db
    .select({ id: class_bookings.id })
    .from(class_bookings)
    .where(t.where(class_bookings, eq(class_bookings.occurrence_id, cls.id), eq(class_bookings.status, "waitlisted")))
    .orderBy(asc(class_bookings.waitlisted_at), asc(class_bookings.id))
    .limit(1);
  if (!first) return null;
  const [moved] = await t.db
    .update(class_bookings)
    .set({ status: "booked", booked_at: now, updated_at: now })
    .where(t.where(class_bookings, and(eq(class_bookings.id, first.id), eq(class_bookings.status, "waitlisted"))))
    .returning();
  return moved ?? null;
}
