import { z } from "zod";

/**
 * SPEC §3's entities as the API answers them: every field SPEC names, under SPEC's name, with its honest type
 * (nullable where a value may be absent). Objects pass other fields through: an answer may carry more than SPEC
 * names (the pages read some extra fields), never less and never under another name. Plain zod 3 (no transforms or
 * refinements), so the same schemas describe the answers in the OpenAPI document.
 *
 * Where SPEC does not say how a nested thing is shaped, a reference is an object with its id and name (`ref`); a
 * nested entity SPEC names (a subscription's price, a gym's organisation, an offering's prices) is that entity whole.
 * Money is in integer cents; instants are ISO 8601 strings; a local day is YYYY-MM-DD.
 */

export const id = z.number().int().describe("An id");
export const cents = z.number().int().describe("Money in integer cents");
export const instant = z.string().describe("An instant, ISO 8601");
export const localDay = z.string().describe("A day in Pacific/Auckland, YYYY-MM-DD");

/** Another record, named: its id and name (and possibly more). */
export const ref = z.object({ id, name: z.string() }).passthrough();

export const BILLING_FREQUENCY = z.enum(["daily", "weekly", "fortnightly", "monthly", "bi_monthly", "quarterly", "twice_yearly", "yearly", "one_off"]);
export const PERIOD_UNIT = z.string().describe("day, week, month or year");

// ───────────────────────────── organisation, gym ─────────────────────────────

export const organisation = z
  .object({
    id,
    name: z.string(),
    offering_permissions: z.object({ enable_offerings: z.boolean(), non_stop: z.boolean(), limited_access: z.boolean() }).passthrough(),
    price_frequencies: z
      .object({ weekly: z.boolean(), fortnightly: z.boolean(), monthly: z.boolean(), quarterly: z.boolean(), six_monthly: z.boolean(), yearly: z.boolean() })
      .passthrough(),
    multi_gym: z.boolean(),
    grace_period: z.object({ failed_payment_grace_period: z.number().int(), failed_payment_grace_period_unit: PERIOD_UNIT }).passthrough(),
    term_grace_period: z.object({ term_membership_grace_period: z.number().int(), term_membership_grace_period_unit: PERIOD_UNIT }).passthrough(),
  })
  .passthrough()
  .describe("SPEC §3 Organisation (gym group)");

export const destinationAccount = z
  .object({ id, name: z.string(), bank_account_number: z.string().describe("Masked: 12-••••-•••1323-50") })
  .passthrough()
  .describe("SPEC §3 Destination account (the repeat of the number is the form's, sent as bank_account_number_confirmation)");

export const place = z
  .object({
    id: id.nullable().describe("Ours once the place is linked to a gym; null before"),
    name: z.string(),
    place_id: z.string().describe("The door system's id"),
  })
  .passthrough()
  .describe("SPEC §3 Place");

export const doorIntegration = z
  .object({
    id: id.nullable().describe("Ours once its place is linked to a gym; null before"),
    integration_type: z.string(),
    integration: z.object({ id: id.nullable(), name: z.string(), door_id: z.string(), tracks_visits: z.boolean() }).passthrough(),
  })
  .passthrough()
  .describe("SPEC §3 Door integration");

export const accessControlIntegration = z
  .object({ id: id.nullable(), integration_type: z.string().nullable() })
  .passthrough()
  .describe("SPEC §3 Access-control integration (null id and type when none is connected)");

export const GYM_ROLE = z
  .union([z.enum(["admin", "personal_trainer"]), z.literal(-1)])
  .describe("The user's role at the gym; -1 when they have none of their own there");

export const gym = z
  .object({
    id,
    name: z.string(),
    selected: z.boolean().describe("The user's current gym"),
    staff_count: z.number().int(),
    members_count: z.number().int(),
    destination_account: destinationAccount.nullable(),
    place: place.nullable(),
    doors: z.array(doorIntegration),
    uuid: z.string(),
    logo: z.string().nullable(),
    created_at: instant,
    role: GYM_ROLE,
    stripe_id: z.string().nullable(),
    gocardless_organisation_id: z.string().nullable(),
    organisation,
    price_change_notification_reply_to: z.string().nullable(),
    break_fee_percentage: z.number().int().nullable(),
  })
  .passthrough()
  .describe("SPEC §3 Gym / branch (integration credentials are write-only: only whether each is set)");

// ───────────────────────────── offerings and prices ─────────────────────────────

export const privateLink = z
  .object({
    id,
    price_id: id.nullable(),
    token: z.string(),
    age_bypass: z.boolean(),
    created_at: instant,
    urls: z.array(z.object({ gym: z.string(), url: z.string() }).passthrough()),
  })
  .passthrough()
  .describe("A private price's sign-up link (or an organisation's age-bypass link), with its address at each gym");

