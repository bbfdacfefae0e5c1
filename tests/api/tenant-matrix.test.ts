import sharp from "sharp";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi, localJobs } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import * as schema from "../../server/core/db/schema";
import { withTenant } from "../../server/core/db/tenant";
import { sealSecret } from "../../server/core/crypto/secrets";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn } from "./harness";
import { withoutRowLevelSecurity } from "./row-level-security";

/**
 * The tenant-isolation matrix. Alpha's organisation admin walks EVERY route the API registers (from the Hono
 * app's own route list) with Bravo's ids, its query filters and valid bodies, and nothing of Bravo's may come
 * back or change: no Bravo marker in any answer, Bravo-only records 404 or 403, no 5xx, and Bravo's rows
 * byte-for-byte the same afterwards. The two organisations share one person, whom Alpha may read, but only
 * with Alpha's side of her.
 *
 * It runs twice: with row-level security (the product) and without it, so each wall is proven on its own:
 * the queries' own organisation filters, and PostgreSQL's policies (drizzle/0013). "Without" turns the policies off
 * in this test's own database (./row-level-security.ts), not in the product: the server has no such switch, and
 * tests/api/tenant-role.test.ts proves its requests run as gym_tenant.
 * A route that is neither in ROUTES nor in NOT_TENANT_SCOPED fails the test: cover it the day it is added.
 */

/** Text that only Bravo's rows hold. */
const MARKERS = ["Bravo Secret", "BRAVO-SECRET", "bravo-secret", "bravo.secret", "98765"];

type Ids = Record<
  | "bravo"
  | "bravoGym"
  | "bravoOffering"
  | "bravoPrice"
  | "bravoOnly"
  | "shared"
  | "alphaMember"
  | "bravoCall"
  | "bravoSubscription"
  | "bravoPayment"
  | "bravoBulk"
  | "bravoLink"
  | "bravoStaff"
  | "bravoImport"
  | "bravoConversation"
  | "bravoAppointment"
  | "bravoSeries"
  | "bravoClassType"
  | "bravoClassSchedule"
  | "bravoClass"
  | "bravoDifference"
  | "bravoInvitation"
  | "bravoCheckIn"
  | "bravoKey"
  | "bravoEndpoint"
  | "bravoDelivery"
  | "bravoClassBooking",
  number
>;

/** For each path parameter's family, the ids to try: Bravo's, the shared person, and one that exists nowhere. */
function idsFor(path: string, ids: Ids): number[] | null {
  if (/^\/api\/(members|users)\/:id/.test(path)) return [ids.bravoOnly, ids.shared, 2147483647];
  if (/^\/api\/organisations\/:id/.test(path)) return [ids.bravo, 0];
  if (/^\/api\/gyms\/:id/.test(path)) return [ids.bravoGym];
  if (/^\/api\/prices\/:id/.test(path)) return [ids.bravoPrice, 2147483647];
  if (/^\/api\/offerings\/:id/.test(path)) return [ids.bravoOffering, 2147483647];
  if (/^\/api\/webhook-calls\/:id/.test(path)) return [ids.bravoCall, 2147483647];
  if (/^\/api\/reconciliation\/:id/.test(path)) return [ids.bravoDifference, 2147483647];
  if (/^\/api\/subscriptions\/:id/.test(path)) return [ids.bravoSubscription, 2147483647];
  if (/^\/api\/payments\/:id/.test(path)) return [ids.bravoPayment, 2147483647];
  if (/^\/api\/members\/change-price\/:id/.test(path)) return [ids.bravoBulk, 2147483647];
  if (/^\/api\/staff\/:id/.test(path)) return [ids.bravoStaff, ids.shared, 2147483647];
  if (/^\/api\/imports\/:id/.test(path)) return [ids.bravoImport, 2147483647];
  if (/^\/api\/messaging\/conversations\/:id/.test(path)) return [ids.bravoConversation, 2147483647];
  if (/^\/api\/appointments\/:id/.test(path)) return [ids.bravoAppointment, 2147483647];
  if (/^\/api\/recurring-schedules\/:id/.test(path)) return [ids.bravoSeries, 2147483647];
  if (/^\/api\/class-types\/:id/.test(path)) return [ids.bravoClassType, 2147483647];
  if (/^\/api\/class-schedules\/:id/.test(path)) return [ids.bravoClassSchedule, 2147483647];
  if (/^\/api\/classes\/:id/.test(path)) return [ids.bravoClass, 2147483647];
  if (/^\/api\/invitations\/:id/.test(path)) return [ids.bravoInvitation, 2147483647];
  if (/^\/api\/check-ins\/:id/.test(path)) return [ids.bravoCheckIn, 2147483647];
  if (/^\/api\/api-keys\/:id/.test(path)) return [ids.bravoKey, 2147483647];
  if (/^\/api\/webhook-endpoints\/:id/.test(path)) return [ids.bravoEndpoint, 2147483647];
  if (/^\/api\/class-bookings\/:id/.test(path)) return [ids.bravoClassBooking, 2147483647];
  return null;
}

type Plan = {
  /** Query strings to add (Bravo's ids as filters, text that matches Bravo's people). */
  queries?: (ids: Ids) => string[];
  body?: (ids: Ids) => unknown;
  /** Whether answers about the shared person may succeed (Alpha's side of her). */
  sharedMayAnswer?: boolean;
};

const profile = {
  name: "Alpha Wrote This",
  email: "alpha.wrote@example.com",
  email_notifications: "on",
  tags: "alpha-tag",
  notes: "Alpha's note",
};

