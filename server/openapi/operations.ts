import type { ZodTypeAny } from "zod";
import { appointmentChange, appointmentRequest, appointmentsQuery, seriesChange, seriesEnd, seriesQuery, seriesRequest } from "../../domain/schemas/calendar";
import { checkInRequest, checkInSearchQuery } from "../../domain/schemas/check-in";
import { attendanceRequest, classMessageRequest, rosterBookingRequest } from "../../domain/schemas/class-bookings";
import {
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
import { classOccupancyQuery } from "../../domain/schemas/class-attendance";
import { memberListQuery, memberUpdateSchema, weeksQuery } from "../../domain/schemas/members";
import { paymentListQuery, visitListQuery } from "../../domain/schemas/money-lists";
import { offeringRequestFields, offeringsQuery, priceRequest } from "../../domain/schemas/offerings";
import { proRataRequest } from "../../domain/schemas/pro-rata";
import { refundRequest } from "../../domain/schemas/refunds";
import { searchSchema } from "../../domain/schemas/search";
import {
  cancelRequest,
  manualPaymentRequest,
  onboardPifRequest,
  pauseRequest,
  pifRequest,
  priceChangeEmailRequest,
  priceChangeRequest,
  undoCancelRequest,
  versionOnlyRequest,
} from "../../domain/schemas/subscriptions";
import { surchargeTotalQuery } from "../../domain/schemas/surcharge";
import { walkInRequest } from "../../domain/schemas/walk-in";
import type { KEY_ROUTES } from "../core/key-routes";
import type { Capability } from "../core/permissions";

type KeyRoute = (typeof KEY_ROUTES)[number];
export type RouteKey = KeyRoute extends infer R ? (R extends readonly [infer M extends string, infer P extends string] ? `${M} ${P}` : never) : never;

/** How one route a key may call is described in the OpenAPI document (server/openapi/document.ts). */
export interface Operation {
  tag: "Gyms" | "Members" | "Memberships" | "Payments" | "Visits" | "Offerings and prices" | "Calendar" | "Classes";
  summary: string;
  description?: string;
  /** The capability (a key's scope) the route needs; null: any key of the organisation. */
  scope: Capability | null;
  /** The route's own schemas, the ones it validates with (readQuery / readBody). */
  query?: ZodTypeAny;
  body?: ZodTypeAny;
  /** A multipart upload instead of a JSON body (a photo). */
  upload?: true;
  /** What a success answers, when it is not JSON (an image). */
  media?: string;
  status?: 200 | 201 | 202;
}

const ID = ":id{[0-9]+}";
const OFFERING_RULES =
  "A limited-hours offering whose hours are mandated needs at least one day in `hours`; an offering not at every gym needs at least one gym in `gyms`.";

/**
 * Every route open to keys, described once. The test in tests/api/openapi.test.ts holds this list and KEY_ROUTES to
 * each other, and each path to a route the API really has.
 */
export const OPERATIONS: Record<RouteKey, Operation> = {
  "GET /api/gyms": { tag: "Gyms", summary: "List the organisation's gyms", scope: "gyms.read", description: "Every key holds `gyms.read`." },
  [`GET /api/gyms/${ID}`]: { tag: "Gyms", summary: "Get a gym", scope: "gyms.read", description: "Every key holds `gyms.read`." },

  "GET /api/members": {
    tag: "Members",
    summary: "List members",
    description: "Paged (50 a page), filtered and sorted; every gym unless `gym` names one.",
    scope: "members.read",
    query: memberListQuery,
  },
  "POST /api/search": { tag: "Members", summary: "Search members by name or e-mail", scope: "members.read", body: searchSchema },
  [`GET /api/members/${ID}`]: { tag: "Members", summary: "Get a member, with their latest membership", scope: "members.read" },
  [`PUT /api/members/${ID}`]: { tag: "Members", summary: "Change a member's profile", scope: "members.write", body: memberUpdateSchema },
  [`DELETE /api/members/${ID}`]: { tag: "Members", summary: "Delete a member (their payments and visits stay)", scope: "members.delete" },
  [`GET /api/members/${ID}/access-control-credentials`]: { tag: "Members", summary: "A member's door credentials", scope: "members.read" },
  [`GET /api/members/${ID}/access-control`]: { tag: "Members", summary: "What a member's membership allows at the door", scope: "members.read" },
  [`GET /api/members/${ID}/profile-picture`]: { tag: "Members", summary: "A member's photo", scope: "members.read", media: "image/jpeg" },
  [`POST /api/members/${ID}/profile-picture`]: {
    tag: "Members",
    summary: "Set a member's photo",
    description: "multipart/form-data with the image in `file`: JPEG, PNG or WebP up to 10 MB.",
    scope: "members.write",
    upload: true,
  },
  [`GET /api/members/${ID}/events`]: { tag: "Members", summary: "What staff did to a member's memberships", scope: "members.read" },

  [`GET /api/subscriptions/${ID}`]: { tag: "Memberships", summary: "Get a membership", scope: "memberships.read" },
  [`GET /api/users/${ID}/price-change-history`]: { tag: "Memberships", summary: "A member's price changes", scope: "money.read" },
  [`GET /api/members/${ID}/subscription-periods`]: { tag: "Memberships", summary: "A member's paid periods", scope: "money.read", query: weeksQuery },
  [`POST /api/subscriptions/${ID}/pause`]: { tag: "Memberships", summary: "Pause a membership", scope: "subscriptions.write", body: pauseRequest },
  [`POST /api/subscriptions/${ID}/cancel`]: { tag: "Memberships", summary: "Cancel a membership", scope: "subscriptions.write", body: cancelRequest },
  [`POST /api/subscriptions/${ID}/undo-cancel`]: { tag: "Memberships", summary: "Undo a cancellation", scope: "subscriptions.write", body: undoCancelRequest },
  [`POST /api/subscriptions/${ID}/withdraw-cancel`]: {
    tag: "Memberships",
    summary: "Withdraw a cancellation that has not taken effect",
    scope: "subscriptions.write",
    body: versionOnlyRequest,
  },
  "POST /api/subscriptions/change-price-email-preview": {
    tag: "Memberships",
    summary: "Preview the e-mail a price change sends",
    scope: "subscriptions.write",
    body: priceChangeEmailRequest,
  },
  "POST /api/subscriptions/schedule-price-change": {
    tag: "Memberships",
    summary: "Move a membership to another price",
    scope: "subscriptions.write",
    body: priceChangeRequest,
  },
  [`POST /api/subscriptions/${ID}/remove-price-change`]: {
    tag: "Memberships",
    summary: "Remove a scheduled price change",
    scope: "subscriptions.write",
    body: versionOnlyRequest,
  },
  [`GET /api/subscriptions/${ID}/start-early-data`]: { tag: "Memberships", summary: "What starting a membership now would cost", scope: "subscriptions.write" },
  [`POST /api/subscriptions/${ID}/start-now`]: {
    tag: "Memberships",
    summary: "Start an upcoming membership now",
    scope: "subscriptions.write",
    body: versionOnlyRequest,
  },
  [`POST /api/members/${ID}/pif`]: {
    tag: "Memberships",
    summary: "Add a paid-in-full membership, paid at the desk",
    description: "Needs money.write too: it records the payment.",
    scope: "subscriptions.write",
    body: pifRequest,
  },
  [`POST /api/organisations/${ID}/members/onboard-pif`]: {
    tag: "Memberships",
    summary: "Add a new member with a paid-in-full membership",
    description: "Needs money.write too: it records the payment. The person is e-mailed an invitation to set a password.",
    scope: "subscriptions.write",
    body: onboardPifRequest,
  },
  [`POST /api/members/${ID}/resend-pif-invite`]: { tag: "Memberships", summary: "Send a paid-in-full member's invitation again", scope: "members.write" },
  [`POST /api/organisations/${ID}/members/walk-in`]: {
    tag: "Memberships",
    summary: "Start a recurring membership for a new member",
    description:
      "The member is created with the price and start day; they are e-mailed a link to choose how to pay, and the membership starts once they confirm. `preview: true` answers the quote only.",
    scope: "subscriptions.write",
    body: walkInRequest,
  },

  "GET /api/payments": { tag: "Payments", summary: "List payments", scope: "money.read", query: paymentListQuery },
  [`GET /api/users/${ID}/payments`]: { tag: "Payments", summary: "A member's payments", scope: "money.read" },
  [`GET /api/members/${ID}/weekly-cost-per-visit`]: { tag: "Payments", summary: "A member's cost per visit, by week", scope: "money.read", query: weeksQuery },
  [`POST /api/subscriptions/${ID}/manual-payment`]: {
    tag: "Payments",
    summary: "Record a payment taken at the desk, or charge what is owed",
    scope: "money.write",
    body: manualPaymentRequest,
  },
  [`POST /api/payments/${ID}/received`]: { tag: "Payments", summary: "Mark a bank transfer as received", scope: "money.write" },
  [`GET /api/payments/${ID}/refunds`]: { tag: "Payments", summary: "A payment's refunds", scope: "money.read" },
  [`POST /api/payments/${ID}/refunds`]: { tag: "Payments", summary: "Refund a payment, in full or in part", scope: "money.write", body: refundRequest },

  "GET /api/visits": { tag: "Visits", summary: "List visits", scope: "visits.read", query: visitListQuery },
  [`GET /api/users/${ID}/visits`]: { tag: "Visits", summary: "A member's visits", scope: "visits.read" },
  [`GET /api/members/${ID}/weekly-visits`]: { tag: "Visits", summary: "A member's visits by week", scope: "visits.read", query: weeksQuery },
  "GET /api/check-in/members": { tag: "Visits", summary: "Find members to check in", scope: "visits.write", query: checkInSearchQuery },
  "POST /api/check-ins": { tag: "Visits", summary: "Check a member in", scope: "visits.write", body: checkInRequest },
  [`GET /api/check-ins/${ID}`]: { tag: "Visits", summary: "Get a check-in", scope: "visits.write" },
  [`GET /api/members/${ID}/classes`]: { tag: "Classes", summary: "A member's classes: attended, missed, booked next", scope: "classes.read" },
  "GET /api/class-occupancy": { tag: "Classes", summary: "Class places taken per week", scope: "classes.read", query: classOccupancyQuery },

  "GET /api/offerings": { tag: "Offerings and prices", summary: "List offerings", scope: "offerings.read", query: offeringsQuery },
  "POST /api/offerings": {
    tag: "Offerings and prices",
    summary: "Create an offering with its prices",
    description: OFFERING_RULES,
    scope: "offerings.write",
    body: offeringRequestFields,
    status: 201,
  },
  [`GET /api/offerings/${ID}`]: { tag: "Offerings and prices", summary: "Get an offering", scope: "offerings.read" },
  [`PUT /api/offerings/${ID}`]: {
    tag: "Offerings and prices",
    summary: "Change an offering",
    description: OFFERING_RULES,
    scope: "offerings.write",
    body: offeringRequestFields,
  },
  [`DELETE /api/offerings/${ID}`]: { tag: "Offerings and prices", summary: "Delete an offering nobody is on", scope: "offerings.write" },
  [`DELETE /api/offerings/${ID}/archive`]: { tag: "Offerings and prices", summary: "Archive an offering", scope: "offerings.write" },
  [`POST /api/offerings/${ID}/restore`]: { tag: "Offerings and prices", summary: "Restore an archived offering", scope: "offerings.write" },
  [`GET /api/offerings/${ID}/prices`]: { tag: "Offerings and prices", summary: "An offering's prices", scope: "offerings.read" },
  [`POST /api/offerings/${ID}/prices`]: {
    tag: "Offerings and prices",
    summary: "Add a price to an offering",
    scope: "offerings.write",
    body: priceRequest,
    status: 201,
  },
  "GET /api/gyms/:gymId{[0-9]+}/offerings": { tag: "Offerings and prices", summary: "The offerings sold at a gym", scope: "offerings.read" },
  "GET /api/gyms/:gymId{[0-9]+}/offerings/:offeringId{[0-9]+}/unique-memberships": {
    tag: "Offerings and prices",
    summary: "How many members are on an offering at a gym",
    scope: "offerings.read",
  },
  [`GET /api/organisations/${ID}/prices`]: { tag: "Offerings and prices", summary: "Every price of the organisation", scope: "offerings.read" },
  [`PUT /api/prices/${ID}`]: { tag: "Offerings and prices", summary: "Change a price", scope: "offerings.write", body: priceRequest },
  [`DELETE /api/prices/${ID}`]: { tag: "Offerings and prices", summary: "Delete a price nobody is on", scope: "offerings.write" },
  [`DELETE /api/prices/${ID}/archive`]: { tag: "Offerings and prices", summary: "Archive a price", scope: "offerings.write" },
  [`POST /api/prices/${ID}/restore`]: { tag: "Offerings and prices", summary: "Restore an archived price", scope: "offerings.write" },
  [`POST /api/prices/${ID}/pro-rata`]: {
    tag: "Offerings and prices",
    summary: "What a first, part period would cost",
    scope: "offerings.read",
    body: proRataRequest,
  },
  "GET /api/surcharge-total": {
    tag: "Offerings and prices",
    summary: "An amount with the card surcharge",
    scope: "offerings.read",
    query: surchargeTotalQuery,
  },

  "GET /api/appointments": { tag: "Calendar", summary: "Appointments and sessions in a range", scope: "calendar.read", query: appointmentsQuery },
  "POST /api/appointments": { tag: "Calendar", summary: "Book an appointment", scope: "calendar.write", body: appointmentRequest, status: 201 },
  [`GET /api/appointments/${ID}`]: { tag: "Calendar", summary: "Get an appointment", scope: "calendar.read" },
  [`PUT /api/appointments/${ID}`]: { tag: "Calendar", summary: "Change an appointment", scope: "calendar.write", body: appointmentChange },
  [`DELETE /api/appointments/${ID}`]: { tag: "Calendar", summary: "Cancel an appointment", scope: "calendar.write" },
  "GET /api/recurring-schedules": { tag: "Calendar", summary: "List recurring schedules", scope: "calendar.read", query: seriesQuery },
  "POST /api/recurring-schedules": { tag: "Calendar", summary: "Create a recurring schedule", scope: "calendar.write", body: seriesRequest, status: 201 },
  [`GET /api/recurring-schedules/${ID}`]: { tag: "Calendar", summary: "Get a recurring schedule", scope: "calendar.read" },
  [`PUT /api/recurring-schedules/${ID}`]: {
    tag: "Calendar",
    summary: "Change a recurring schedule from a day on",
    scope: "calendar.write",
    body: seriesChange,
  },
  [`DELETE /api/recurring-schedules/${ID}`]: { tag: "Calendar", summary: "End a recurring schedule", scope: "calendar.write", query: seriesEnd },
  [`PUT /api/recurring-schedules/${ID}/occurrences/:day`]: {
    tag: "Calendar",
    summary: "Change one session of a recurring schedule",
    scope: "calendar.write",
    body: appointmentChange,
  },
  [`DELETE /api/recurring-schedules/${ID}/occurrences/:day`]: {
    tag: "Calendar",
    summary: "Cancel one session of a recurring schedule",
    scope: "calendar.write",
  },
  [`GET /api/users/${ID}/recurring-schedule`]: { tag: "Calendar", summary: "A member's recurring schedules", scope: "calendar.read" },
  // Group classes (issue 34): class types are the organisation's (a key with classes.write changes them), the timetable a gym's.
  "GET /api/class-types": { tag: "Classes", summary: "List class types", scope: "classes.read", query: classTypesQuery },
  "POST /api/class-types": { tag: "Classes", summary: "Create a class type", scope: "classes.write", body: classTypeRequest, status: 201 },
  [`GET /api/class-types/${ID}`]: { tag: "Classes", summary: "Get a class type", scope: "classes.read" },
  [`PUT /api/class-types/${ID}`]: { tag: "Classes", summary: "Change a class type", scope: "classes.write", body: classTypeRequest },
  [`POST /api/class-types/${ID}/archive`]: { tag: "Classes", summary: "Archive a class type", scope: "classes.write" },
  [`POST /api/class-types/${ID}/restore`]: { tag: "Classes", summary: "Restore an archived class type", scope: "classes.write" },
  "GET /api/class-schedules": { tag: "Classes", summary: "List a timetable's class schedules", scope: "classes.read", query: classSchedulesQuery },
  "POST /api/class-schedules": { tag: "Classes", summary: "Schedule a class, once or weekly", scope: "classes.write", body: classScheduleRequest, status: 201 },
  [`GET /api/class-schedules/${ID}`]: { tag: "Classes", summary: "Get a class schedule", scope: "classes.read" },
  [`PUT /api/class-schedules/${ID}`]: { tag: "Classes", summary: "Change a weekly class from a day on", scope: "classes.write", body: classScheduleChange },
  [`DELETE /api/class-schedules/${ID}`]: { tag: "Classes", summary: "End a class schedule from a day on", scope: "classes.write", query: classScheduleEnd },
  "GET /api/classes": { tag: "Classes", summary: "List classes with their places taken and left", scope: "classes.read", query: classesQuery },
  [`GET /api/classes/${ID}`]: { tag: "Classes", summary: "Get a class", scope: "classes.read" },
  [`PUT /api/classes/${ID}`]: { tag: "Classes", summary: "Change one class", scope: "classes.write", body: classChange },
  [`DELETE /api/classes/${ID}`]: { tag: "Classes", summary: "Cancel one class (those booked are e-mailed)", scope: "classes.write", query: classCancel },
  [`GET /api/classes/${ID}/roster`]: { tag: "Classes", summary: "Get a class's roster", scope: "classes.read" },
  [`POST /api/classes/${ID}/bookings`]: {
    tag: "Classes",
    summary: "Book a member into a class",
    scope: "classes.book",
    body: rosterBookingRequest,
    status: 201,
    description:
      "Under the member's own rules (their membership includes the class type and lets them in, the booking window, the most bookings at once); a full class puts them on its waitlist unless `waitlist` is false.",
  },
  [`DELETE /api/class-bookings/${ID}`]: {
    tag: "Classes",
    summary: "Cancel a class booking",
    scope: "classes.book",
    description: "Late inside the organisation's cancel cut-off; a place freed goes to the first on the waitlist, who is told.",
  },
  [`POST /api/class-bookings/${ID}/attendance`]: {
    tag: "Classes",
    summary: "Mark a booking attended or a no-show",
    scope: "classes.book",
    body: attendanceRequest,
    description: "From 30 minutes before the class.",
  },
  [`POST /api/classes/${ID}/messages`]: {
    tag: "Classes",
    summary: "Message everyone booked into a class",
    scope: "classes.book",
    body: classMessageRequest,
    status: 201,
    description: "E-mailed (and pushed where they allow it) to everyone holding a place, signed with the first name of the admin who made the key.",
  },
};
