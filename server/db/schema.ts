import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { SubscriptionState } from "../../domain/subscription";

/**
 * One schema for PGlite and PostgreSQL. Field names follow SPEC §3.
 * Every tenant-owned table carries organisation_id; server/db/tenant.ts is the only way handlers reach them.
 * Money is integer cents; instants are timestamptz (UTC).
 */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const created = () => ts("created_at").notNull().defaultNow();
const updated = () => ts("updated_at").notNull().defaultNow();

export type OfferingPermissions = { enable_offerings: boolean; non_stop: boolean; limited_access: boolean };
export type PriceFrequencies = Record<"weekly" | "fortnightly" | "monthly" | "quarterly" | "six_monthly" | "yearly", boolean>;
export type PeriodUnit = "day" | "week" | "month";

export const organisations = pgTable("organisations", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  multi_gym: boolean("multi_gym").notNull().default(false),
  /** Switches the calendar, recurring schedules and messaging on for this organisation. */
  calendar_and_messaging: boolean("calendar_and_messaging").notNull().default(false),
  offering_permissions: jsonb("offering_permissions")
    .$type<OfferingPermissions>()
    .notNull()
    .default({ enable_offerings: true, non_stop: true, limited_access: true }),
  price_frequencies: jsonb("price_frequencies")
    .$type<PriceFrequencies>()
    .notNull()
    .default({ weekly: true, fortnightly: true, monthly: true, quarterly: false, six_monthly: false, yearly: false }),
  failed_payment_grace_period: integer("failed_payment_grace_period").notNull().default(7),
  failed_payment_grace_period_unit: text("failed_payment_grace_period_unit").$type<PeriodUnit>().notNull().default("day"),
  term_membership_grace_period: integer("term_membership_grace_period").notNull().default(14),
  term_membership_grace_period_unit: text("term_membership_grace_period_unit").$type<PeriodUnit>().notNull().default("day"),
  created_at: created(),
  updated_at: updated(),
});

export const gyms = pgTable(
  "gyms",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    uuid: uuid("uuid").notNull().defaultRandom(),
    name: text("name").notNull(),
    logo: text("logo"),
    stripe_id: text("stripe_id"),
    gocardless_organisation_id: text("gocardless_organisation_id"),
    price_change_notification_reply_to: text("price_change_notification_reply_to"),
    break_fee_percentage: integer("break_fee_percentage"),
    /** The card surcharge (domain/surcharge.ts): a percentage in basis points (150 = 1.5 %) plus fixed cents. */
    card_surcharge_basis_points: integer("card_surcharge_basis_points").notNull().default(0),
    card_surcharge_fixed: integer("card_surcharge_fixed").notNull().default(0),
    /** What members are told about it, e.g. "Card payments carry a 1.5% surcharge". */
    general_card_surcharge_text: text("general_card_surcharge_text"),
    tracks_visits: boolean("tracks_visits").notNull().default(false),
    /** Provider credentials (deep links, bank data, direct debit, push): secrets, never sent back whole. */
    integrations: jsonb("integrations").$type<Record<string, Record<string, string>>>().notNull().default({}),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [index("gyms_organisation_idx").on(t.organisation_id)],
);

export const destination_accounts = pgTable("destination_accounts", {
  id: serial("id").primaryKey(),
  organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
  gym_id: integer("gym_id").notNull().references(() => gyms.id),
  name: text("name").notNull(),
  bank_account_number: text("bank_account_number").notNull(),
  created_at: created(),
});

/** A person: staff, member or both. Membership of an organisation lives in organisation_users. */
export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    mobile_number: text("mobile_number"),
    password_hash: text("password_hash"),
    is_staff: boolean("is_staff").notNull().default(false),
    email_verified_at: ts("email_verified_at"),
    dob: date("dob"),
    email_notifications: boolean("email_notifications").notNull().default(true),
    push_notifications: boolean("push_notifications").notNull().default(true),
    payment_reminders: boolean("payment_reminders").notNull().default(true),
    emergency_contact_name: text("emergency_contact_name"),
    emergency_contact_number: text("emergency_contact_number"),
    emergency_contact_relationship: text("emergency_contact_relationship"),
    profile_picture: text("profile_picture"),
    address: text("address"),
    suburb: text("suburb"),
    city: text("city"),
    post_code: text("post_code"),
    confidence_and_experience: text("confidence_and_experience"),
    hear_about_us: text("hear_about_us"),
    hear_about_us_other: text("hear_about_us_other"),
    should_onboard: boolean("should_onboard").notNull().default(false),
    invited_at: ts("invited_at"),
    calendar_colour: text("calendar_colour").notNull().default("green"),
    current_organisation_id: integer("current_organisation_id").references(() => organisations.id),
    current_gym_id: integer("current_gym_id").references(() => gyms.id),
    deleted_at: ts("deleted_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`)],
);