/** Every tenant-scoped route, and how the matrix exercises it. */
const ROUTES: Record<string, Plan> = {
  "GET /api/members": {
    queries: (i) => ["", `gym=${i.bravoGym}`, `offering=${i.bravoOffering}`, `price=${i.bravoPrice}`, "q=bravo", "q=secret", "tag=bravo-secret-tag", "gym=all"],
  },
  "POST /api/members/export": {
    body: () => ({ gym: "all" }),
    queries: () => [""],
  },
  "GET /api/members/:id": { sharedMayAnswer: true },
  "PUT /api/members/:id": { body: () => profile, sharedMayAnswer: true },
  "DELETE /api/members/:id": { sharedMayAnswer: true },
  "GET /api/users/:id/payments": { sharedMayAnswer: true },
  "GET /api/users/:id/visits": { sharedMayAnswer: true },
  "GET /api/members/:id/access-control-credentials": { sharedMayAnswer: true },
  "GET /api/users/:id/price-change-history": { sharedMayAnswer: true },
  "POST /api/members/:id/profile-picture": { sharedMayAnswer: true },
  "GET /api/members/:id/profile-picture": { sharedMayAnswer: true },
  "GET /api/members/:id/weekly-visits": { sharedMayAnswer: true },
  "GET /api/members/:id/weekly-cost-per-visit": { sharedMayAnswer: true },
  "GET /api/members/:id/subscription-periods": { sharedMayAnswer: true },
  "GET /api/members/:id/classes": { sharedMayAnswer: true },
  "GET /api/class-occupancy": { queries: () => ["", "weeks=52"] },
  "GET /api/offerings": { queries: () => ["", "status=archived", "status=all"] },
  "GET /api/offerings/form-options": {},
  "POST /api/offerings": {
    body: (i) => ({ name: "Alpha Wrote This", type: "24_7", gyms: [i.bravoGym], prices: [{ amount: 100, billing_frequency: "weekly" }] }),
  },
  "GET /api/offerings/:id": {},
  "PUT /api/offerings/:id": { body: () => ({ name: "Alpha Wrote This", type: "24_7", all_gyms_access: true }) },
  "DELETE /api/offerings/:id": {},
  "DELETE /api/offerings/:id/archive": {},
  "POST /api/offerings/:id/restore": {},
  "GET /api/offerings/:id/prices": {},
  "POST /api/offerings/:id/prices": { body: () => ({ amount: 100, billing_frequency: "weekly" }) },
  "GET /api/gyms/:gymId/offerings": {},
  "GET /api/gyms/:gymId/offerings/:offeringId/unique-memberships": {},
  "PUT /api/prices/:id": { body: () => ({ amount: 1, billing_frequency: "weekly" }) },
  "DELETE /api/prices/:id": {},
  "DELETE /api/prices/:id/archive": {},
  "POST /api/prices/:id/restore": {},
  "POST /api/prices/:id/private-links": { body: () => ({ age_bypass: true }) },
  "DELETE /api/prices/:id/private-links/:linkId": {},
  "GET /api/gyms": {},
  "POST /api/gyms": { body: () => ({ name: "Alpha Wrote This" }) },
  "DELETE /api/gyms/:id/archive": {},
  "POST /api/gyms/:id/restore": {},
  "GET /api/gyms/:id": {},
  "PUT /api/gyms/:id": { body: () => ({ name: "Alpha Wrote This" }) },
  "PUT /api/gyms/:id/tracks-visits": { body: () => ({ tracks_visits: true }) },
  "PUT /api/gyms/:gymId/destination-accounts/:accountId": {
    body: () => ({ name: "Alpha Wrote This", bank_account_number: "12-3140-0071234-00", bank_account_number_confirmation: "12-3140-0071234-00" }),
  },
  "POST /api/gyms/:id/logo": {},
  "POST /api/gyms/:id/stripe/redirect": {},
  "POST /api/gyms/:id/gocardless/redirect": {},
  "POST /api/stripe/exchange": { body: () => ({ code: "oauth_sandbox_bravo", state: "1.1.1.stripe.9999999999999.x.y" }) },
  "POST /api/gocardless/exchange": { body: () => ({ code: "OA_sandbox_bravo", state: "1.1.1.gocardless.9999999999999.x.y" }) },
  "PUT /api/gyms/:id/branch-config": { body: () => ({ key: "key_live_alpha" }) },
  "PUT /api/gyms/:id/akahu-config": { body: () => ({ app_token: "app_token_alpha", secret: "alpha-secret" }) },
  "PUT /api/gyms/:id/onesignal-config": { body: () => ({ app_id: "alpha", api_auth_key: "alpha-key" }) },
  "GET /api/organisations/:id": {},
  "PUT /api/organisations/:id": { body: () => ({ name: "Alpha Wrote This" }) },
  "PUT /api/organisations/:id/grace-period": { body: () => ({ period: 1, unit: "day" }) },
  "PUT /api/organisations/:id/term-membership-grace-period": { body: () => ({ period: 1, unit: "day" }) },
  "PUT /api/organisations/:id/minimum-age": { body: () => ({ minimum_age: 99 }) },
  "PUT /api/organisations/:id/member-mail": { body: () => ({ payment_receipts: false, signup_reminders: true }) },
  "PUT /api/organisations/:id/member-self-service": {
    body: () => ({ members_may_pause: true, member_pause_days_per_year: 7, members_may_cancel: true, member_cancel_notice_days: 30 }),
  },
  "PUT /api/organisations/:id/membership-terms": { body: () => ({ text: "Alpha wrote these terms." }) },
  "PUT /api/organisations/:id/offering-permissions": { body: () => ({ enable_offerings: false, non_stop: false, limited_access: false }) },
  "PUT /api/organisations/:id/price-frequencies": { body: () => ({ weekly: false }) },
  "GET /api/organisations/:id/akahu-webhooks": {},
  "GET /api/organisations/:id/age-bypass-links": {},
  "POST /api/organisations/:id/age-bypass-links": {},
  "DELETE /api/organisations/:id/age-bypass-links/:linkId": {},
  "GET /api/organisations/:id/prices": {},
  "GET /api/organisations/:id/staff": { queries: () => ["", "status=removed", "search=bravo"] },
  "POST /api/organisations/:id/staff": { body: () => ({ email: "alpha.wrote@example.com", name: "Alpha Wrote This", role: "admin" }) },
  "GET /api/organisations/:id/staff/form-options": {},
  "POST /api/organisations/:id/staff-exists": { body: () => ({ email: "bravo.secret.admin@example.com" }) },
  "GET /api/staff/:id": {},
  "PUT /api/staff/:id": { body: () => ({ name: "Alpha Wrote This", role: "admin", calendar_colour: "red" }) },
  "DELETE /api/staff/:id": {},
  "POST /api/staff/:id/resend-invitation": {},
  "POST /api/staff/:id/kisi-access": { body: () => ({ access_enabled: false }) },
  "POST /api/staff/:id/deactivate": {},
  "POST /api/staff/:id/reactivate": {},
  "GET /api/gyms/:id/imports": {},
  "GET /api/organisations/:id/invitations": { queries: () => ["kind=staff", "kind=member"] },
  "DELETE /api/invitations/:id": { queries: () => ["kind=staff", "kind=member"] },
  "POST /api/gyms/:id/imports": { body: () => ({ csv: "email,name\nalpha.wrote@example.com,Alpha Wrote This\n" }) },
  "GET /api/imports/:id": {},
  "GET /api/imports/:id/prices": {},
  "GET /api/imports/:id/plans": {},
  "PUT /api/imports/:id": { body: () => ({ mapping: ["email", "name"], date_order: "dmy", plans: {} }) },
  "POST /api/imports/:id/confirm": {},
  "DELETE /api/imports/:id": {},
  "GET /api/imports/:id/rejected": {},
  "POST /api/imports/:id/invite": {},
  "GET /api/messaging/conversations": { queries: () => ["", "search=bravo", "unread=1"] },
  "GET /api/messaging/conversation-messages": { queries: (i) => [`conversation_id=${i.bravoConversation}`] },
  "POST /api/messaging/send": { body: (i) => ({ conversation_id: i.bravoConversation, body: "Alpha Wrote This" }) },
  "PUT /api/messaging/conversations/:id/read": {},
  "GET /api/member/messages": {},
  "GET /api/appointments": {
    queries: (i) => [`from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z`, `from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&trainer_id=${i.bravoStaff}`],
  },
  "GET /api/appointments/:id": {},
  "POST /api/appointments": {
    body: (i) => ({ trainer_id: i.bravoStaff, member_id: i.bravoOnly, gym_id: i.bravoGym, starts_at: "2026-01-05T09:00:00Z", ends_at: "2026-01-05T10:00:00Z" }),
  },
  "PUT /api/appointments/:id": { body: () => ({ starts_at: "2026-01-06T09:00:00Z", ends_at: "2026-01-06T10:00:00Z" }) },
  "DELETE /api/appointments/:id": {},
  "GET /api/recurring-schedules": { queries: (i) => ["", `trainer_id=${i.bravoStaff}`, `member_id=${i.bravoOnly}&ended=1`] },
  "POST /api/recurring-schedules": {
    body: (i) => ({
      trainer_id: i.bravoStaff,
      member_id: i.bravoOnly,
      gym_id: i.bravoGym,
      days: [2],
      start_time: "09:00",
      end_time: "10:00",
      starts_on: "2030-01-01",
    }),
  },
  "GET /api/recurring-schedules/:id": {},
  "PUT /api/recurring-schedules/:id": { body: () => ({ from: "2030-01-01", days: [3], start_time: "09:00", end_time: "10:00" }) },
  "DELETE /api/recurring-schedules/:id": { queries: () => ["", "from=2030-01-01"] },
  "PUT /api/recurring-schedules/:id/occurrences/:day": { body: () => ({ starts_at: "2030-01-07T09:00:00Z", ends_at: "2030-01-07T10:00:00Z" }) },
  "DELETE /api/recurring-schedules/:id/occurrences/:day": {},
  "GET /api/class-types": { queries: () => ["", "archived=1"] },
  "GET /api/class-types/form-options": {},
  "POST /api/class-types": { body: (i) => ({ name: "Alpha Wrote This", duration_minutes: 30, default_capacity: 5, offering_ids: [i.bravoOffering], price_ids: [i.bravoPrice] }) },
  "GET /api/class-types/:id": {},
  "PUT /api/class-types/:id": { body: () => ({ name: "Alpha Wrote This", duration_minutes: 30, default_capacity: 5 }) },
  "POST /api/class-types/:id/archive": {},
  "POST /api/class-types/:id/restore": {},
  "GET /api/class-schedules": { queries: (i) => ["", `gym_id=${i.bravoGym}&ended=1`] },
  "POST /api/class-schedules": {
    body: (i) => ({ gym_id: i.bravoGym, class_type_id: i.bravoClassType, trainer_id: i.bravoStaff, repeat: "weekly", days: [2], starts_on: "2030-01-01", start_time: "07:00" }),
  },
  "GET /api/class-schedules/:id": {},
  "PUT /api/class-schedules/:id": { body: (i) => ({ from: "2030-01-08", days: [3], start_time: "07:00", trainer_id: i.bravoStaff }) },
  "DELETE /api/class-schedules/:id": { queries: () => ["", "from=2030-01-08"] },
  "GET /api/classes": {
    queries: (i) => [`from=2030-01-01T00:00:00Z&to=2030-01-20T00:00:00Z`, `from=2030-01-01T00:00:00Z&to=2030-01-20T00:00:00Z&gym_id=${i.bravoGym}&cancelled=1`, `from=2030-01-01T00:00:00Z&to=2030-01-20T00:00:00Z&trainer_id=${i.bravoStaff}`],
  },
  "GET /api/classes/:id": {},
  "PUT /api/classes/:id": { body: (i) => ({ starts_at: "2030-01-07T09:00:00Z", ends_at: "2030-01-07T10:00:00Z", trainer_id: i.bravoStaff, capacity: 5, waitlist_size: 0 }) },
  "DELETE /api/classes/:id": { queries: () => ["", "reason=Alpha"] },
  "GET /api/organisations/:id/class-booking-rules": {},
  "PUT /api/organisations/:id/class-booking-rules": { body: () => ({ class_booking_window_days: 1, class_cancel_cutoff_minutes: 1, class_max_bookings: 1 }) },
  "GET /api/users/:id/recurring-schedule": { sharedMayAnswer: true },
  "GET /api/calendar-feed": {},
  "POST /api/calendar-feed": {},
  "DELETE /api/calendar-feed": {},
  "POST /api/member/messages": { body: () => ({ body: "Alpha Wrote This" }) },
  "GET /api/organisations/:id/access-control/integration": {},
  "POST /api/organisations/:id/access-control/integration": { body: () => ({ integration_type: "kisi" }) },
  "GET /api/organisations/:id/access-control/places": {},
  "GET /api/organisations/:id/access-control/places/:placeId/doors": {},
  "POST /api/gyms/:id/access-control/places": { body: () => ({ place_id: "1" }) },
  "POST /api/search": { body: () => ({ query: "bravo" }) },
  "GET /api/check-in/members": { queries: () => ["q=bravo", "q=secret", "q=98765"] },
  "POST /api/check-ins": { body: (i) => ({ user_id: i.bravoOnly, key: "alpha-wrote-this" }) },
  "POST /api/check-ins/kiosk": { body: () => ({ code: "BRAV0000", key: "alpha-wrote-this" }) },
  "GET /api/check-ins/:id": {},
  "GET /api/kiosk": {},
  "POST /api/prices/:id/pro-rata": { body: () => ({ start_date: "2026-05-15" }) },
  "GET /api/surcharge-total": {
    queries: (i) => [`price_id=${i.bravoPrice}&payment_type=stripe_card`, `price_id=${i.bravoPrice}&payment_type=stripe_card&gym_id=${i.bravoGym}`],
  },
  "GET /api/stats": {},
  "GET /api/dashboard": { queries: () => ["", "weeks=52"] },
  "GET /api/active-users": { queries: () => ["", "weeks=52"] },
  "GET /api/user-breakdown": {},
  "GET /api/cost-and-visit-breakdown": {},
  "GET /api/messaging/unread-messages": {},
  "POST /api/organisations/:id/switch": {},
  "POST /api/gyms/:id/switch": {},
  "GET /api/webhook-calls": { queries: () => ["", "provider=stripe", "status=processed", "from=2020-01-01"] },
  "GET /api/webhook-calls/:id": {},
  "POST /api/webhook-calls/:id/replay": {},
  "GET /api/reconciliation": { queries: () => ["", "status=all", "status=explained", "page=2"] },
  "POST /api/reconciliation/:id/explain": { body: () => ({ explanation: "Alpha explains" }) },
  "GET /api/webhooks": {},
  "GET /api/api-keys": {},
  "POST /api/api-keys": { body: () => ({ name: "Alpha Wrote This", members: "read" }) },
  "DELETE /api/api-keys/:id": {},
  "GET /api/expected-payments-debugging": {
    queries: (i) => [
      "from=2020-01-01&to=2020-03-01",
      `from=${new Date(Date.now() - 30 * 864e5).toISOString().slice(0, 10)}&to=${new Date().toISOString().slice(0, 10)}`,
      `from=2026-01-01&to=2026-02-01&gym=${i.bravoGym}`,
    ],
  },
  "GET /api/payments": {
    queries: (i) => ["", "gym=all", `gym=${i.bravoGym}`, `member=${i.bravoOnly}&gym=all`, "q=bravo&gym=all", "from=2020-01-01&to=2020-12-31&gym=all"],
  },
  "POST /api/payments/export": { body: () => ({ gym: "all" }), queries: () => [""] },
  "GET /api/visits": { queries: (i) => ["", "gym=all", `gym=${i.bravoGym}`, `member=${i.bravoOnly}&gym=all`, "q=secret&gym=all"] },
  "POST /api/visits/export": { body: () => ({ gym: "all" }), queries: () => [""] },
  "GET /api/subscriptions/:id": {},
  "POST /api/subscriptions/:id/pause": { body: () => ({ action: "credit", days: 5, version: 1 }) },
  "POST /api/subscriptions/:id/cancel": { body: () => ({ when: "now", reasons: ["cost"], version: 1 }) },
  "POST /api/subscriptions/:id/undo-cancel": { body: () => ({ version: 1 }) },
  "POST /api/subscriptions/:id/withdraw-cancel": { body: () => ({ version: 1 }) },
  "POST /api/subscriptions/change-price-email-preview": { body: (i) => ({ subscription_id: i.bravoSubscription, price_id: i.bravoPrice, from: "period_end" }) },
  "POST /api/subscriptions/schedule-price-change": {
    body: (i) => ({ subscription_id: i.bravoSubscription, price_id: i.bravoPrice, from: "period_end", version: 1 }),
  },
  "POST /api/subscriptions/:id/remove-price-change": { body: () => ({ version: 1 }) },
  "GET /api/subscriptions/:id/start-early-data": {},
  "POST /api/subscriptions/:id/start-now": { body: () => ({ version: 1 }) },
  "POST /api/subscriptions/:id/manual-payment": { body: () => ({ method: "cash", key: "tenant-matrix-0001", version: 1 }) },
  "POST /api/payments/:id/received": {},
  "GET /api/payments/:id/refunds": {},
  "POST /api/payments/:id/refunds": { body: () => ({ amount: 100, reason: "requested_by_customer", key: "tenant-matrix-0003" }) },
  "POST /api/members/change-price/preview": { body: (i) => ({ from_price_ids: [i.bravoPrice], to_price_id: i.bravoPrice, from: "period_end", gym: "all" }) },
  "POST /api/members/change-price": {
    body: (i) => ({ from_price_ids: [i.bravoPrice], to_price_id: i.bravoPrice, from: "period_end", gym: "all", key: "alpha-form-key-1" }),
  },
  "GET /api/members/change-price": {},
  "GET /api/members/change-price/:id": { queries: () => ["", "show=all"] },
  "POST /api/members/:id/pif": {
    body: (i) => ({ price_id: i.bravoPrice, start: new Date().toISOString().slice(0, 10), method: "cash", key: "tenant-matrix-0002" }),
    sharedMayAnswer: true,
  },
  "GET /api/members/:id/events": { sharedMayAnswer: true },
  "POST /api/organisations/:id/members/onboard-pif": {
    body: (i) => ({
      name: "Bravo Secret Joiner",
      email: "bravo.joiner@example.com",
      gym_id: i.bravoGym,
      price_id: i.bravoPrice,
      start: new Date().toISOString().slice(0, 10),
      method: "cash",
      key: "tenant-matrix-0003",
    }),
  },
  "POST /api/organisations/:id/members/walk-in": {
    body: (i) => ({
      name: "Bravo Secret Walk-in",
      email: "bravo.walkin@example.com",
      dob: "1990-01-01",
      gym_id: i.bravoGym,
      price_id: i.bravoPrice,
      start: new Date().toISOString().slice(0, 10),
      key: "tenant-matrix-0004",
    }),
  },
  "POST /api/members/:id/resend-pif-invite": { sharedMayAnswer: true },
  "GET /api/members/:id/access-control": { sharedMayAnswer: true },
  "POST /api/users/:id/recreate-kisi-login": { sharedMayAnswer: true },
  // Outgoing webhooks (issue 33). An address that would be accepted would have Alpha's own events sent to it: these
  // are refused (a private address), so nothing leaves the machine; Bravo's ids answer 404 before the address matters.
  "GET /api/webhook-endpoints": {},
  "POST /api/webhook-endpoints": { body: () => ({ url: "https://10.0.0.1/alpha", description: "Alpha Wrote This", events: ["member.created"] }) },
  "GET /api/webhook-endpoints/:id": {},
  "PUT /api/webhook-endpoints/:id": { body: () => ({ url: "https://10.0.0.1/alpha", description: "Alpha Wrote This", events: ["member.created"] }) },
  "DELETE /api/webhook-endpoints/:id": {},
  "POST /api/webhook-endpoints/:id/rotate-secret": {},
  "POST /api/webhook-endpoints/:id/disable": {},
  "POST /api/webhook-endpoints/:id/enable": {},
  "POST /api/webhook-endpoints/:id/test": {},
  "GET /api/webhook-endpoints/:id/deliveries": { queries: () => ["", "status=succeeded", "page=2"] },
  "GET /api/webhook-endpoints/:id/deliveries/:deliveryId": {},
  "POST /api/webhook-endpoints/:id/deliveries/:deliveryId/resend": {},
  // Group classes' rosters (issue 34)
  "GET /api/classes/:id/roster": {},
  "POST /api/classes/:id/bookings": { body: (i) => ({ member_id: i.alphaMember }) },
  "DELETE /api/class-bookings/:id": {},
  "POST /api/class-bookings/:id/attendance": { body: () => ({ attended: true }) },
  "POST /api/classes/:id/messages": { body: () => ({ body: "Alpha Wrote This" }) },
  "GET /api/active-user-debugging": {
    queries: (i) => [`member=${i.bravoOnly}&day=2026-01-01`, `member=${i.shared}&day=${new Date().toISOString().slice(0, 10)}`],
    sharedMayAnswer: true,
  },
};

