import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Context } from "hono";
import { formatDateTime, localDay } from "../../domain/dates";
import { refundable } from "../../domain/refunds";
import { surchargeFor } from "../../domain/surcharge";
import { chargePending } from "../billing/charge";
import { applyRefund, pursueRefunds, refundTarget } from "../billing/refunds";
import type { ApiDeps, ApiEnv } from "../core/context";
import { class_bookings, class_occurrences, class_types, gyms, payments } from "../core/db/schema";
import { withTenant, type Tenant } from "../core/db/tenant";
import { now as requestNow } from "../core/middleware";
import { sandboxProviders } from "../core/providers/registry";
import { mailSite } from "../member-mail/brand";
import { recordWebhookEvent } from "../outgoing-webhooks/events";
import { memberFacts } from "./booking-rules";
import { bookingCancelled } from "./events";
import { givePlaceBack, type BookingRow } from "./places";
import { tellDropInDeclined, tellPromoted, tellPromotedAfterCommit } from "./tell";

/**
 * Drop-ins (issue 34, decision 0066): a class the member's membership does not cover, paid for once at the class
 * type's drop-in price. Money moves as every charge does here:
 * - the payment is written in the transaction that takes the place (`drop-in:{booking}` its idempotency key), and the
 *   card is charged once that is committed (server/billing/charge.ts, the billing run's own path: a provider that could
 *   not be reached is asked again with the same key by the next run);
 * - the booking is paid only when the provider says so; a declined card gives the place back (and on to the
 *   waitlist), and the member is told why;
 * - a waitlisted drop-in pays nothing until a place is handed to them, then is charged the same way;
 * - a drop-in given up in time, or whose class is cancelled, is refunded whole to the card; a late one is not. Money
 *   taken at the desk (cash, EFTPOS) goes back at the desk, by staff.
 */
type Deps = Pick<ApiDeps, "db" | "mailer" | "config" | "providers" | "jobs">;

/** How staff took a drop-in at the desk (the member's card otherwise). */
export type DeskMethod = "cash" | "eftpos";

/**
 * Writes the drop-in's payment for a booking holding a place (in the place's transaction) and ties it to the booking.
 * On a card it is pending until charged after the commit; at the desk it is paid as it is written.
 */
export async function recordDropInPayment(
  t: Tenant,
  booking: BookingRow,
  how: { paymentTypeId: number | null; desk?: DeskMethod },
  actorId: number | null,
  now: Date,
): Promise<BookingRow> {
  if (booking.payment_id || !booking.drop_in_amount) return booking;
  const [cls] = await t.db
    .select({
      gym_id: class_occurrences.gym_id,
      starts_at: class_occurrences.starts_at,
      name: class_types.name,
      surcharge: { basisPoints: gyms.card_surcharge_basis_points, fixed: gyms.card_surcharge_fixed },
    })
    .from(class_occurrences)
    .innerJoin(class_types, eq(class_types.id, class_occurrences.class_type_id))
    .innerJoin(gyms, eq(gyms.id, class_occurrences.gym_id))
    .where(t.where(class_occurrences, eq(class_occurrences.id, booking.occurrence_id)));
  const amount = booking.drop_in_amount;
  const byCard = !how.desk;
  const [payment] = await t.db
    .insert(payments)
    .values(
      t.owned({
        gym_id: cls.gym_id,
        user_id: booking.user_id,
        payment_type_id: byCard ? how.paymentTypeId : null,
        amount,
        surcharge: byCard && how.paymentTypeId ? surchargeFor(amount, "stripe_card", cls.surcharge) : 0,
        status: byCard ? "pending" : "sent",
        type: "drop_in",
        idempotency_key: byCard ? `drop-in:${booking.id}` : null,
        pif_payment: how.desk ?? null,
        processed_by: actorId,
        expected_charge_date: localDay(now),
        meta: { class_booking_id: booking.id, class_id: booking.occurrence_id, description: `Drop-in: ${cls.name}, ${formatDateTime(cls.starts_at)}` },
        created_at: now,
      }),
    )
    .returning({ id: payments.id });
  const [after] = await t.db
    .update(class_bookings)
    .set({ payment_id: payment.id, updated_at: now })
    .where(t.where(class_bookings, eq(class_bookings.id, booking.id)))
    .returning();
  // Paid at the desk as it is written down; a card's is news when the provider answers (server/billing/outcomes.ts).
  if (!byCard) await recordWebhookEvent(t, "payment.succeeded", payment.id, now);
  return after;
}