export const price = z
  .object({
    id,
    amount: cents,
    billing_frequency: BILLING_FREQUENCY,
    formatted_amount: z.string(),
    joining_fee: cents,
    private: z.boolean(),
    archived_at: instant.nullable(),
    subscriptions_count: z.number().int().describe("Members paying it now, or moving to it at a scheduled price change"),
    gym: ref.nullable().describe("The one gym it is sold at; null when sold at every gym of its offering"),
    offering: ref,
    term_amount: z.number().int().nullable(),
    term_unit: z.string().nullable(),
    is_term_membership: z.boolean(),
    formatted_term: z.string().nullable(),
    total_value: cents
      .nullable()
      .describe("What a member starting today commits to: joining fee plus every charge of the term (a PIF: its one payment); null for an open-ended price"),
    grouping_unique_identifier: z.string(),
    formatted_surcharge: z
      .string()
      .nullable()
      .describe("The card surcharge on one charge at the price's gym (else the user's current gym); null when no gym applies"),
    formatted_amount_with_surcharge: z.string().nullable(),
    private_links: z.array(privateLink),
  })
  .passthrough()
  .describe("SPEC §3 Price");

export const offeringHour = z
  .object({ id, day: z.number().int().min(1).max(7), open_at: z.string(), close_at: z.string() })
  .passthrough()
  .describe("SPEC §3 Offering hour (day 1 to 7, Monday to Sunday; times HH:MM)");

export const offering = z
  .object({
    id,
    name: z.string(),
    description: z.string().nullable(),
    type: z.enum(["24_7", "limited_access"]),
    all_gyms_access: z.boolean(),
    mandated: z.boolean(),
    hours_mandated: z.boolean(),
    prices_mandated: z.boolean(),
    prices: z.array(price),
    hours: z.array(offeringHour),
    gyms: z.array(ref),
    gym: ref.nullable().describe("Always null: an offering belongs to the organisation, sold at `gyms`"),
    archived_at: instant.nullable(),
    created_at: instant,
    updated_at: instant,
    prices_count: z.number().int(),
  })
  .passthrough()
  .describe("SPEC §3 Offering");

// ───────────────────────────── payment types, payments ─────────────────────────────

const bankAccountDetails = z.object({ account_number: z.string(), name: z.string(), status: z.string() }).passthrough();
const cardDetails = z
  .object({
    type: z.string().describe("The card's brand"),
    exp_month: z.number().int(),
    exp_year: z.number().int(),
    last_four: z.string(),
    country: z.string(),
  })
  .passthrough();
const directDebitDetails = z.object({ name: z.string(), account_number: z.string(), mandate_id: z.string() }).passthrough();

export const paymentType = z
  .discriminatedUnion("type", [
    z.object({ id, type: z.literal("bank_account"), details: bankAccountDetails }).passthrough(),
    z.object({ id, type: z.literal("stripe_card"), details: cardDetails }).passthrough(),
    z.object({ id, type: z.literal("gocardless_bank_account"), details: directDebitDetails }).passthrough(),
  ])
  .describe("SPEC §3 Payment type: its kind in `type`, the kind's fields in `details`");

export const PIF_PAYMENT = z.enum(["eftpos", "cash", "bank_transfer"]);

/** A payment as a subscription lists it (its first, latest and every one). */
export const paymentRef = z
  .object({
    id,
    amount: cents,
    surcharge: cents,
    status: z.string(),
    period_start_at: instant.nullable(),
    period_end_at: instant.nullable(),
    created_at: instant,
  })
  .passthrough()
  .describe("A payment, in short");

export const payment = z
  .object({
    id,
    amount: cents,
    surcharge: cents,
    period_start_at: instant.nullable(),
    period_end_at: instant.nullable(),
    status: z.string().describe("sent is successful; upcoming, pending, pending_request and awaiting_payment are not failed; anything else failed"),
    tasks: z.array(z.unknown()).describe("Always empty: we keep no tasks on a payment"),
    user: z.object({ id, name: z.string(), email: z.string() }).passthrough(),
    destination_account: destinationAccount.nullable(),
    subscription: z.object({ id }).passthrough().nullable(),
    is_retry: z.boolean(),
    is_pro_rata: z.boolean(),
    poll_count: z.number().int(),
    credit_used: cents,
    error_status: z.string().nullable(),
    error_description: z.string().nullable(),
    type: z.string().nullable(),
    is_term_membership: z.boolean(),
    cooling_period_ends_at: instant.nullable(),
    term_ends_at: instant.nullable(),
    balance_owing: cents,
    periods_owing: z.number().int(),
    force_amount: cents.nullable(),
    processed_by: ref.nullable().describe("The staff member who recorded it at the desk"),
    stripe_id: z.string().nullable(),
    gocardless_payment_id: z.string().nullable(),
    meta: z.record(z.unknown()).nullable(),
    pif_payment: PIF_PAYMENT.nullable(),
    expected_charge_date: localDay.nullable(),
  })
  .passthrough()
  .describe("SPEC §3 Payment");

// ───────────────────────────── subscription, member ─────────────────────────────

export const pause = z
  .object({ id, pause_start_at: instant, pause_end_at: instant, start_day: localDay, end_day: localDay, reason: z.string().nullable() })
  .passthrough()
  .describe("A pause of a membership: from its first day to the day the member is back");