/**
 * Routes that are not about one organisation's data, each with why. They are not walked (signing out or in
 * would end the walk's session); their own suites cover them.
 */
const NOT_TENANT_SCOPED: Record<string, string> = {
  "GET /api/openapi.json": "the API's public description, the same for everyone (tests/api/openapi.test.ts)",
  "GET /api/docs": "the page that reads the public description (tests/api/openapi.test.ts)",
  "GET /api/docs/:file": "that page's script and stylesheet (tests/api/openapi.test.ts)",
  "POST /api/invitations/describe": "the invited person's answer, by the e-mailed link's token alone (tests/api/people-across-organisations.test.ts)",
  "POST /api/invitations/accept": "the invited person's answer, by the e-mailed link's token alone (tests/api/people-across-organisations.test.ts)",
  "POST /api/invitations/decline": "the invited person's answer, by the e-mailed link's token alone (tests/api/people-across-organisations.test.ts)",
  "GET /api/me": "the signed-in person's own record and the places they belong to (tests/api/session.test.ts)",
  "POST /api/kiosk": "turns the caller's own session into the kiosk at the gym they are at; names no record (tests/api/check-in.test.ts)",
  "POST /api/profile-picture": "a member's own photo, in their own organisation; staff are refused (tests/api/signup.test.ts)",
  "GET /api/me/profile-picture": "a member's own photo; staff are refused (tests/api/signup.test.ts)",
  "GET /api/me/signup": "a member's own sign-up, in their own organisation; staff are refused (tests/api/signup.test.ts)",
  "PUT /api/me/register-fields": "a member's own details; staff are refused (tests/api/signup.test.ts)",
  "POST /api/me/payment-types/:id/switch": "only the member's own payment types; another's is 404 (tests/api/signup.test.ts)",
  "POST /api/stripe/setup-session": "a member's own card page; staff are refused (tests/api/signup.test.ts)",
  "POST /api/stripe/sync-payment-method": "a member's own card page, checked against its reference (tests/api/signup.test.ts)",
  "POST /api/subscriptions": "a member's own membership at their own gym; staff are refused (tests/api/signup.test.ts)",
  "GET /api/me/active-subscription": "a member's own membership; staff are refused (tests/api/signup.test.ts)",
  "GET /api/me/membership": "a member's own membership; staff are refused (tests/api/self-service.test.ts)",
  "GET /api/me/payments": "a member's own payments; staff are refused (tests/api/self-service.test.ts)",
  "GET /api/me/details": "a member's own details; staff are refused (tests/api/self-service.test.ts)",
  "PUT /api/me/details": "a member's own details; staff are refused (tests/api/self-service.test.ts)",
  "GET /api/me/membership/actions": "what a member may do to their own membership; staff are refused (tests/api/member-actions.test.ts)",
  "POST /api/me/membership/pause": "a member pausing their own membership, found from the session (tests/api/member-actions.test.ts)",
  "POST /api/me/membership/cancel": "a member cancelling their own membership, found from the session (tests/api/member-actions.test.ts)",
  "POST /api/me/membership/undo-cancel": "a member undoing their own cancellation, found from the session (tests/api/member-actions.test.ts)",
  "POST /api/me/membership/pay-owing": "a member paying what is owing on their own membership, found from the session (tests/api/member-payment.test.ts)",
  "GET /api/me/calendar-feed": "a member's own feed link; staff are refused (tests/api/classes-book.test.ts)",
  "POST /api/me/calendar-feed": "a member's own feed link; staff are refused (tests/api/classes-book.test.ts)",
  "DELETE /api/me/calendar-feed": "a member's own feed link; staff are refused (tests/api/classes-book.test.ts)",
  "GET /api/me/classes": "the classes at a member's own gym, with their own bookings; staff are refused (tests/api/classes-book.test.ts)",
  "POST /api/me/class-bookings": "a member booking themselves; a class of another organisation is 404 (tests/api/classes-book.test.ts)",
  "DELETE /api/me/class-bookings/:id": "a member's own booking; another's is 404 (tests/api/classes-book.test.ts)",
  "GET /api/me/payments/:id/receipt": "a member's own successful payment; another's is 404 (tests/api/self-service.test.ts)",
  "GET /api/me/signup/quote": "prices on sale at the member's own gym; staff are refused (tests/api/signup.test.ts)",
  "GET /api/me/app-link": "a link to the member's own welcome page; staff are refused (tests/api/signup.test.ts)",
  "GET /api/gocardless/mandate-url": "a member's own mandate page; staff are refused (tests/api/signup.test.ts)",
  "GET /api/akahu/auth-url":
    "a member's own bank consent (tests/api/signup.test.ts), or for a gym's admins their gym's open-banking app: another organisation's gym_id is refused (tests/api/spec-contract.test.ts)",
  "POST /api/akahu/exchange": "a member's own consent, its signed state naming them (tests/api/signup.test.ts)",
  "POST /api/akahu/sync-accounts": "a member's own shared accounts; staff are refused (tests/api/signup.test.ts)",
  "GET /api/calendar-feeds/:file":
    "a trainer's (or a member's) own calendar feed, found by its unguessable token alone, read in its own organisation (tests/api/recurring-schedules.test.ts, tests/api/classes-book.test.ts)",
  "POST /api/webhooks/kisi": "the door system's events, signed, for whichever organisation's door they name (tests/api/doors.test.ts)",
  "GET /api/sandbox/kisi/places/:placeId":
    "the sandbox door panel: only the session's own organisation's sandbox account answers (tests/api/doors.test.ts); none in production",
  "POST /api/sandbox/kisi/locks/:lockId/unlock":
    "the sandbox door panel: only the session's own organisation's sandbox account answers (tests/api/doors.test.ts); none in production",
  "GET /api/sandbox/akahu/authorize/:id": "the sandbox bank's own consent page, by an unguessable id; none in production",
  "POST /api/sandbox/akahu/authorize/:id": "the sandbox bank's own consent page, by an unguessable id; none in production",
  "POST /api/sandbox/akahu/authorize/:id/deny": "the sandbox bank's own consent page, by an unguessable id; none in production",
  "POST /api/gocardless/sync-payment-method": "a member's own mandate, checked against its reference (tests/api/signup.test.ts)",
  "GET /api/sandbox/gocardless/flow/:id": "the sandbox direct debit provider's own page, by an unguessable id; none in production",
  "POST /api/sandbox/gocardless/flow/:id": "the sandbox direct debit provider's own page, by an unguessable id; none in production",
  "POST /api/sandbox/gocardless/flow/:id/cancel": "the sandbox direct debit provider's own page, by an unguessable id; none in production",
  "GET /api/sandbox/:service/connect/:id": "the sandbox providers' account-connection page, by an unguessable id; none in production",
  "POST /api/sandbox/:service/connect/:id": "the sandbox providers' account-connection page, by an unguessable id; none in production",
  "POST /api/sandbox/:service/connect/:id/cancel": "the sandbox providers' account-connection page, by an unguessable id; none in production",
  "GET /api/sandbox/stripe/checkout/:id": "the sandbox card provider's own page, by an unguessable session id; none in production",
  "POST /api/sandbox/stripe/checkout/:id": "the sandbox card provider's own page, by an unguessable session id; none in production",
  "POST /api/sandbox/stripe/checkout/:id/cancel": "the sandbox card provider's own page, by an unguessable session id; none in production",
  "POST /api/login": "sign-in: no organisation yet",
  "POST /api/logout": "ends the caller's own session",
  "POST /api/email/verify": "the caller's own e-mailed code",
  "POST /api/email/resend": "the caller's own e-mailed code",
  "POST /api/forgot-password": "public; the same answer for every address",
  "POST /api/login-link": "public; the same answer for every address (tests/api/sign-in-links.test.ts)",
  "POST /api/login-link/check": "public; checks the caller's own link token",
  "POST /api/login-link/claim": "redeems the caller's own link token",
  "POST /api/session/handoff": "a one-time token for the caller's own session",
  "POST /api/session/claim": "redeems such a token",
  "POST /api/validate-link": "public; checks the caller's own link token",
  "POST /api/reset-password": "public; sets the password of the link's owner",
  "POST /api/register": "public sign-up form (tests/api/register.test.ts)",
  "POST /api/unique-email": "public sign-up form's check; says only whether an address is free",
  "POST /api/webhooks/stripe": "a provider's signed call, no session: stored and processed by its event (tests/api/webhooks.test.ts)",
  "POST /api/webhooks/gocardless": "a provider's signed call, no session: stored and processed by its event (tests/api/webhooks.test.ts)",
  "POST /api/webhooks/akahu": "a provider's signed call, no session: stored and processed by its event (tests/api/billing-rails.test.ts)",
  "GET /api/links/:code": "public: the sandbox Branch's short link, a redirect to the web page it was made for (tests/api/billing-rails.test.ts)",
  // Public on purpose, and across organisations by design: every gym anyone may join, with what the gym shows on
  // its door (name, logo, its organisation's name, the uuid its sign-up link names). Never an id, an account,
  // a provider id or a setting: tests/api/public-gyms.test.ts holds it to exactly those fields. Read-only.
  "GET /api/public/gyms": "public: the sign-up chooser's list of gyms, public fields only (tests/api/public-gyms.test.ts)",
  "GET /api/public/gyms/:uuid/membership-terms":
    "public: the terms people accept when they join a gym, by its uuid, as any shop's terms are (tests/api/member-mail.test.ts)",
  "GET /api/public/unsubscribe":
    "public: a member's signed unsubscribe token names them; no organisation's data beyond their own masked address (tests/api/member-mail.test.ts)",
  "POST /api/public/unsubscribe":
    "public: a member's signed unsubscribe token turns their own e-mails off, from a mail app or our page (tests/api/member-mail.test.ts)",
  "GET /api/public/gyms/:uuid/logo": "public: a gym's logo, by the uuid a sign-up link names, shown before anyone signs in (tests/api/gyms.test.ts)",
  "GET /api/public/gyms/:uuid": "public: one gym of that list, by the uuid a sign-up link names (tests/api/public-gyms.test.ts)",
};