/** A user's place in an organisation: staff ('admin' / 'personal_trainer') or 'member'. */
export const organisation_users = pgTable(
  "organisation_users",
  {
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    role: text("role").$type<"admin" | "personal_trainer" | "member">().notNull(),
    /** Organisation-level fields of a member. */
    notes: text("notes"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    access_enabled: boolean("access_enabled").notNull().default(true),
    pending_invite: boolean("pending_invite").notNull().default(false),
    default_payment_type_id: integer("default_payment_type_id"),
    home_gym_id: integer("home_gym_id").references(() => gyms.id),
    /**
     * Kept by triggers (drizzle/0004_members.sql), so the members list can filter and sort by them without
     * a lookup per member: the member's newest subscription here, and their successful visits.
     */
    latest_subscription_id: integer("latest_subscription_id").references((): AnyPgColumn => subscriptions.id, { onDelete: "set null" }),
    last_visit_at: ts("last_visit_at"),
    visits_count: integer("visits_count").notNull().default(0),
    /** lower(users.name), kept by triggers (drizzle/0008), so the list pages in name order from an index. */
    sort_name: text("sort_name").notNull().default(""),
    /**
     * The latest subscription's facts that the list filters by, copied here by triggers (drizzle/0009) so a
     * status, price or offering filter reads this row alone: its state leaving pauses aside (cancelled,
     * grace_period, upcoming or active; null without a subscription), its pause, its price and offering.
     * Paused is decided at query time from the pause dates (server/db/subscription-state.ts).
     */
    latest_state: text("latest_state").$type<Exclude<SubscriptionState, "paused">>(),
    latest_pause_start_at: ts("latest_pause_start_at"),
    latest_pause_end_at: ts("latest_pause_end_at"),
    latest_price_id: integer("latest_price_id"),
    latest_offering_id: integer("latest_offering_id"),
    deleted_at: ts("deleted_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [
    primaryKey({ columns: [t.organisation_id, t.user_id] }),
    index("organisation_users_user_idx").on(t.user_id),
    index("organisation_users_gym_idx").on(t.organisation_id, t.home_gym_id),
    // The members list's sorts, in its order (server/api/members/list.ts sortKeys), per gym and for every gym.
    index("organisation_users_name_idx")
      .on(t.organisation_id, t.home_gym_id, sql`${t.sort_name} collate "C"`, t.user_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
    index("organisation_users_name_all_idx")
      .on(t.organisation_id, sql`${t.sort_name} collate "C"`, t.user_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
    index("organisation_users_joined_idx")
      .on(t.organisation_id, t.home_gym_id, t.created_at, t.user_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
    index("organisation_users_joined_all_idx")
      .on(t.organisation_id, t.created_at, t.user_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
    index("organisation_users_last_visit_idx")
      .on(t.organisation_id, t.home_gym_id, sql`coalesce(${t.last_visit_at}, '-infinity'::timestamptz)`, t.user_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
    index("organisation_users_last_visit_all_idx")
      .on(t.organisation_id, sql`coalesce(${t.last_visit_at}, '-infinity'::timestamptz)`, t.user_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
    index("organisation_users_tags_idx").using("gin", t.tags),
    // The members list's filters on the latest subscription (drizzle/0009). The state index carries the
    // pause dates and offering too, so status counts ("not paused now") and the dashboard's member summary
    // (server/api/dashboard/member-summary.ts) are answered from the index alone.
    index("organisation_users_state_idx")
      .on(t.organisation_id, t.latest_state, t.home_gym_id, t.latest_pause_start_at, t.latest_pause_end_at, t.latest_offering_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
    index("organisation_users_paused_idx")
      .on(t.organisation_id, t.latest_pause_start_at)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null and ${t.latest_pause_start_at} is not null`),
    index("organisation_users_price_idx")
      .on(t.organisation_id, t.latest_price_id, t.home_gym_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
    index("organisation_users_offering_idx")
      .on(t.organisation_id, t.latest_offering_id, t.home_gym_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
    // The members list's counts: index-only over current members, joined to their latest subscription.
    index("organisation_users_members_idx")
      .on(t.organisation_id, t.home_gym_id, t.latest_subscription_id)
      .where(sql`${t.role} = 'member' and ${t.deleted_at} is null`),
  ],
);

/** A staff member's role at one gym. */
export const gym_users = pgTable(
  "gym_users",
  {
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    role: text("role").$type<"admin" | "personal_trainer">().notNull(),
    created_at: created(),
  },
  (t) => [primaryKey({ columns: [t.gym_id, t.user_id] }), index("gym_users_user_idx").on(t.user_id)],
);

/** Server-side sessions. The cookie holds a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    user_id: integer("user_id").notNull().references(() => users.id),
    two_factor_passed: boolean("two_factor_passed").notNull().default(false),
    ip: text("ip"),
    user_agent: text("user_agent"),
    created_at: created(),
    last_seen_at: ts("last_seen_at").notNull().defaultNow(),
    expires_at: ts("expires_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.user_id)],
);

/** E-mailed one-time codes (two-factor, e-mail verification). Only a hash is stored. */
export const email_codes = pgTable(
  "email_codes",
  {
    id: serial("id").primaryKey(),
    user_id: integer("user_id").notNull().references(() => users.id),
    code_hash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expires_at: ts("expires_at").notNull(),
    used_at: ts("used_at"),
    created_at: created(),
  },
  (t) => [index("email_codes_user_idx").on(t.user_id)],
);

/** Single-use links: password reset, invite, and the member handoff between hosts. Only a hash is stored. */
export const password_links = pgTable("password_links", {
  id: serial("id").primaryKey(),
  user_id: integer("user_id").notNull().references(() => users.id),
  purpose: text("purpose").$type<"reset" | "invite" | "handoff">().notNull(),
  token_hash: text("token_hash").notNull().unique(),
  expires_at: ts("expires_at").notNull(),
  used_at: ts("used_at"),
  created_at: created(),
});

/** Fixed-window counters for throttling (sign-in per account and per IP, register per IP). */
export const rate_limits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  reset_at: ts("reset_at").notNull(),
});

/** Mail sent while no SMTP_URL is set: the demo outbox shown at /dev/mail. */
export const mail_outbox = pgTable("mail_outbox", {
  id: serial("id").primaryKey(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html").notNull(),
  sent_at: ts("sent_at").notNull().defaultNow(),
});

export const offerings = pgTable(
  "offerings",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    name: text("name").notNull(),
    description: text("description"),
    type: text("type").$type<"24_7" | "limited_access">().notNull(),
    all_gyms_access: boolean("all_gyms_access").notNull().default(false),
    mandated: boolean("mandated").notNull().default(false),
    hours_mandated: boolean("hours_mandated").notNull().default(false),
    prices_mandated: boolean("prices_mandated").notNull().default(false),
    archived_at: ts("archived_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [index("offerings_organisation_idx").on(t.organisation_id)],
);

export const offering_gyms = pgTable(
  "offering_gyms",
  {
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    offering_id: integer("offering_id").notNull().references(() => offerings.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
  },
  (t) => [primaryKey({ columns: [t.offering_id, t.gym_id] })],
);

export const offering_hours = pgTable("offering_hours", {
  id: serial("id").primaryKey(),
  organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
  offering_id: integer("offering_id").notNull().references(() => offerings.id),
  day: smallint("day").notNull(),
  open_at: time("open_at").notNull(),
  close_at: time("close_at").notNull(),
});

export const prices = pgTable(
  "prices",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    offering_id: integer("offering_id").notNull().references(() => offerings.id),
    gym_id: integer("gym_id").references(() => gyms.id),
    amount: integer("amount").notNull(),
    billing_frequency: text("billing_frequency").notNull(),
    joining_fee: integer("joining_fee").notNull().default(0),
    private: boolean("private").notNull().default(false),
    term_amount: integer("term_amount"),
    term_unit: text("term_unit"),
    grouping_unique_identifier: uuid("grouping_unique_identifier").notNull().defaultRandom(),
    archived_at: ts("archived_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [index("prices_offering_idx").on(t.offering_id), index("prices_organisation_idx").on(t.organisation_id)],
);

export const payment_types = pgTable(
  "payment_types",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    type: text("type").$type<"bank_account" | "stripe_card" | "gocardless_bank_account">().notNull(),
    /** bank_account: account_number, name, status · stripe_card: type, exp_month, exp_year, last_four, country · gocardless_bank_account: name, account_number, mandate_id */
    details: jsonb("details").$type<Record<string, string | number>>().notNull(),
    created_at: created(),
  },
  (t) => [index("payment_types_user_idx").on(t.organisation_id, t.user_id)],
);

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    price_id: integer("price_id").notNull().references(() => prices.id),
    current_period_start: ts("current_period_start"),
    current_period_end: ts("current_period_end"),
    paused_at: ts("paused_at"),
    pause_start_at: ts("pause_start_at"),
    pause_end_at: ts("pause_end_at"),
    pause_days_credit: integer("pause_days_credit").notNull().default(0),
    /** The first day of the first full period, in Auckland: the rhythm its charges follow (domain/schedule.ts). */
    billing_anchor: date("billing_anchor"),
    cancelled_at: ts("cancelled_at"),
    undo_cancellation_until: ts("undo_cancellation_until"),
    cancelled_during_cooling_off_period: boolean("cancelled_during_cooling_off_period").notNull().default(false),
    cancellation_reasons: jsonb("cancellation_reasons").$type<string[]>(),
    cancellation_comments: text("cancellation_comments"),
    grace_period_ends_at: ts("grace_period_ends_at"),
    upcoming_state: text("upcoming_state"),
    initial_state: text("initial_state"),
    force_price_amount: integer("force_price_amount"),
    cooling_period_ends_at: ts("cooling_period_ends_at"),
    term_ends_at: ts("term_ends_at"),
    pif_ends_at: ts("pif_ends_at"),
    transition_to_price_id: integer("transition_to_price_id").references(() => prices.id),
    transition_takes_effect_at: ts("transition_takes_effect_at"),
    private_price_link_id: integer("private_price_link_id"),
    version: integer("version").notNull().default(1),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [
    index("subscriptions_user_idx").on(t.organisation_id, t.user_id),
    index("subscriptions_gym_idx").on(t.organisation_id, t.gym_id),
    // The few in a grace period: the billing run ends those that ran out (server/billing/outcomes.ts).
    index("subscriptions_grace_idx").on(t.grace_period_ends_at).where(sql`grace_period_ends_at is not null`),
  ],
);

export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    subscription_id: integer("subscription_id").references(() => subscriptions.id),
    payment_type_id: integer("payment_type_id").references(() => payment_types.id),
    destination_account_id: integer("destination_account_id").references(() => destination_accounts.id),
    amount: integer("amount").notNull(),
    surcharge: integer("surcharge").notNull().default(0),
    period_start_at: ts("period_start_at"),
    period_end_at: ts("period_end_at"),
    status: text("status").notNull(),
    type: text("type"),
    is_retry: boolean("is_retry").notNull().default(false),
    is_pro_rata: boolean("is_pro_rata").notNull().default(false),
    is_term_membership: boolean("is_term_membership").notNull().default(false),
    poll_count: integer("poll_count").notNull().default(0),
    credit_used: integer("credit_used").notNull().default(0),
    balance_owing: integer("balance_owing").notNull().default(0),
    periods_owing: integer("periods_owing").notNull().default(0),
    /** 0 for a period's first charge, 1… for its retries: one row per (subscription, period, attempt). */
    attempt: integer("attempt").notNull().default(0),
    /** Sent with the charge to the provider (`charge:{subscription}:{period start}:{attempt}`): asked twice, it charges once. */
    idempotency_key: text("idempotency_key"),
    force_amount: integer("force_amount"),
    error_status: text("error_status"),
    error_description: text("error_description"),
    processed_by: integer("processed_by").references(() => users.id),
    stripe_id: text("stripe_id"),
    gocardless_payment_id: text("gocardless_payment_id"),
    pif_payment: text("pif_payment").$type<"eftpos" | "cash" | "bank_transfer">(),
    meta: jsonb("meta").$type<Record<string, unknown>>(),
    expected_charge_date: date("expected_charge_date"),
    created_at: created(),
  },
  (t) => [
    index("payments_org_created_idx").on(t.organisation_id, t.created_at),
    index("payments_user_idx").on(t.organisation_id, t.user_id, t.created_at),
    uniqueIndex("payments_one_per_period_idx")
      .on(t.subscription_id, t.period_start_at, t.attempt)
      .where(sql`subscription_id is not null and period_start_at is not null`),
    uniqueIndex("payments_idempotency_key_idx").on(t.idempotency_key),
    // By id: the charge step walks the pending payments in id order, a batch after another (server/billing/charge.ts).
    index("payments_pending_id_idx").on(t.id).where(sql`status = 'pending'`),
    // The billing run's retries look at the last week's failures only (server/billing/plan.ts planRetries).
    index("payments_failed_idx").on(t.created_at).where(sql`status = 'failed'`),
  ],
);

export const visits = pgTable(
  "visits",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    visited_at: ts("visited_at").notNull(),
    successful: boolean("successful").notNull().default(true),
  },
  (t) => [
    index("visits_org_visited_idx").on(t.organisation_id, t.visited_at),
    index("visits_user_idx").on(t.organisation_id, t.user_id, t.visited_at),
  ],
);

/** A member's door credentials (cards, fobs, PINs, phone keys) issued by an access-control integration. */
export const access_control_credentials = pgTable(
  "access_control_credentials",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    gym_id: integer("gym_id").references(() => gyms.id),
    /** The integration that issued it, e.g. kisi. */
    provider: text("provider").notNull(),
    kind: text("kind").$type<"card" | "fob" | "pin" | "mobile">().notNull(),
    /** The last characters of the card or fob number, never the whole number or a PIN. */
    identifier_hint: text("identifier_hint"),
    status: text("status").$type<"active" | "suspended" | "revoked">().notNull().default("active"),
    issued_at: ts("issued_at").notNull().defaultNow(),
    last_used_at: ts("last_used_at"),
    created_at: created(),
  },
  (t) => [index("access_control_credentials_user_idx").on(t.organisation_id, t.user_id)],
);

/** Each price change of a subscription: scheduled, applied or called off (the billing engine writes these). */
export const price_changes = pgTable(
  "price_changes",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    subscription_id: integer("subscription_id").notNull().references(() => subscriptions.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    from_price_id: integer("from_price_id").references(() => prices.id),
    to_price_id: integer("to_price_id").notNull().references(() => prices.id),
    from_amount: integer("from_amount").notNull(),
    to_amount: integer("to_amount").notNull(),
    takes_effect_at: ts("takes_effect_at"),
    applied_at: ts("applied_at"),
    cancelled_at: ts("cancelled_at"),
    member_notified_at: ts("member_notified_at"),
    changed_by: integer("changed_by").references(() => users.id),
    created_at: created(),
  },
  (t) => [index("price_changes_user_idx").on(t.organisation_id, t.user_id)],
);

/** Profile photos, resized and stripped of metadata on upload; users.profile_picture names the current one. */
export const profile_pictures = pgTable("profile_pictures", {
  id: uuid("id").primaryKey().defaultRandom(),
  user_id: integer("user_id").notNull().references(() => users.id),
  content_type: text("content_type").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  bytes: bytea("bytes").notNull(),
  created_at: created(),
});

/**
 * Daily rollups for the dashboard, kept by triggers on payments and visits (drizzle/0003_dashboard_rollups.sql)
 * in the same transaction as the write, so they are exact. `day` is the Pacific/Auckland calendar day.
 * Nothing in the app writes them; the dashboard reads them instead of scanning millions of rows.
 */
export const daily_revenue = pgTable(
  "daily_revenue",
  {
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    day: date("day").notNull(),
    /** Cents of payments with status 'sent', by the day they were created. */
    collected: bigint("collected", { mode: "number" }).notNull().default(0),
    /** Payments created that day that failed (domain/payment.ts: neither sent nor one of the non-failed statuses). */
    failed_payments: integer("failed_payments").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organisation_id, t.gym_id, t.day] })],
);

export const daily_visits = pgTable(
  "daily_visits",
  {
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    day: date("day").notNull(),
    /** Successful visits (a refused door entry is not a visit). */
    visits: integer("visits").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organisation_id, t.gym_id, t.day] })],
);

/**
 * Figures the API computes and keeps for a while, shared by every server process (server/cache/shared-figures.ts):
 * one entry per key, as cachified writes it. UNLOGGED (drizzle/0012): a cache, not worth the write-ahead log.
 */
export const figures_cache = pgTable("figures_cache", {
  key: text("key").primaryKey(),
  organisation_id: integer("organisation_id").notNull(),
  entry: jsonb("entry").notNull(),
});

export const conversations = pgTable(
  "conversations",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").references(() => gyms.id),
    member_id: integer("member_id").notNull().references(() => users.id),
    last_message_at: ts("last_message_at"),
    created_at: created(),
  },
  (t) => [index("conversations_org_idx").on(t.organisation_id)],
);

export const messages = pgTable(
  "messages",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    conversation_id: integer("conversation_id").notNull().references(() => conversations.id),
    sender_id: integer("sender_id").notNull().references(() => users.id),
    from_member: boolean("from_member").notNull(),
    body: text("body").notNull(),
    read_at: ts("read_at"),
    created_at: created(),
  },
  (t) => [
    index("messages_conversation_idx").on(t.conversation_id),
    // Members' unread messages (the sidebar's badge): only those rows, so the count walks nothing else.
    index("messages_unread_idx").on(t.organisation_id, t.conversation_id).where(sql`${t.from_member} and ${t.read_at} is null`),
  ],
);

/**
 * The sandbox payment providers' own books (server/providers/*\/sandbox.ts): what "the provider" has charged,
 * kept apart from our payments as a real provider's are, and written outside our transactions. One row per
 * idempotency key, so a request sent again is answered from here instead of charging again.
 */
export const sandbox_ledger = pgTable(
  "sandbox_ledger",
  {
    id: serial("id").primaryKey(),
    provider: text("provider").notNull(),
    idempotency_key: text("idempotency_key").notNull(),
    /** The request's parameters, as the provider compares them when a key is used again. */
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    object_id: text("object_id").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status").notNull(),
    decline_code: text("decline_code"),
    /** The webhook the provider owes us for this charge: null until sent ("delivered") or lost on purpose ("dropped"). */
    webhook_state: text("webhook_state").$type<"delivered" | "dropped">(),
    webhook_at: ts("webhook_at"),
    created_at: created(),
  },
  (t) => [
    uniqueIndex("sandbox_ledger_key_idx").on(t.provider, t.idempotency_key),
    index("sandbox_ledger_webhooks_due_idx").on(t.created_at).where(sql`webhook_state is null`),
  ],
);

/**
 * Every call a payment provider makes to /api/webhooks/* (issue 11), stored before it is processed: the raw body
 * exactly as it came (the signature is over those bytes), its headers, and what became of it. Processing is
 * idempotent by (provider, event_id); staff can replay a call from /webhook-calls.
 */
export const webhook_calls = pgTable(
  "webhook_calls",
  {
    id: serial("id").primaryKey(),
    /** Resolved from the event (a gym's Stripe account or GoCardless organisation, or the payment it names); null until then. */
    organisation_id: integer("organisation_id").references(() => organisations.id),
    provider: text("provider").$type<"stripe" | "gocardless">().notNull(),
    event_id: text("event_id"),
    event_type: text("event_type"),
    /** received → processed | duplicate | ignored | failed; rejected when the signature is bad (never processed). */
    status: text("status").$type<"received" | "processed" | "duplicate" | "ignored" | "failed" | "rejected">().notNull(),
    /** What processing did, in words (which payment it settled, or why it did nothing). */
    result: text("result"),
    headers: jsonb("headers").$type<Record<string, string>>().notNull(),
    body: text("body").notNull(),
    duration_ms: integer("duration_ms"),
    replay_of_id: integer("replay_of_id"),
    received_at: ts("received_at").notNull().defaultNow(),
  },
  (t) => [
    index("webhook_calls_event_idx").on(t.provider, t.event_id),
    index("webhook_calls_organisation_idx").on(t.organisation_id, t.received_at),
  ],
);

/**
 * Billing e-mails sent to members (server/billing/notices.ts), one row per notice: its key makes each one go once
 * (`payment_failed:{payment}`, `grace_ending:{subscription}:{grace end}`), however often the run looks.
 */
export const billing_notices = pgTable(
  "billing_notices",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    kind: text("kind").$type<"payment_failed" | "card_unusable" | "grace_ending">().notNull(),
    key: text("key").notNull(),
    payment_id: integer("payment_id"),
    subscription_id: integer("subscription_id"),
    /** Whether an e-mail went (the member may have e-mails off): the notice counts as given either way. */
    emailed: boolean("emailed").notNull(),
    created_at: created(),
  },
  (t) => [uniqueIndex("billing_notices_key_idx").on(t.key)],
);
