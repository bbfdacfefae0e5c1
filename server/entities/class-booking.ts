/**
 * A class booking as the API answers it and its webhooks send it: made in server/classes/booking-entity.ts, beside
 * the booking routes that answer it (the routes may not reach into this folder, which reaches into theirs).
 */
export { classBookingEntity, type ClassBookingEntity } from "../classes/booking-entity";