/** "GET /api/members/:id" from Hono's route list ("/api/members/:id{[0-9]+}"). */
const keyOf = (method: string, path: string) => `${method} ${path.replace(/\{[^}]*\}/g, "")}`;

function apiRoutes(api: ReturnType<typeof createApi>) {
  const seen = new Map<string, { method: string; path: string }>();
  for (const r of api.routes) {
    if (r.method === "ALL") continue; // middleware
    seen.set(keyOf(r.method, r.path), { method: r.method, path: r.path.replace(/\{[^}]*\}/g, "") });
  }
  return [...seen.entries()];
}

/** The accounts of the given people, as every organisation holding them shows them. */
async function peopleRows(db: Awaited<ReturnType<typeof setup>>["db"], userIds: number[]) {
  return JSON.stringify(
    await db
      .select()
      .from(schema.users)
      .where(sql`${schema.users.id} = any(${sql.param(userIds)}::int[])`)
      .orderBy(schema.users.id),
  );
}

/** Every row of every Bravo-owned table, to compare before and after the walk. */
async function bravoRows(db: Awaited<ReturnType<typeof setup>>["db"], bravoId: number) {
  const tables = Object.entries(schema).filter(([, t]) => t && typeof t === "object" && "organisation_id" in (t as object)) as [
    string,
    typeof schema.payments,
  ][];
  const out: Record<string, unknown[]> = {};
  for (const [name, table] of tables)
    out[name] = await db
      .select()
      .from(table)
      .where(eq(table.organisation_id, bravoId))
      .orderBy(sql`1`);
  out.organisation = await db.select().from(schema.organisations).where(eq(schema.organisations.id, bravoId));
  return JSON.stringify(out, (_k, v) => (v instanceof Uint8Array || (v && v.type === "Buffer") ? "<bytes>" : v));
}

