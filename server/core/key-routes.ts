/**
 * The routes an integrator's API key may call (issue 33, decision 0062): the API's business records, by area. A key
 * still needs the capability each route checks (its scopes); everything else (the session's own routes, settings,
 * staff, providers' connections, exports for people, the keys and webhooks themselves) answers a key 403, so a
 * route added later is closed to keys until it is listed here. The OpenAPI document (/api/openapi.json) describes
 * exactly these. Paths are Hono's patterns, as the routes declare them.
 */
const ID = ":id{[0-9]+}";
export const KEY_ROUTES = [
  // Gyms: which gyms there are, for every key.
  ["GET", "/api/gyms"],
  ["GET", `/api/gyms/${ID}`],
  // Members
  ["GET", "/api/members"],
  ["POST", "/api/search"],
  ["GET", `/api/members/${ID}`],
  ["PUT", `/api/members/${ID}`],
  ["DELETE", `/api/members/${ID}`],
  ["GET", `/api/members/${ID}/access-control-credentials`],
  ["GET", `/api/members/${ID}/access-control`],
  ["GET", `/api/members/${ID}/profile-picture`],
  ["POST", `/api/members/${ID}/profile-picture`],
  ["GET", `/api/members/${ID}/events`],
  // Memberships
  ["GET", `/api/subscriptions/${ID}`],
  ["GET", `/api/users/${ID}/price-change-history`],
  ["GET", `/api/members/${ID}/subscription-periods`],
  ["POST", `/api/subscriptions/${ID}/pause`],
  ["POST", `/api/subscriptions/${ID}/cancel`],
  ["POST", `/api/subscriptions/${ID}/undo-cancel`],
  ["POST", `/api/subscriptions/${ID}/withdraw-cancel`],
  ["POST", "/api/subscriptions/change-price-email-preview"],
  ["POST", "/api/subscriptions/schedule-price-change"],
  ["POST", `/api/subscriptions/${ID}/remove-price-change`],
  ["GET", `/api/subscriptions/${ID}/start-early-data`],
  ["POST", `/api/subscriptions/${ID}/start-now`],
  ["POST", `/api/members/${ID}/pif`],
  ["POST", `/api/organisations/${ID}/members/onboard-pif`],
  ["POST", `/api/members/${ID}/resend-pif-invite`],
  ["POST", `/api/organisations/${ID}/members/walk-in`],
  // Payments
  ["GET", "/api/payments"],
  ["GET", `/api/users/${ID}/payments`],
  ["GET", `/api/members/${ID}/weekly-cost-per-visit`],
  ["POST", `/api/subscriptions/${ID}/manual-payment`],
  ["POST", `/api/payments/${ID}/received`],
  ["GET", `/api/payments/${ID}/refunds`],
  ["POST", `/api/payments/${ID}/refunds`],
  // Visits
  ["GET", "/api/visits"],
  ["GET", `/api/users/${ID}/visits`],
  ["GET", `/api/members/${ID}/weekly-visits`],
  ["GET", "/api/check-in/members"],
  ["POST", "/api/check-ins"],
  ["GET", `/api/check-ins/${ID}`],
  // Classes: attendance (issue 34)
  ["GET", `/api/members/${ID}/classes`],
  ["GET", "/api/class-occupancy"],
  // Offerings and prices
  ["GET", "/api/offerings"],
  ["POST", "/api/offerings"],
  ["GET", `/api/offerings/${ID}`],
  ["PUT", `/api/offerings/${ID}`],
  ["DELETE", `/api/offerings/${ID}`],
  ["DELETE", `/api/offerings/${ID}/archive`],
  ["POST", `/api/offerings/${ID}/restore`],
  ["GET", `/api/offerings/${ID}/prices`],
  ["POST", `/api/offerings/${ID}/prices`],
  ["GET", "/api/gyms/:gymId{[0-9]+}/offerings"],
  ["GET", "/api/gyms/:gymId{[0-9]+}/offerings/:offeringId{[0-9]+}/unique-memberships"],
  ["GET", `/api/organisations/${ID}/prices`],
  ["PUT", `/api/prices/${ID}`],
  ["DELETE", `/api/prices/${ID}`],
  ["DELETE", `/api/prices/${ID}/archive`],
  ["POST", `/api/prices/${ID}/restore`],
  ["POST", `/api/prices/${ID}/pro-rata`],
  ["GET", "/api/surcharge-total"],
  // Calendar
  ["GET", "/api/appointments"],
  ["POST", "/api/appointments"],
  ["GET", `/api/appointments/${ID}`],
  ["PUT", `/api/appointments/${ID}`],
  ["DELETE", `/api/appointments/${ID}`],
  ["GET", "/api/recurring-schedules"],
  ["POST", "/api/recurring-schedules"],
  ["GET", `/api/recurring-schedules/${ID}`],
  ["PUT", `/api/recurring-schedules/${ID}`],
  ["DELETE", `/api/recurring-schedules/${ID}`],
  ["PUT", `/api/recurring-schedules/${ID}/occurrences/:day`],
  ["DELETE", `/api/recurring-schedules/${ID}/occurrences/:day`],
  ["GET", `/api/users/${ID}/recurring-schedule`],
  // Group classes (issue 34): class types and the timetable.
  ["GET", "/api/class-types"],
  ["POST", "/api/class-types"],
  ["GET", `/api/class-types/${ID}`],
  ["PUT", `/api/class-types/${ID}`],
  ["POST", `/api/class-types/${ID}/archive`],
  ["POST", `/api/class-types/${ID}/restore`],
  ["GET", "/api/class-schedules"],
  ["POST", "/api/class-schedules"],
  ["GET", `/api/class-schedules/${ID}`],
  ["PUT", `/api/class-schedules/${ID}`],
  ["DELETE", `/api/class-schedules/${ID}`],
  ["GET", "/api/classes"],
  ["GET", `/api/classes/${ID}`],
  ["PUT", `/api/classes/${ID}`],
  ["DELETE", `/api/classes/${ID}`],
  // Group classes: a class's roster (booked, waiting, attended) and its bookings, made under the member's own rules.
  ["GET", `/api/classes/${ID}/roster`],
  ["POST", `/api/classes/${ID}/bookings`],
  ["DELETE", `/api/class-bookings/${ID}`],
  ["POST", `/api/class-bookings/${ID}/attendance`],
  ["POST", `/api/classes/${ID}/messages`],
] as const;

const OPEN = new Set(KEY_ROUTES.map(([method, path]) => `${method} ${path}`));

/** Whether a key may call the route of this method and pattern. */
export const openToKeys = (method: string, routePattern: string) => OPEN.has(`${method} ${routePattern}`);
