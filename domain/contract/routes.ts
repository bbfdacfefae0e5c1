import { z } from "zod";
import {
  accessControlCredential,
  accessControlIntegration,
  cents,
  doorIntegration,
  gym,
  id,
  instant,
  localDay,
  member,
  offering,
  organisation,
  payment,
  place,
  price,
  privateLink,
  ref,
  searchResult,
  signedInUser,
  staff,
  subscription,
  visit,
} from "./entities";
import type { SpecCall } from "./spec-calls";

/**
 * Every call SPEC §7 names, with the answer it gets when it succeeds: one place, read by the contract test
 * (tests/api/spec-contract.test.ts) and, as response schemas, by the OpenAPI document.
 *
 * The wrapper rule, for every JSON answer: the body is `{ data: … }`; a list is `{ data: { data: [...] } }` (paging,
 * totals and the like beside the inner `data`); one record is `{ data: record }`. The one exception is SPEC's own:
 * the unread count is `{ unread_messages }` (SPEC §7: "unread messages from unread_messages").
 *
 * An answer that is a file (a CSV export) is listed by its content type instead of a schema.
 */

/** `{ data: record }`. */
export const one = <T extends z.ZodTypeAny>(record: T) => z.object({ data: record }).passthrough();
/** `{ data: { data: [records] } }`, whatever else the list carries beside them (meta, totals). */
export const list = <T extends z.ZodTypeAny>(record: T) => z.object({ data: z.object({ data: z.array(record) }).passthrough() }).passthrough();
/** `{ data: { …fields } }`: an answer SPEC shows no shape for, with the fields we answer. */
const fields = <T extends z.ZodRawShape>(shape: T) => one(z.object(shape).passthrough());

const message = fields({ message: z.string() });
/** A change to a membership, previewed (`preview`) or done (`event`, the membership's new `version`). */
const membershipChange = one(
  z.union([
    z.object({ preview: z.record(z.unknown()) }).passthrough(),
    z.object({ event: z.record(z.unknown()).nullable(), version: z.number().int() }).passthrough(),
  ]),
);
const weekly = <T extends z.ZodRawShape>(shape: T) => list(z.object({ week_start: localDay, ...shape }).passthrough());
const conversation = z.object({ id, gym_id: id, member: searchResult, unread_count: z.number().int() }).passthrough();
const chatMessage = z.object({ id, body: z.string(), from_member: z.boolean(), created_at: instant }).passthrough();
const providerRedirect = fields({ url: z.string() });
const csv = { contentType: "text/csv" } as const;
const proRata = fields({ start_date: localDay, amount: cents, days: z.number().int(), first_full_charge_date: localDay });

export type ContractAnswer = z.ZodTypeAny | { contentType: string };

export interface ContractRoute {
  /** As SPEC §7 writes it: "METHOD /api/path/{param}". */
  call: SpecCall;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** SPEC's path, its params in braces (their names are SPEC's, not always the route's own). */
  path: string;
  /** The successful answer: its status and its body's schema (or, for a file, its content type). */
  status: number;
  answer: ContractAnswer;
  description: string;
}

const route = (call: SpecCall, answer: ContractAnswer, description: string, status = 200): ContractRoute => {
  const [method, path] = call.split(" ") as [ContractRoute["method"], string];
  return { call, method, path, status, answer, description };
};