/** A place handed on from the waitlist (in the hand-over's transaction): a drop-in owes its price now, on the card they have now. */
export async function dropInPromoted(t: Tenant, promoted: BookingRow | null, actorId: number | null, now: Date): Promise<BookingRow | null> {
  if (!promoted?.drop_in_amount || promoted.payment_id) return promoted;
  const { card } = await memberFacts(t, promoted.user_id, now);
  return recordDropInPayment(t, promoted, { paymentTypeId: card?.paymentTypeId ?? null }, actorId, now);
}

/** A request's hand-over from the waitlist: a drop-in is charged once committed, anyone else told at once. */
export async function handOnAfterCommit(c: Context<ApiEnv>, promoted: BookingRow | null) {
  // The system charges it (no one at the desk took it): processed_by stays empty.
  const booking = await dropInPromoted(c.var.tenant, promoted, null, requestNow(c));
  if (booking?.payment_id) chargeDropInsAfterCommit(c, [booking.payment_id]);
  else tellPromotedAfterCommit(c, booking);
}

/** The request's card drop-ins, charged once it is committed (and a declined card's place released). */
export function chargeDropInsAfterCommit(c: Context<ApiEnv>, paymentIds: number[]) {
  if (!paymentIds.length) return;
  const deps = c.var.deps;
  const at = requestNow(c);
  c.var.afterCommit(() => chargeDropIns(deps, paymentIds, at));
}

/**
 * Charges drop-in payments (only pending ones are sent; a repeat asks the provider with the same key), then settles
 * what the answers decided: a member promoted from the waitlist and charged is told of their place; a declined card
 * releases its place, and whoever it goes to next is charged or told in turn.
 */
export async function chargeDropIns(deps: Deps, paymentIds: number[], now: Date) {
  const providers = deps.providers ?? sandboxProviders(deps.db);
  let ids = paymentIds;
  // Each round is one hand-over down the waitlist; a class's waitlist is short, the bound only guards a loop.
  for (let round = 0; ids.length && round < 50; round++) {
    await chargePending(deps.db, providers, now, { only: ids });
    const paid = await deps.db
      .select({ booking: class_bookings })
      .from(class_bookings)
      .innerJoin(payments, eq(payments.id, class_bookings.payment_id))
      .where(
        and(inArray(payments.id, ids), eq(payments.status, "sent"), eq(class_bookings.status, "booked"), sql`${class_bookings.waitlisted_at} is not null`),
      );
    for (const { booking } of paid) await tellPromoted(deps, booking.organisation_id, booking);
    ids = await releaseDeclined(deps, now, ids);
  }
  deps.jobs?.start("member-mail");
}

/**
 * Drop-ins whose card was declined, in classes yet to start: each place goes back (to the waitlist's first), and the
 * member is told. `only`: these payments (else every one, for the class-attendance job: a provider's late answer).
 * Answers the payments of drop-ins handed a place meanwhile, still to charge.
 */
export async function releaseDeclined(deps: Deps, now: Date, only?: number[]): Promise<number[]> {
  const declined = await deps.db
    .select({ booking: class_bookings, code: payments.error_status, reason: payments.error_description })
    .from(class_bookings)
    .innerJoin(payments, eq(payments.id, class_bookings.payment_id))
    .innerJoin(class_occurrences, eq(class_occurrences.id, class_bookings.occurrence_id))
    .where(
      and(
        eq(payments.status, "failed"),
        inArray(class_bookings.status, ["booked", "waitlisted"]),
        gt(class_occurrences.starts_at, now),
        only ? inArray(payments.id, only.length ? only : [0]) : undefined,
      ),
    );
  const next: number[] = [];
  for (const { booking, code, reason } of declined) {
    const done = await withTenant(
      deps.db,
      booking.organisation_id,
      null,
      async (t) => {
        const given = await givePlaceBack(t, booking.id, now);
        if (given.changed) await bookingCancelled(t, booking.id, now);
        return { changed: given.changed, promoted: await dropInPromoted(t, given.promoted, null, now) };
      },
      { atomic: true },
    );
    if (!done.changed) continue;
    // The rail's own words are about "the member"; the member reads this one.
    await tellDropInDeclined(
      deps,
      booking.organisation_id,
      booking,
      code === "no_payment_method" ? "you have no card saved" : reason ?? "the card was declined",
    );
    if (done.promoted?.payment_id) next.push(done.promoted.payment_id);
    else if (done.promoted) await tellPromoted(deps, booking.organisation_id, done.promoted);
  }
  return next;
}