export const subscription = z
  .object({
    id,
    current_period_start: instant.nullable(),
    current_period_end: instant.nullable(),
    paused_at: instant.nullable(),
    cancelled_at: instant.nullable(),
    grace_period_ends_at: instant.nullable(),
    price,
    payments: z.array(paymentRef).describe("The membership's latest ten payments, newest first (GET /api/users/{id}/payments pages through all)"),
    pause_start_at: instant.nullable(),
    pause_end_at: instant.nullable(),
    pause_days_credit: z.number().int(),
    pause_days_remaining: z.number().int(),
    pauses: z.array(pause),
    upcoming_state: z.string().nullable(),
    initial_state: z.string().nullable(),
    undo_cancellation_until: instant.nullable(),
    force_price_amount: cents.nullable(),
    cooling_period_ends_at: instant.nullable(),
    is_term_membership: z.boolean(),
    currently_within_term_membership: z.boolean(),
    on_term_membership_price: z.boolean(),
    term_ends_at: instant.nullable(),
    cancelled_during_cooling_off_period: z.boolean(),
    transition_to_price: price.nullable(),
    transition_takes_effect_at: instant.nullable(),
    version: z.number().int(),
    private_price_link_id: id.nullable(),
    pif_ends_at: instant.nullable(),
    first_payment: paymentRef.nullable(),
    latest_payment: paymentRef.nullable(),
    cancellation_reasons: z.array(z.string()),
    cancellation_comments: z.string().nullable(),
  })
  .passthrough()
  .describe("SPEC §3 Subscription");

export const accessControlCredential = z
  .object({ id, provider: z.string(), kind: z.string(), identifier_hint: z.string().nullable(), status: z.string() })
  .passthrough()
  .describe("A door credential (never a whole card number or a PIN)");

export const member = z
  .object({
    id,
    name: z.string(),
    email: z.string(),
    mobile_number: z.string().nullable(),
    dob: localDay.nullable(),
    email_notifications: z.boolean(),
    push_notifications: z.boolean(),
    payment_reminders: z.boolean(),
    emergency_contact_name: z.string().nullable(),
    emergency_contact_number: z.string().nullable(),
    emergency_contact_relationship: z.string().nullable(),
    latest_subscription: subscription.nullable(),
    default_payment_type: paymentType.nullable(),
    payment_types: z.array(paymentType),
    profile_picture: z.string().nullable(),
    visits_count: z.number().int(),
    notes: z.string().nullable(),
    access_control_credentials: z.array(accessControlCredential),
    reauthenticate_akahu: z.boolean().describe("Their bank connection must be made again"),
    has_akahu_connection: z.boolean(),
    is_returning_member: z.boolean(),
    address: z.string().nullable(),
    suburb: z.string().nullable(),
    city: z.string().nullable(),
    post_code: z.string().nullable(),
    confidence_and_experience: z.string().nullable(),
    hear_about_us: z.string().nullable(),
    tags: z.array(z.string()),
    should_onboard: z.boolean(),
    invited_at: instant.nullable(),
    deleted_at: instant.nullable(),
  })
  .passthrough()
  .describe("SPEC §3 Member");

// ───────────────────────────── people, visits ─────────────────────────────

export const signedInUser = z
  .object({
    id,
    name: z.string(),
    email: z.string(),
    current_organisation: z.object({ id, name: z.string(), multi_gym: z.boolean(), role: z.string() }).passthrough().nullable(),
    current_gym: z.object({ id, role: z.string().nullable() }).passthrough().nullable(),
    organisations: z.array(ref),
    gyms: z.array(ref),
    profile_picture: z.string().nullable(),
    payment_types: z.array(paymentType),
    start_date: localDay.nullable(),
    billing_date: localDay.nullable(),
    offering: ref.nullable(),
    price_id: id.nullable(),
    default_payment_type: paymentType.nullable(),
    general_card_surcharge_text: z.string().nullable(),
    is_staff: z.boolean(),
    should_onboard: z.boolean(),
    invited_at: instant.nullable(),
  })
  .passthrough()
  .describe("SPEC §3 Signed-in user");

export const searchResult = z.object({ id, name: z.string(), email: z.string() }).passthrough().describe("SPEC §3 Search result");

export const staff = z
  .object({
    id,
    name: z.string(),
    email: z.string(),
    role: z.enum(["admin", "personal_trainer"]),
    gyms: z.array(z.object({ id, name: z.string(), role: z.enum(["admin", "personal_trainer"]) }).passthrough()),
    pending_invite: z.boolean(),
    access_enabled: z.boolean(),
    deleted_at: instant.nullable(),
    profile_picture: z.string().nullable(),
    visits_count: z.number().int(),
    calendar_colour: z.string(),
  })
  .passthrough()
  .describe("SPEC §3 Staff");

export const visit = z.object({ id, user: ref, gym: ref, visited_at: instant, successful: z.boolean() }).passthrough().describe("SPEC §3 Visit");