export const CONTRACT_ROUTES: ContractRoute[] = [
  // ── Session ──
  route("GET /api/me", one(signedInUser), "The signed-in user (SPEC §3 Signed-in user)"),
  route("POST /api/login", fields({ two_factor_required: z.boolean(), is_staff: z.boolean() }), "Signs in; a code is e-mailed unless the device is trusted"),
  route("POST /api/logout", message, "Signs out"),
  route("POST /api/forgot-password", message, "E-mails a reset link, if the address has an account"),
  route("POST /api/reset-password", message, "Sets a new password from a reset or invitation link"),
  route(
    "POST /api/validate-link",
    fields({ valid: z.literal(true), purpose: z.string(), name: z.string(), email: z.string() }),
    "Whether a reset or invitation link is good",
  ),
  route("POST /api/email/verify", fields({ verified: z.literal(true) }), "The e-mailed two-factor code"),
  route("POST /api/email/resend", message, "Sends a new two-factor code"),

  // ── Sign-up and self-service ──
  route("POST /api/register", fields({ id, name: z.string(), email: z.string() }), "Registers a member and signs them in", 201),
  route("POST /api/profile-picture", fields({ profile_picture: z.string() }), "A member's own photo (multipart: file)", 201),
  route("GET /api/akahu/auth-url", fields({ url: z.string() }), "The open-banking consent page: a member's, or a gym's app for its admins (?gym_id=)"),
  route("POST /api/akahu/exchange", fields({ connected: z.literal(true) }), "The consent's code for the member's bank connection"),
  route(
    "POST /api/akahu/sync-accounts",
    fields({
      accounts: z.array(z.object({ id: z.string(), name: z.string(), can_pay: z.boolean() }).passthrough()),
      payment_type: z
        .object({ id, type: z.literal("bank_account") })
        .passthrough()
        .nullable(),
    }),
    "The member's shared bank accounts; with account_id, that one pays",
  ),
  route("POST /api/prices/{price_id}/pro-rata", proRata, "The pro-rata charge for a start date"),
  route("GET /api/me/active-subscription", one(subscription.nullable()), "The member's latest membership (SPEC §3 Subscription), null before any"),
  route("PUT /api/me/register-fields", fields({ saved: z.literal(true) }), "A joining member's address, birth date, emergency contact and answers"),
  route("POST /api/subscriptions", one(subscription), "Confirms a membership: its first payment is charged after the answer", 201),
  route("POST /api/unique-email", fields({ unique: z.boolean() }), "Whether an e-mail address is free to register"),
  route(
    "POST /api/me/payment-types/{payment_type_id}/switch",
    fields({ default_payment_type_id: id }),
    "Makes one of the member's payment types the one they pay by",
  ),
  route(
    "GET /api/surcharge-total",
    fields({
      price_id: id,
      gym_id: id,
      each: z.object({ amount: cents, surcharge: cents, total: cents }).passthrough(),
      first: z.object({ amount: cents, surcharge: cents, total: cents }).passthrough(),
      formatted_surcharge: z.string().nullable(),
    }),
    "What a price costs by a payment type, card surcharge included",
  ),
  route("GET /api/gocardless/mandate-url", fields({ url: z.string() }), "The direct-debit provider's mandate page for the member"),
  route(
    "POST /api/gocardless/sync-payment-method",
    fields({ id, type: z.literal("gocardless_bank_account") }),
    "The mandate made becomes the member's payment type",
  ),

  // ── Dashboard and search ──
  route(
    "GET /api/stats",
    fields({
      members: z.number().int(),
      subscriptions: z.record(z.number().int()),
      visits_today: z.number().int(),
      failed_payments: z.number().int(),
      revenue_this_month: cents,
      revenue_last_month: cents,
    }),
    "The headline figures",
  ),
  route("GET /api/active-users", list(z.object({ week_start: localDay, active: z.number().int() }).passthrough()), "Members running at the end of each week"),
  route(
    "GET /api/user-breakdown",
    fields({
      by_state: z.record(z.number().int()),
      by_offering: z.array(z.object({ offering_id: id.nullable(), name: z.string(), members: z.number().int() }).passthrough()),
    }),
    "Members by state and offering",
  ),
  route("POST /api/search", list(searchResult), "Members by name, e-mail or mobile (SPEC §3 Search result)"),
  route(
    "GET /api/expected-payments-debugging",
    list(z.object({ subscription_id: id, expected_amount: cents.nullable(), verdict: z.string() }).passthrough()),
    "What each membership should have been charged, and what was",
  ),
  route(
    "GET /api/cost-and-visit-breakdown",
    list(z.object({ month: z.string(), revenue: cents, visits: z.number().int(), cost_per_visit: cents.nullable() }).passthrough()),
    "Revenue, visits and cost per visit by month",
  ),
  route("GET /api/webhook-calls", list(z.object({ id, provider: z.string() }).passthrough()), "The providers' webhook calls received"),

  // ── Gyms ──
  route("GET /api/gyms", list(gym), "The gyms the user administers (SPEC §3 Gym)"),
  route("GET /api/gyms/{id}", one(gym), "A gym (SPEC §3 Gym), with its join links"),
  route("PUT /api/gyms/{id}", one(gym), "A gym's details"),
  route("PUT /api/gyms/{gymId}/destination-accounts/{accountId}", one(gym), "The bank account a gym's money goes to"),
  route("PUT /api/gyms/{id}/tracks-visits", one(gym), "Whether the gym records visits"),
  route("POST /api/gyms/{id}/switch", fields({ current_gym: ref }), "Makes it the user's current gym"),
  route("POST /api/gyms/{id}/logo", one(gym), "A gym's logo (multipart: collection=logo, file)", 201),
  route("POST /api/gyms/{id}/stripe/redirect", providerRedirect, "The card provider's page to connect the gym's account"),
  route("POST /api/stripe/exchange", one(gym), "Finishes connecting the gym's card account"),
  route("PUT /api/gyms/{id}/branch-config", one(gym), "The gym's deep-link credentials (write-only)"),
  route("PUT /api/gyms/{id}/akahu-config", one(gym), "The gym's open-banking credentials (write-only)"),
  route("POST /api/gyms/{id}/gocardless/redirect", providerRedirect, "The direct-debit provider's page to connect the gym's account"),
  route("POST /api/gocardless/exchange", one(gym), "Finishes connecting the gym's direct-debit account"),
  route("PUT /api/gyms/{id}/onesignal-config", one(gym), "The gym's push credentials (write-only)"),

  // ── Organisations ──
  route("PUT /api/organisations/{organisationId}", one(organisation), "The organisation's name (SPEC §3 Organisation)"),
  route("PUT /api/organisations/{organisationId}/grace-period", one(organisation), "The failed-payment grace period"),
  route("PUT /api/organisations/{organisationId}/term-membership-grace-period", one(organisation), "The term-membership grace period"),
  route("PUT /api/organisations/{organisationId}/offering-permissions", one(organisation), "Which offering types may be sold"),
  route("PUT /api/organisations/{organisationId}/price-frequencies", one(organisation), "Which billing frequencies may be sold"),
  route(
    "GET /api/organisations/{organisationId}/akahu-webhooks",
    list(z.object({ id, provider: z.literal("akahu") }).passthrough()),
    "The open-banking provider's webhook calls",
  ),
  route("POST /api/organisations/{organisationId}/age-bypass-links", one(privateLink), "A link that lets someone under the minimum age join", 201),
  route(
    "POST /api/organisations/{organisationId}/switch",
    fields({ current_organisation: ref, current_gym: ref.nullable() }),
    "Makes it the user's current organisation",
  ),
  route("GET /api/organisations/{id}/prices", list(price), "Every price of the organisation (SPEC §3 Price)"),

  // ── Messaging ──
  route("GET /api/messaging/conversations", list(conversation), "Conversations with members, newest first"),
  route("GET /api/messaging/conversation-messages", list(chatMessage), "One conversation's messages"),
  route("POST /api/messaging/send", fields({ conversation_id: id, message: chatMessage }), "Sends a member a message", 201),
  route("PUT /api/messaging/conversations/{conversationId}/read", fields({ unread_messages: z.number().int() }), "Marks a conversation read"),
  route(
    "GET /api/messaging/unread-messages",
    z.object({ unread_messages: z.number().int() }).passthrough(),
    "Members' unread messages (SPEC §7: at unread_messages)",
  ),

  // ── Offerings and prices ──
  route("GET /api/gyms/{gym_id}/offerings", list(offering), "The live offerings sold at a gym (SPEC §3 Offering)"),
  route("GET /api/offerings", list(offering), "Every offering"),
  route("GET /api/offerings/{id}", one(offering), "An offering, with its hours, gyms and prices"),
  route("PUT /api/offerings/{id}", one(offering), "Changes an offering"),
  route("DELETE /api/offerings/{id}", fields({ deleted: z.literal(true) }), "Deletes an offering no membership ever held"),
  route("POST /api/offerings", one(offering), "A new offering", 201),
  route("DELETE /api/offerings/{id}/archive", one(offering), "Archives an offering"),
  route("GET /api/offerings/{id}/prices", list(price), "An offering's prices"),
  route("POST /api/offerings/{id}/prices", one(price), "A new price", 201),
  route(
    "GET /api/gyms/{gymId}/offerings/{offeringId}/unique-memberships",
    fields({ gym_id: id, offering_id: id, unique_memberships: z.number().int() }),
    "Members of an offering at a gym, each once",
  ),
  route("PUT /api/prices/{id}", one(price), "Changes a price"),
  route("DELETE /api/prices/{id}", fields({ deleted: z.literal(true) }), "Deletes a price no membership ever held"),
  route("DELETE /api/prices/{id}/archive", one(price), "Archives a price"),
  route("POST /api/prices/{id}/restore", one(price), "Puts an archived price back on sale"),
  route("POST /api/prices/{id}/pro-rata", proRata, "The pro-rata charge for a start date"),
  route("POST /api/prices/{id}/private-links", one(privateLink), "A sign-up link to a private price", 201),

  // ── Access control ──
  route(
    "GET /api/organisations/{id}/access-control/integration",
    one(accessControlIntegration.extend({ doors: z.array(doorIntegration) })),
    "The door system and its doors",
  ),
  route(
    "POST /api/organisations/{id}/access-control/integration",
    one(accessControlIntegration.extend({ doors: z.array(doorIntegration) })),
    "Connects the door system, or sets whether a door counts visits",
  ),
  route("GET /api/organisations/{id}/access-control/places", list(place), "The door system's places (SPEC §3 Place)"),
  route("POST /api/gyms/{id}/access-control/places", one(place), "Links a gym to a place", 201),
  route("GET /api/organisations/{id}/access-control/places/{placeId}/doors", list(doorIntegration), "A place's doors (SPEC §3 Door integration)"),

  // ── Members ──
  route("GET /api/members", list(member), "Members, filtered and paged (SPEC §3 Member)"),
  route("GET /api/members/{id}", one(member), "A member (SPEC §3 Member), with what the user may do"),
  route("PUT /api/members/{id}", one(member), "Changes a member's details"),
  route("DELETE /api/members/{id}", fields({ id, deleted: z.literal(true) }), "Removes a member (their history stays)"),
  route(
    "GET /api/members/{id}/access-control",
    fields({ allowed: z.boolean(), reason: z.string(), credentials: z.array(accessControlCredential) }),
    "Whether the door lets the member in, and why",
  ),
  route("GET /api/members/{id}/access-control-credentials", list(accessControlCredential), "The member's door credentials"),
  route("POST /api/users/{id}/recreate-kisi-login", fields({ allowed: z.boolean() }), "Makes the member's door login again"),
  route("POST /api/members/export", csv, "The members list as CSV"),
  route("POST /api/subscriptions/{id}/pause", membershipChange, "Pauses a membership (preview: true to see the effect)"),
  route("POST /api/subscriptions/schedule-price-change", membershipChange, "Schedules a price change (preview: true to see it and its e-mail)"),
  route(
    "POST /api/subscriptions/change-price-email-preview",
    fields({ to: z.string(), subject: z.string(), text: z.string() }),
    "The e-mail a price change sends",
  ),
  route(
    "GET /api/users/{id}/price-change-history",
    list(z.object({ id, subscription_id: id, status: z.string(), takes_effect_at: instant.nullable() }).passthrough()),
    "A member's price changes",
  ),
  route(
    "GET /api/subscriptions/{id}/start-early-data",
    fields({ start: localDay, firstPayment: z.object({ amount: cents }).passthrough(), nextCharge: z.object({ day: localDay, amount: cents }).passthrough() }),
    "What starting an upcoming membership now does",
  ),
  route(
    "POST /api/subscriptions/{id}/manual-payment",
    one(z.union([z.object({ preview: z.record(z.unknown()) }).passthrough(), z.object({ payment_ids: z.array(id) }).passthrough()])),
    "Takes what is owed at the desk",
  ),
  route("GET /api/members/{id}/weekly-visits", weekly({ visits: z.number().int() }), "A member's visits per week"),
  route(
    "GET /api/members/{id}/subscription-periods",
    list(z.object({ id, state: z.string(), periods: z.array(z.object({ from: instant, to: instant, amount: cents }).passthrough()) }).passthrough()),
    "A member's memberships and their paid periods",
  ),
  route(
    "GET /api/members/{id}/weekly-cost-per-visit",
    weekly({ cost: cents, visits: z.number().int(), cost_per_visit: cents.nullable() }),
    "What each week cost a member per visit",
  ),
  route(
    "GET /api/users/{id}/recurring-schedule",
    list(z.object({ id, summary: z.string(), next_sessions: z.array(z.unknown()) }).passthrough()),
    "A member's recurring sessions",
  ),
  route(
    "POST /api/organisations/{id}/members/onboard-pif",
    one(z.union([z.object({ preview: z.record(z.unknown()) }).passthrough(), z.object({ user_id: id, subscription_id: id }).passthrough()])),
    "Adds a member on a paid-in-full membership",
  ),
  route("POST /api/members/{id}/resend-pif-invite", fields({ invited: z.literal(true), to: z.string() }), "Sends a paid-in-full member's invitation again"),
  route(
    "POST /api/members/{id}/pif",
    one(z.union([z.object({ preview: z.record(z.unknown()) }).passthrough(), z.object({ subscription_id: id }).passthrough()])),
    "Sells a member a paid-in-full membership",
  ),
  route("POST /api/members/{id}/profile-picture", one(member), "A member's photo (multipart: file)"),

  // ── Payments and visits ──
  route("GET /api/payments", list(payment), "Payments, filtered and paged, with totals (SPEC §3 Payment)"),
  route("GET /api/users/{id}/payments", list(payment), "A member's payments (SPEC §3 Payment)"),
  route("POST /api/payments/export", csv, "The payments list as CSV"),
  route("POST /api/payments/{id}/received", fields({ payment: z.object({ id, status: z.string() }).passthrough() }), "A bank transfer arrived"),
  route("GET /api/visits", list(visit), "Visits, filtered and paged, with totals (SPEC §3 Visit)"),
  route("GET /api/users/{id}/visits", list(visit), "A member's visits (SPEC §3 Visit)"),
  route("POST /api/visits/export", csv, "The visits list as CSV"),

  // ── Staff ──
  route("GET /api/organisations/{id}/staff", list(staff), "The organisation's staff (SPEC §3 Staff)"),
  route("POST /api/organisations/{id}/staff", one(staff), "Adds a staff member, or invites them", 201),
  route("POST /api/organisations/{id}/staff-exists", fields({ exists: z.boolean() }), "Whether an e-mail address is staff here already"),
  route("POST /api/staff/{id}/resend-invitation", fields({ invited: z.literal(true), to: z.string() }), "Sends a staff member's invitation again"),
  route("POST /api/staff/{id}/kisi-access", one(staff), "Switches a staff member's door access"),
  route("GET /api/staff/{id}", one(staff), "A staff member (SPEC §3 Staff)"),
  route("DELETE /api/staff/{id}", one(staff), "Removes a staff member"),
];

/**
 * A path's shape with its params' names left out: SPEC's "/api/gyms/{gymId}/offerings" and a route's
 * "/api/gyms/:gymId{[0-9]+}/offerings" both read "/api/gyms/{}/offerings".
 */
export const pathShape = (path: string) => path.replace(/\{[^}]*\}|:[A-Za-z_]+(\{[^}]*\})?/g, "{}");

/** The contract of one SPEC §7 call (for a route's response schema in the OpenAPI document). */
export function contractOf(call: SpecCall): ContractRoute {
  const found = CONTRACT_ROUTES.find((r) => r.call === call);
  if (!found) throw new Error(`SPEC §7 names no call ${call}`);
  return found;
}
