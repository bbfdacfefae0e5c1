import { recordWebhookEvent, type EventScope } from "../outgoing-webhooks/events";

/**
 * The outgoing webhooks of group classes (issue 34): what the booking and timetable code calls, in the transaction of
 * the change it tells of (the outbox, decision 0063), once the change is made, so the payload shows the booking or the
 * class as it now is.
 * - `booking.created`: a place taken or a waitlist joined (server/classes/places.ts `takePlace`, by member or staff);
 * - `booking.cancelled`: a booking or waitlist place given up, late or not (`givePlaceBack` when it `changed`), and
 *   each booking a cancelled class cancels;
 * - `class.cancelled`: a class staff cancelled (once: cancelling it again records nothing).
 * A waitlisted member promoted to a place is not a new booking: no event (the integrator sees its status in the data).
 */
export const bookingCreated = (scope: EventScope, bookingId: number, at: Date) => recordWebhookEvent(scope, "booking.created", bookingId, at);

export const bookingCancelled = (scope: EventScope, bookingId: number, at: Date) => recordWebhookEvent(scope, "booking.cancelled", bookingId, at);

export const classCancelled = (scope: EventScope, classId: number, at: Date) => recordWebhookEvent(scope, "class.cancelled", classId, at);