/**
 * A drop-in given up in time, or whose class was cancelled, refunded whole to the card it was paid with (in the
 * cancellation's transaction, with its own key: asked twice, refunded once). Answers the refund to send to the
 * provider after the commit, or null: nothing was taken yet (a charge still under way is the billing run's), it was
 * paid at the desk (given back there by staff), or it is refunded already.
 */
export async function refundDropIn(
  t: Tenant,
  booking: BookingRow,
  why: "cancelled_in_time" | "class_cancelled",
  actorId: number | null,
  now: Date,
): Promise<number | null> {
  if (!booking.payment_id) return null;
  // The refund page's own read of a payment and what was given back (applyRefund reads it again under its lock).
  const target = await refundTarget(t, booking.payment_id);
  if (!target || target.p.status !== "sent" || target.p.pif_payment) return null;
  const p = target.p;
  const { left, blocked } = refundable(p.amount + p.surcharge, target.adjustments);
  if (!left || blocked) return null;
  const done = await applyRefund(
    t,
    p.id,
    {
      amount: left,
      reason: why === "class_cancelled" ? "other" : "requested_by_customer",
      note: why === "class_cancelled" ? "The class was cancelled" : "The drop-in was cancelled in time",
      key: `drop-in-${booking.id}`,
    },
    actorId,
    now,
  );
  return done && !done.repeated && done.effect?.through_provider ? done.refund.id : null;
}

/**
 * Drop-ins given up in time (or with their class) while their charge was still under way, paid since: refunded now,
 * as they would have been had the charge been settled at the cancellation (the class-attendance job, by the system).
 * Cancelled in the last 30 days; a payment refunded in full by other means is left alone by refundDropIn.
 */
export async function refundSettledAfterCancel(deps: Deps, now: Date): Promise<number> {
  const owed = await deps.db
    .select({ booking: class_bookings, classCancelled: class_occurrences.cancelled_at })
    .from(class_bookings)
    .innerJoin(payments, eq(payments.id, class_bookings.payment_id))
    .innerJoin(class_occurrences, eq(class_occurrences.id, class_bookings.occurrence_id))
    .where(
      and(
        eq(class_bookings.status, "cancelled"),
        eq(payments.status, "sent"),
        sql`${payments.pif_payment} is null`,
        gt(class_bookings.cancelled_at, new Date(now.getTime() - 30 * 86_400_000)),
        sql`not exists (select 1 from payment_adjustments a where a.payment_id = ${payments.id} and a.kind = 'refund')`,
      ),
    );
  const refunds: number[] = [];
  for (const { booking, classCancelled } of owed) {
    const id = await withTenant(
      deps.db,
      booking.organisation_id,
      null,
      (t) => refundDropIn(t, booking, classCancelled ? "class_cancelled" : "cancelled_in_time", null, now),
      { atomic: true },
    );
    if (id) refunds.push(id);
  }
  if (refunds.length)
    await pursueRefunds(deps.db, deps.providers ?? sandboxProviders(deps.db), { mailer: deps.mailer, site: mailSite(deps.config) }, now, refunds);
  return refunds.length;
}

/** Refunds written in this request, sent to their provider once it is committed (their member told as each settles). */
export function pursueRefundsAfterCommit(c: Context<ApiEnv>, refundIds: (number | null)[]) {
  const ids = refundIds.filter((id): id is number => id !== null);
  if (!ids.length) return;
  const deps = c.var.deps;
  const at = requestNow(c);
  c.var.afterCommit(async () => {
    await pursueRefunds(deps.db, deps.providers ?? sandboxProviders(deps.db), { mailer: deps.mailer, site: mailSite(deps.config) }, at, ids);
  });
}