for (const rowLevelSecurity of [true, false]) {
  describe(`tenant isolation, every API route (row-level security ${rowLevelSecurity ? "on" : "off"})`, () => {
    let env: Awaited<ReturnType<typeof setup>>;
    let api: ReturnType<typeof createApi>;
    let jobs: ReturnType<typeof localJobs>;
    const ids = {} as Ids;
    const PASSWORD = "tenant matrix passphrase";

    beforeAll(async () => {
      env = await setup();
      jobs = localJobs({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
      if (!rowLevelSecurity) expect(await withoutRowLevelSecurity(env.db)).toBeGreaterThan(15);
      api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, jobs });
      const hash = await hashPassword(PASSWORD);
      const db = env.db;
      const alpha = await makeOrganisation(db, { name: "Alpha", multi_gym: true, calendar_and_messaging: true });
      const alphaGym = await makeGym(db, alpha.id, "Alpha Gym");
      const bravo = await makeOrganisation(db, { name: "Bravo Secret Club" });
      const bravoGym = await makeGym(db, bravo.id, "Bravo Secret Gym");
      Object.assign(ids, { bravo: bravo.id, bravoGym: bravoGym.id });

      const offering = async (org: number, name: string, amount: number) => {
        const [o] = await db.insert(schema.offerings).values({ organisation_id: org, name, type: "24_7" }).returning();
        const [p] = await db.insert(schema.prices).values({ organisation_id: org, offering_id: o.id, amount, billing_frequency: "weekly" }).returning();
        return { o, p };
      };
      const a = await offering(alpha.id, "Alpha Plan", 2500);
      const b = await offering(bravo.id, "Bravo Secret Plan", 98765);
      Object.assign(ids, { bravoOffering: b.o.id, bravoPrice: b.p.id });
      const [link] = await db.insert(schema.private_price_links).values({ organisation_id: bravo.id, price_id: b.p.id }).returning();
      ids.bravoLink = link.id;

      /** A membership with a subscription, a payment, visits, a door credential and a price change. */
      const history = async (org: number, gym: number, userId: number, priceId: number, amount: number, hint: string) => {
        const [s] = await db
          .insert(schema.subscriptions)
          .values({
            organisation_id: org,
            user_id: userId,
            gym_id: gym,
            price_id: priceId,
            current_period_start: new Date(Date.now() - 3 * 864e5),
            current_period_end: new Date(Date.now() + 4 * 864e5),
          })
          .returning();
        const [p] = await db
          .insert(schema.payments)
          .values({
            organisation_id: org,
            gym_id: gym,
            user_id: userId,
            subscription_id: s.id,
            amount,
            status: "awaiting_payment",
            pif_payment: "bank_transfer",
            period_start_at: new Date(Date.now() - 3 * 864e5),
            period_end_at: new Date(Date.now() + 4 * 864e5),
          })
          .returning();
        await db.insert(schema.visits).values({ organisation_id: org, gym_id: gym, user_id: userId, visited_at: new Date(Date.now() - 864e5) });
        await db
          .insert(schema.access_control_credentials)
          .values({ organisation_id: org, user_id: userId, gym_id: gym, provider: "kisi", kind: "card", identifier_hint: hint });
        await db.insert(schema.price_changes).values({
          organisation_id: org,
          subscription_id: s.id,
          user_id: userId,
          from_price_id: priceId,
          to_price_id: priceId,
          from_amount: amount,
          to_amount: amount,
        });
        return { s, p };
      };

      const shared = await makeUser(db, { name: "Shared Person", email: "shared@example.com" });
      await addMember(db, shared.id, alpha.id, alphaGym.id, { notes: "Alpha's note", tags: ["alpha-tag"] });
      await history(alpha.id, alphaGym.id, shared.id, a.p.id, 2500, "1111");
      await addMember(db, shared.id, bravo.id, bravoGym.id, { notes: "BRAVO-SECRET-NOTE", tags: ["bravo-secret-tag"] });
      await history(bravo.id, bravoGym.id, shared.id, b.p.id, 98765, "98765");

      const bravoOnly = await makeUser(db, { name: "Bravo Secret Member", email: "bravo.secret@example.com" });
      await addMember(db, bravoOnly.id, bravo.id, bravoGym.id, { notes: "BRAVO-SECRET-NOTE", tags: ["bravo-secret-tag"] });
      const bravoHistory = await history(bravo.id, bravoGym.id, bravoOnly.id, b.p.id, 98765, "98765");
      Object.assign(ids, { bravoSubscription: bravoHistory.s.id, bravoPayment: bravoHistory.p.id });
      const [checkIn] = await db
        .insert(schema.visits)
        .values({
          organisation_id: bravo.id,
          gym_id: bravoGym.id,
          user_id: bravoOnly.id,
          visited_at: new Date(),
          source: "desk",
          door_event_id: "check-in:bravo-secret",
        })
        .returning();
      ids.bravoCheckIn = checkIn.id;
      const keyMaker = await makeUser(db, { name: "Bravo Secret Key Maker", email: "bravo.secret.keys@example.com" });
      const [key] = await db
        .insert(schema.api_keys)
        .values({
          organisation_id: bravo.id,
          name: "Bravo Secret Key",
          prefix: "gym_live_bravosec",
          secret_hash: "bravo-secret-hash",
          scopes: ["members.read"],
          created_by_user_id: keyMaker.id,
        })
        .returning();
      ids.bravoKey = key.id;
      const [bulk] = await db
        .insert(schema.bulk_price_changes)
        .values({
          organisation_id: bravo.id,
          key: "bravo-secret-key",
          from_price_ids: [b.p.id],
          to_price_id: b.p.id,
          takes_effect: "period_end",
          filters: { gym_id: null, status: null, tag: "bravo-secret-tag", q: null },
        })
        .returning();
      await db
        .insert(schema.bulk_price_change_members)
        .values({ organisation_id: bravo.id, bulk_id: bulk.id, subscription_id: bravoHistory.s.id, user_id: bravoOnly.id, reason: "Bravo Secret reason" });
      Object.assign(ids, { bravoBulk: bulk.id });
      const alphaMember = await makeUser(db, { name: "Alpha Member", email: "alpha.member@example.com" });
      await addMember(db, alphaMember.id, alpha.id, alphaGym.id);
      Object.assign(ids, { shared: shared.id, bravoOnly: bravoOnly.id, alphaMember: alphaMember.id });
      const [call] = await db
        .insert(schema.webhook_calls)
        .values({
          organisation_id: bravo.id,
          provider: "stripe",
          status: "processed",
          event_id: "evt_bravo",
          headers: {},
          body: '{"note":"Bravo Secret"}',
          result: "BRAVO-SECRET",
        })
        .returning();
      ids.bravoCall = call.id;
      const [run] = await db.insert(schema.reconciliation_runs).values({ from_day: "2030-01-01", until_day: "2030-01-03" }).returning();
      const [difference] = await db
        .insert(schema.reconciliation_differences)
        .values({
          organisation_id: bravo.id,
          gym_id: bravoGym.id,
          run_id: run.id,
          provider: "stripe",
          kind: "taken_not_recorded",
          provider_reference: "pi_BRAVO-SECRET",
          theirs: { amount: 100, status: "succeeded" },
          status: "open",
        })
        .returning();
      ids.bravoDifference = difference.id;

      const admin = await makeUser(db, { name: "Alpha Admin", email: "admin@example.com", password_hash: hash, current_organisation_id: alpha.id });
      await addStaff(db, admin.id, alpha.id, "admin");
      // Bravo's own staff, so Bravo has a rollup of its own and an admin Alpha's could be mistaken for.
      const bravoAdmin = await makeUser(db, {
        name: "Bravo Secret Admin",
        email: "bravo.secret.admin@example.com",
        password_hash: hash,
        current_organisation_id: bravo.id,
      });
      await addStaff(db, bravoAdmin.id, bravo.id, "admin");
      ids.bravoStaff = bravoAdmin.id;
      const bravoFile = "email,name\nbravo.secret.import@example.com,Bravo Secret Import\n";
      const [bravoImport] = await db
        .insert(schema.member_imports)
        .values({
          organisation_id: bravo.id,
          gym_id: bravoGym.id,
          created_by: bravoAdmin.id,
          filename: "bravo-secret.csv",
          file_sha256: "bravo",
          headers: ["email", "name"],
          row_count: 1,
          mapping: ["email", "name"],
          date_order: "dmy",
        })
        .returning();
      await db.insert(schema.member_import_files).values({ import_id: bravoImport.id, organisation_id: bravo.id, content: bravoFile });
      ids.bravoImport = bravoImport.id;
      const [bravoConversation] = await db
        .insert(schema.conversations)
        .values({ organisation_id: bravo.id, gym_id: bravoGym.id, member_id: bravoOnly.id })
        .returning();
      await db
        .insert(schema.messages)
        .values({ organisation_id: bravo.id, conversation_id: bravoConversation.id, sender_id: bravoOnly.id, from_member: true, body: "Bravo Secret message" });
      ids.bravoConversation = bravoConversation.id;
      const [bravoAppointment] = await db
        .insert(schema.appointments)
        .values({
          organisation_id: bravo.id,
          gym_id: bravoGym.id,
          trainer_id: bravoAdmin.id,
          member_id: bravoOnly.id,
          starts_at: new Date("2026-01-05T09:00:00Z"),
          ends_at: new Date("2026-01-05T10:00:00Z"),
          notes: "Bravo Secret session",
          created_by: bravoAdmin.id,
        })
        .returning();
      ids.bravoAppointment = bravoAppointment.id;
      const [bravoSeries] = await db
        .insert(schema.recurring_schedules)
        .values({
          organisation_id: bravo.id,
          gym_id: bravoGym.id,
          trainer_id: bravoAdmin.id,
          member_id: bravoOnly.id,
          rrule: "FREQ=WEEKLY;BYDAY=TU",
          starts_on: "2030-01-01",
          start_time: "09:00",
          duration_minutes: 60,
          notes: "Bravo Secret series",
          created_by: bravoAdmin.id,
        })
        .returning();
      ids.bravoSeries = bravoSeries.id;
      // Bravo's group class: its type, a weekly schedule and one class written, with a booking of Bravo's own member.
      const [bravoClassType] = await db
        .insert(schema.class_types)
        .values({ organisation_id: bravo.id, name: "Bravo Secret Spin", duration_minutes: 45, default_capacity: 10, colour: "#123456" })
        .returning();
      await db.insert(schema.class_type_inclusions).values({ organisation_id: bravo.id, class_type_id: bravoClassType.id, offering_id: ids.bravoOffering });
      ids.bravoClassType = bravoClassType.id;
      const [bravoClassSchedule] = await db
        .insert(schema.class_schedules)
        .values({ organisation_id: bravo.id, gym_id: bravoGym.id, class_type_id: bravoClassType.id, trainer_id: bravoAdmin.id, room: "Bravo Secret Room", capacity: 10, rrule: "FREQ=WEEKLY;BYDAY=MO", starts_on: "2030-01-07", start_time: "06:00", duration_minutes: 45, generated_until: "2030-01-07", created_by: bravoAdmin.id })
        .returning();
      ids.bravoClassSchedule = bravoClassSchedule.id;
      const [bravoClass] = await db
        .insert(schema.class_occurrences)
        .values({ organisation_id: bravo.id, gym_id: bravoGym.id, class_type_id: bravoClassType.id, schedule_id: bravoClassSchedule.id, occurrence_day: "2030-01-07", starts_at: new Date("2030-01-06T17:00:00Z"), ends_at: new Date("2030-01-06T17:45:00Z"), trainer_id: bravoAdmin.id, room: "Bravo Secret Room", capacity: 10 })
        .returning();
      const [bravoBooking] = await db
        .insert(schema.class_bookings)
        .values({ organisation_id: bravo.id, occurrence_id: bravoClass.id, user_id: bravoOnly.id, status: "booked", booked_at: new Date(), source: "staff", created_by: bravoAdmin.id })
        .returning();
      ids.bravoClass = bravoClass.id;
      ids.bravoClassBooking = bravoBooking.id;
      const [bravoInvitation] = await db
        .insert(schema.organisation_invitations)
        .values({
          organisation_id: bravo.id,
          user_id: alphaMember.id,
          email: "alpha.member@example.com",
          name: "Bravo Secret Invitee",
          role: "member",
          token_hash: "bravo-secret-hash",
          expires_at: new Date(Date.now() + 864e5),
        })
        .returning();
      ids.bravoInvitation = bravoInvitation.id;
      // Bravo's outgoing webhook endpoint, an event it was sent and the try's answer (delivered: no job sends it again).
      const [endpoint] = await db
        .insert(schema.webhook_endpoints)
        .values({
          organisation_id: bravo.id,
          url: "https://hooks.bravo-secret.example/in",
          description: "Bravo Secret endpoint",
          events: ["member.created"],
          secret: sealSecret("whsec_QnJhdm8gU2VjcmV0IHNpZ25pbmcga2V5IDAxMjM0NTY3OA=="),
        })
        .returning();
      const [event] = await db
        .insert(schema.webhook_events)
        .values({
          organisation_id: bravo.id,
          public_id: "msg_bravo_secret",
          type: "member.created",
          payload: { type: "member.created", data: { name: "Bravo Secret Member" } },
        })
        .returning();
      const [delivery] = await db
        .insert(schema.webhook_deliveries)
        .values({
          organisation_id: bravo.id,
          event_id: event.id,
          endpoint_id: endpoint.id,
          status: "succeeded",
          attempts: 1,
          last_status: 200,
          delivered_at: new Date(),
        })
        .returning();
      await db.insert(schema.webhook_attempts).values({
        organisation_id: bravo.id,
        delivery_id: delivery.id,
        attempted_at: new Date(),
        request_headers: { "webhook-id": "msg_bravo_secret" },
        response_status: 200,
        response_body: "Bravo Secret answer",
        duration_ms: 5,
      });
      Object.assign(ids, { bravoEndpoint: endpoint.id, bravoDelivery: delivery.id });
    });
    afterAll(() => env?.close());

    it("covers every route the API registers", () => {
      const missing = apiRoutes(api)
        .map(([key]) => key)
        .filter((key) => !(key in ROUTES) && !(key in NOT_TENANT_SCOPED));
      expect(missing, "add these routes to ROUTES (or, with a reason, to NOT_TENANT_SCOPED)").toEqual([]);
      const stale = [...Object.keys(ROUTES), ...Object.keys(NOT_TENANT_SCOPED)].filter((k) => !apiRoutes(api).some(([key]) => key === k));
      expect(stale, "these entries name routes that no longer exist").toEqual([]);
    });

    /** Alpha's admin, or (issue 33) an API key of Alpha's with every scope a key may hold: the same walk for each. */
    async function alphaCaller(who: "admin" | "key") {
      const admin = await signedIn(api, env.db, "admin@example.com", PASSWORD);
      if (who === "admin") return admin;
      const levels = { members: "write", memberships: "write", payments: "write", visits: "write", offerings: "write", calendar: "write" };
      const made = await admin.call("POST", "/api/api-keys", { name: "Alpha's integration", ...levels });
      expect(made.status).toBe(201);
      const keyed = browser(api);
      return {
        call: (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
          keyed.call(method, path, body, { ...headers, authorization: `Bearer ${made.json.data.secret}` }),
      };
    }

    for (const who of ["admin", "key"] as const)
      it(`lets Alpha's ${who === "admin" ? "admin" : "API key with every scope"} read and change nothing of Bravo's, through any route`, async () => {
        const before = await bravoRows(env.db, ids.bravo);
        const people = await peopleRows(env.db, [ids.shared, ids.bravoOnly, ids.bravoStaff]);
        const admin = await alphaCaller(who);
        const photo = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c00" } })
          .png()
          .toBuffer();
        const problems: string[] = [];
        let sent = 0;

        // Deletes last: removing the shared person from Alpha would turn every later read of her into a 404.
        const walk = apiRoutes(api).sort(([, a], [, b]) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
        for (const [key, { method, path }] of walk) {
          if (!(key in ROUTES)) continue;
          const plan = ROUTES[key];
          const withIds = path.includes(":id") ? idsFor(path, ids) : [null];
          expect(withIds, `${key}: the matrix does not know which ids to try for this path (idsFor)`).not.toBeNull();
          for (const id of withIds!) {
            for (const query of plan.queries?.(ids) ?? [""]) {
              // The other ids in a path are always Bravo's.
              const filled = path
                .replace(":id", String(id))
                .replace(":gymId", String(ids.bravoGym))
                .replace(":offeringId", String(ids.bravoOffering))
                .replace(":linkId", String(ids.bravoLink))
                .replace(":accountId", "0")
                .replace(":placeId", "1")
                .replace(":day", "2030-01-08")
                .replace(":deliveryId", String(ids.bravoDelivery));
              const url = `${filled}${query ? `?${query}` : ""}`;
              let res;
              if (key === "POST /api/members/:id/profile-picture" || key === "POST /api/gyms/:id/logo") {
                const form = new FormData();
                form.set("collection", "logo");
                form.set("file", new Blob([new Uint8Array(photo)], { type: "image/png" }), "photo.png");
                res = await admin.call(method, url, form);
              } else {
                res = await admin.call(method, url, plan.body?.(ids));
              }
              sent++;
              const text = typeof res.json === "string" ? res.json : JSON.stringify(res.json);
              const what = `${method} ${url} → ${res.status}`;
              if (res.status >= 500) problems.push(`${what}: server error`);
              for (const m of MARKERS) if (text?.includes(m)) problems.push(`${what}: answered Bravo's "${m}"`);
              const aboutBravoOnly =
                id === ids.bravoOnly ||
                id === ids.bravo ||
                id === ids.bravoGym ||
                /:(gymId|offeringId|linkId|accountId)/.test(path) ||
                (path.startsWith("/api/offerings/:id") && id === ids.bravoOffering) ||
                (path.startsWith("/api/prices/:id") && id === ids.bravoPrice) ||
                (path.startsWith("/api/invitations/:id") && id === ids.bravoInvitation) ||
                (path.includes("/webhook-calls/") && id === ids.bravoCall) ||
                (path.includes("/reconciliation/") && id === ids.bravoDifference) ||
                (path.includes("/change-price/") && id === ids.bravoBulk) ||
                (path.startsWith("/api/check-ins/:id") && id === ids.bravoCheckIn) ||
                (path.startsWith("/api/api-keys/:id") && id === ids.bravoKey) ||
                (path.startsWith("/api/webhook-endpoints/:id") && id === ids.bravoEndpoint) ||
                (path.startsWith("/api/classes/:id") && id === ids.bravoClass) ||
                (path.startsWith("/api/class-bookings/:id") && id === ids.bravoClassBooking);
              if (aboutBravoOnly && res.status < 400) problems.push(`${what}: answered for Bravo's record instead of 404/403`);
              if (id === ids.shared && !plan.sharedMayAnswer && res.status < 400) problems.push(`${what}: should not answer`);
            }
          }
        }
        expect(problems).toEqual([]);
        expect(sent).toBeGreaterThan(40);
        expect(await bravoRows(env.db, ids.bravo)).toBe(before);
        // Nor anything of a person Bravo holds: her account is what Bravo shows too (decision 0048).
        expect(await peopleRows(env.db, [ids.shared, ids.bravoOnly, ids.bravoStaff])).toBe(people);
      });

    it("lets Alpha's admin take over none of Bravo's people: import, staff invitation, edit, read (decision 0048)", async () => {
      const before = await bravoRows(env.db, ids.bravo);
      const people = await peopleRows(env.db, [ids.shared, ids.bravoOnly, ids.bravoStaff]);
      const admin = await signedIn(api, env.db, "admin@example.com", PASSWORD);
      const [alpha] = await env.db.select().from(schema.organisations).where(eq(schema.organisations.name, "Alpha"));
      const [alphaGym] = await env.db.select().from(schema.gyms).where(eq(schema.gyms.organisation_id, alpha.id));
      // Import: Bravo's member and Bravo's admin named in Alpha's file, with details Alpha would like them to have.
      const csv = "email,name,mobile\nbravo.secret@example.com,Alpha Wrote This,029 000 0000\nbravo.secret.admin@example.com,Alpha Wrote This,029 000 0000\n";
      const created = (await admin.call("POST", `/api/gyms/${alphaGym.id}/imports`, { csv, filename: "takeover.csv" })).json.data;
      expect(
        (
          await admin.call("PUT", `/api/imports/${created.id}`, {
            mapping: ["email", "name", "mobile_number"],
            date_order: "dmy",
            plans: {},
            import_errors: true,
          })
        ).status,
      ).toBe(200);
      expect((await admin.call("POST", `/api/imports/${created.id}/confirm`)).status).toBe(202);
      await jobs.idle();
      expect((await admin.call("GET", `/api/imports/${created.id}`)).json.data).toMatchObject({ status: "done", created_count: 0 });
      // Staff invitation of Bravo's member and Bravo's admin.
      for (const email of ["bravo.secret@example.com", "bravo.secret.admin@example.com"]) {
        const exists = await admin.call("POST", `/api/organisations/${alpha.id}/staff-exists`, { email });
        expect(exists.json.data.exists, `staff-exists ${email}`).toBe(false);
        const res = await admin.call("POST", `/api/organisations/${alpha.id}/staff`, {
          email,
          name: "Alpha Wrote This",
          role: "admin",
          gyms: [],
          invite: true,
        });
        expect(res.status, `staff ${email}`).toBe(202);
        // Nothing of the account: only what Alpha typed comes back.
        expect(JSON.stringify(res.json)).not.toMatch(/Bravo Secret/);
      }
      // Read: none of them is Alpha's to see, by id or by search.
      for (const id of [ids.bravoOnly, ids.bravoStaff]) {
        expect((await admin.call("GET", `/api/members/${id}`)).status).toBe(404);
        expect((await admin.call("GET", `/api/staff/${id}`)).status).toBe(404);
      }
      const found = JSON.stringify((await admin.call("GET", "/api/members?q=secret")).json);
      for (const m of MARKERS) expect(found).not.toContain(m);
      // Edit: the person both hold keeps her details (back as Alpha's member: the walk's DELETE removed her).
      await env.db
        .update(schema.organisation_users)
        .set({ deleted_at: null })
        .where(and(eq(schema.organisation_users.organisation_id, alpha.id), eq(schema.organisation_users.user_id, ids.shared)));
      const edit = await admin.call("PUT", `/api/members/${ids.shared}`, profile);
      expect(edit.status).toBe(422);
      expect(await bravoRows(env.db, ids.bravo)).toBe(before);
      expect(await peopleRows(env.db, [ids.shared, ids.bravoOnly, ids.bravoStaff])).toBe(people);
      const memberships = await env.db.select().from(schema.organisation_users).where(eq(schema.organisation_users.organisation_id, alpha.id));
      expect(memberships.map((m) => m.user_id)).not.toContain(ids.bravoOnly);
      expect(memberships.map((m) => m.user_id)).not.toContain(ids.bravoStaff);
    });
  });
}

describe("row-level security (drizzle/0011)", () => {
  let env: Awaited<ReturnType<typeof setup>>;
  let alphaId: number;
  let bravoId: number;
  let bravoGymId: number;
  beforeAll(async () => {
    env = await setup();
    alphaId = (await makeOrganisation(env.db, { name: "Alpha" })).id;
    const bravo = await makeOrganisation(env.db, { name: "Bravo" });
    bravoId = bravo.id;
    bravoGymId = (await makeGym(env.db, bravo.id, "Bravo Gym")).id;
    await makeGym(env.db, alphaId, "Alpha Gym");
    const person = await makeUser(env.db, { name: "Both", email: "both@example.com" });
    await addMember(env.db, person.id, bravoId, bravoGymId);
  });
  afterAll(() => env?.close());

  it("shows a tenant only its own rows even when a query names no organisation", async () => {
    const seen = await withTenant(env.db, alphaId, null, async (t) => ({
      gyms: await t.db.select().from(schema.gyms),
      members: await t.db.select().from(schema.organisation_users),
      organisations: await t.db.select().from(schema.organisations),
    }));
    expect(seen.gyms.map((g) => g.name)).toEqual(["Alpha Gym"]);
    expect(seen.members).toEqual([]);
    expect(seen.organisations.map((o) => o.name)).toEqual(["Alpha"]);
  });

  it("refuses a tenant's write of another organisation's row, and rolls the transaction back", async () => {
    const [person] = await env.db.select().from(schema.users);
    // (Inside a tenant's transaction only t.db may be used: PGlite has one connection.)
    const write = withTenant(env.db, alphaId, null, async (t) => {
      await t.db.insert(schema.visits).values({ organisation_id: bravoId, gym_id: bravoGymId, user_id: person.id, visited_at: new Date() });
    });
    await expect(write).rejects.toThrow();
    expect(await env.db.select().from(schema.visits)).toEqual([]);
    // Updating or deleting Bravo's rows finds none to touch.
    const touched = await withTenant(env.db, alphaId, null, (t) =>
      t.db.update(schema.gyms).set({ name: "Taken" }).where(eq(schema.gyms.id, bravoGymId)).returning(),
    );
    expect(touched).toEqual([]);
  });

  it("puts every table that carries an organisation behind a policy", async () => {
    const res = (await env.db.execute(sql`
      select c.table_name, cl.relrowsecurity as rls, exists (select 1 from pg_policies p where p.tablename = c.table_name and p.policyname = 'tenant_isolation') as policy
      from information_schema.columns c join pg_class cl on cl.relname = c.table_name and cl.relkind = 'r'
      where c.table_schema = 'public' and c.column_name = 'organisation_id' and c.table_name <> 'users'
      order by 1`)) as unknown as { rows: { table_name: string; rls: boolean; policy: boolean }[] };
    expect(res.rows.length).toBeGreaterThan(15);
    expect(res.rows.filter((r) => !r.rls || !r.policy).map((r) => r.table_name)).toEqual([]);
  });

  it("ends a tenant's handle when its work ends", async () => {
    const t = await withTenant(env.db, alphaId, null, async (t) => t);
    expect(() => t.db).toThrow(/gone back to the pool/);
  });
});
