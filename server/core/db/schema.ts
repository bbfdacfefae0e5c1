import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
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
import type { OfferingPermissions, PriceFrequencies } from "../../../domain/offering";
import { DEFAULT_MINIMUM_AGE, type PeriodUnit } from "../../../domain/organisation";
import type { SubscriptionState } from "../../../domain/subscription";
import type { ColumnTarget, DateOrder, ImportSummary } from "../../../domain/imports";

/**
 * One schema for PGlite and PostgreSQL. Field names follow SPEC §3.
 * Every tenant-owned table carries organisation_id; server/core/db/tenant.ts is the only way handlers reach them.
 * Money is integer cents; instants are timestamptz (UTC).
 */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const created = () => ts("created_at").notNull().defaultNow();
const updated = () => ts("updated_at").notNull().defaultNow();

export type { OfferingPermissions, PriceFrequencies } from "../../../domain/offering";
export type { PeriodUnit } from "../../../domain/organisation";

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
  /** The youngest a person may join online without an age-bypass link (decision 0025; its settings section, decision 0026). */
  minimum_age: integer("minimum_age").notNull().default(DEFAULT_MINIMUM_AGE),
  /** Issue 31's member e-mails: a receipt for each successful payment (on by default). */
  payment_receipts: boolean("payment_receipts").notNull().default(true),
  /** One reminder a day after a person stopped part way through sign-up (off by default). */
  signup_reminders: boolean("signup_reminders").notNull().default(false),
  /** The membership terms members accept on the confirm page: the organisation's own words, or a link to them. */
  membership_terms_text: text("membership_terms_text"),
  membership_terms_url: text("membership_terms_url"),
  /**
   * What members may do themselves on the sign-up app (issue 31, decision 0058), all off by default: pause, up to so
   * many days in any twelve months; cancel, giving so many days' notice (0: at the end of the paid period).
   */
  members_may_pause: boolean("members_may_pause").notNull().default(false),
  member_pause_days_per_year: integer("member_pause_days_per_year").notNull().default(28),
  members_may_cancel: boolean("members_may_cancel").notNull().default(false),
  member_cancel_notice_days: integer("member_cancel_notice_days").notNull().default(0),
  /**
   * Group classes' booking rules (issue 34, decision 0065): booking opens so many days ahead; cancelling less than so
   * many minutes before the start is a late cancellation (the place is freed, the booking marked late); a member holds
   * at most so many upcoming bookings (waitlist places included).
   */
  class_booking_window_days: integer("class_booking_window_days").notNull().default(7),
  class_cancel_cutoff_minutes: integer("class_cancel_cutoff_minutes").notNull().default(120),
  class_max_bookings: integer("class_max_bookings").notNull().default(5),
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
    /** Where it is, as members are told (issue 32): a postal address, lines as typed. */
    address: text("address"),
    /** Archived (issue 32): no longer sold or offered in the switchers; its members, payments and history stay. */
    archived_at: timestamp("archived_at", { withTimezone: true }),
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
     * A trainer's private calendar feed (issue 16): the link's token, sealed so it can be shown again, and its
     * SHA-256 so the feed finds the trainer without a session. A new link replaces both.
     */
    calendar_feed_token: text("calendar_feed_token"),
    calendar_feed_hash: text("calendar_feed_hash").unique(),
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
     * Paused is decided at query time from the pause dates (server/core/db/subscription-state.ts).
     */
    latest_state: text("latest_state").$type<Exclude<SubscriptionState, "paused">>(),
    latest_pause_start_at: ts("latest_pause_start_at"),
    latest_pause_end_at: ts("latest_pause_end_at"),
    latest_price_id: integer("latest_price_id"),
    latest_offering_id: integer("latest_offering_id"),
    /**
     * What a person joining online came for (issue 13), kept from the link they arrived by until they confirm, so a
     * person who leaves half-way and signs in days later resumes with it: a price, and the private link that shows
     * a private price (with its age bypass).
     */
    signup_price_id: integer("signup_price_id"),
    signup_link_id: integer("signup_link_id"),
    /** The day a member joining at the desk (issue 32, a walk-in) was quoted to start: their confirm page starts there. */
    signup_start_on: date("signup_start_on", { mode: "string" }),
    /** The desk's key for a walk-in join (issue 32): the same form sent twice makes one member (unique in the organisation). */
    walk_in_key: text("walk_in_key"),
    /** The member import that last wrote this member (issue 15): whom its "invite" reaches. */
    import_id: integer("import_id"),
    /**
     * The member's code at the desk and the kiosk (issue 32): eight characters of Crockford's base 32 (no I, L, O,
     * U), made at random by the database for every row (drizzle/0044), unique in the organisation. Shown, with its
     * QR code, on the member's own membership page.
     */
    member_code: text("member_code").notNull().default(sql`new_member_code()`),
    /** A staff member switched off (issue 15): no sign-in here, sessions ended, their record kept. */
    deactivated_at: ts("deactivated_at"),
    deleted_at: ts("deleted_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [
    primaryKey({ columns: [t.organisation_id, t.user_id] }),
    index("organisation_users_user_idx").on(t.user_id),
    uniqueIndex("organisation_users_member_code_idx").on(t.organisation_id, t.member_code),
    uniqueIndex("organisation_users_walk_in_key_idx").on(t.organisation_id, t.walk_in_key),
    index("organisation_users_gym_idx").on(t.organisation_id, t.home_gym_id),
    // The members list's sorts, in its order (server/members/list.ts sortKeys), per gym and for every gym.
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
    // (server/dashboard/member-summary.ts) are answered from the index alone.
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
    /**
     * A check-in kiosk (issue 32): the staff session on the tablet at this gym's entrance. It may only check members
     * in there (server/core/middleware.ts); signing out, and a staff member signing in again, ends it.
     */
    kiosk_gym_id: integer("kiosk_gym_id").references(() => gyms.id),
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
  purpose: text("purpose").$type<"reset" | "invite" | "handoff" | "sign_in" | "join">().notNull(),
  token_hash: text("token_hash").notNull().unique(),
  expires_at: ts("expires_at").notNull(),
  used_at: ts("used_at"),
  created_at: created(),
});

/**
 * An organisation's invitation to a person who already has an account (decision 0048): they join only when they
 * accept it. Until then the organisation sees what it wrote here (the address and name it typed), never the account.
 * `role` and `gyms` for staff; `membership` the import's or desk's member fields (notes, tags, price, joined on).
 */
export const organisation_invitations = pgTable(
  "organisation_invitations",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    role: text("role").$type<"admin" | "personal_trainer" | "member">().notNull(),
    gyms: jsonb("gyms").$type<{ id: number; role: "admin" | "personal_trainer" }[]>().notNull().default([]),
    home_gym_id: integer("home_gym_id").references(() => gyms.id),
    membership: jsonb("membership").$type<{ notes?: string | null; tags?: string[]; signup_price_id?: number | null; joined_on?: string | null }>().notNull().default({}),
    calendar_colour: text("calendar_colour"),
    import_id: integer("import_id"),
    invited_by: integer("invited_by").references(() => users.id),
    token_hash: text("token_hash").notNull().unique(),
    expires_at: ts("expires_at").notNull(),
    accepted_at: ts("accepted_at"),
    declined_at: ts("declined_at"),
    revoked_at: ts("revoked_at"),
    created_at: created(),
  },
  (t) => [
    // One open invitation per person and organisation: inviting again renews it.
    uniqueIndex("organisation_invitations_open_idx").on(t.organisation_id, t.user_id).where(sql`accepted_at is null and declined_at is null and revoked_at is null`),
  ],
);

/** Fixed-window counters for throttling (sign-in per account and per IP, register per IP). */
export const rate_limits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  reset_at: ts("reset_at").notNull(),
});

/**
 * This installation's own secrets (issue 29 H3), made at random at first start and kept here: what the sandbox
 * providers sign their webhooks with and our endpoints check, where no secret is set in the environment. Never a
 * constant in the source. Not an organisation's: the tenant role cannot read them (drizzle/0040).
 */
export const installation_secrets = pgTable("installation_secrets", {
  name: text("name").primaryKey(),
  secret: text("secret").notNull(),
  created_at: created(),
});

/** Mail sent while no SMTP_URL is set: the demo outbox shown at /dev/mail. */
export const mail_outbox = pgTable("mail_outbox", {
  id: serial("id").primaryKey(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html").notNull(),
  /** Where the member's answer goes (a gym's price-change notices: its price_change_notification_reply_to). */
  reply_to: text("reply_to"),
  /** Extra headers (List-Unsubscribe on members' e-mails). */
  headers: jsonb("headers").$type<Record<string, string>>(),
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
    /** The sign-up confirm form's idempotency key (issue 13): the same form sent twice makes one subscription. */
    signup_key: text("signup_key"),
    /** When the member accepted the gym's terms on the sign-up confirm page. */
    terms_accepted_at: ts("terms_accepted_at"),
    /** What those terms were then: the organisation's text or link as the confirm page showed it. */
    terms_accepted: jsonb("terms_accepted").$type<{ text: string | null; url: string | null }>(),
    /**
     * A cancellation asked for with notice that runs past the paid period (decision 0058): access lasts until this
     * period end, the payments before it are still taken, and the billing run applies the cancellation once the
     * period ending here is paid for (server/subscriptions/scheduled-cancel.ts). Null when none is waiting.
     */
    cancel_at: ts("cancel_at"),
    cancel_request: jsonb("cancel_request").$type<{ reasons: string[]; comments: string | null; requested_by: number; requested_at: string }>(),
    version: integer("version").notNull().default(1),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [
    index("subscriptions_user_idx").on(t.organisation_id, t.user_id),
    index("subscriptions_gym_idx").on(t.organisation_id, t.gym_id),
    // The few in a grace period: the billing run ends those that ran out (server/billing/outcomes.ts).
    index("subscriptions_grace_idx").on(t.grace_period_ends_at).where(sql`grace_period_ends_at is not null`),
    uniqueIndex("subscriptions_signup_key_idx").on(t.user_id, t.signup_key).where(sql`signup_key is not null`),
  ],
);

/**
 * A private price's link (SPEC §7 POST /api/prices/{id}/private-links): the only way a person sees a private price
 * on sign-up; with `age_bypass` it also lets someone under the minimum age join (a parent signing a teenager up).
 * An organisation's age-bypass link has no price: it lets the person join on any public price.
 */
export const private_price_links = pgTable(
  "private_price_links",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    /** Null for an organisation's age-bypass link (POST /api/organisations/{id}/age-bypass-links): any public price. */
    price_id: integer("price_id").references(() => prices.id),
    token: uuid("token").notNull().defaultRandom(),
    age_bypass: boolean("age_bypass").notNull().default(false),
    created_by: integer("created_by").references(() => users.id),
    revoked_at: ts("revoked_at"),
    created_at: created(),
  },
  (t) => [
    uniqueIndex("private_price_links_token_idx").on(t.token),
    index("private_price_links_price_idx").on(t.organisation_id, t.price_id),
    check("private_price_links_price_or_bypass", sql`${t.price_id} is not null or ${t.age_bypass}`),
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
    /** The bank payment Akahu made for it (a bank_account member's period). */
    akahu_payment_id: text("akahu_payment_id"),
    pif_payment: text("pif_payment").$type<"eftpos" | "cash" | "bank_transfer">(),
    meta: jsonb("meta").$type<Record<string, unknown>>(),
    expected_charge_date: date("expected_charge_date"),
    /** When the provider's answer made it failed: a period's retry schedule counts from its first failure (issue 28). */
    failed_at: ts("failed_at"),
    /** When it became successful (filled by a trigger, drizzle/0042): the member's receipt is sent from then. */
    paid_at: ts("paid_at"),
    created_at: created(),
  },
  (t) => [
    index("payments_org_created_idx").on(t.organisation_id, t.created_at),
    // The payments list (server/payments/list.ts): one gym's, and the rarer outcomes and desk methods, newest first.
    index("payments_org_gym_created_idx").on(t.organisation_id, t.gym_id, t.created_at),
    index("payments_not_failed_created_idx")
      .on(t.organisation_id, t.created_at)
      .where(sql`status in ('upcoming', 'pending', 'pending_request', 'awaiting_payment')`),
    // Failed ones: the same list, in the same order, as the list's filter (server/payments/list.ts FAILED).
    index("payments_failed_created_idx")
      .on(t.organisation_id, t.created_at)
      .where(sql`status not in ('sent', 'upcoming', 'pending', 'pending_request', 'awaiting_payment')`),
    index("payments_desk_created_idx").on(t.organisation_id, t.created_at).where(sql`pif_payment is not null`),
    index("payments_user_idx").on(t.organisation_id, t.user_id, t.created_at),
    uniqueIndex("payments_one_per_period_idx")
      .on(t.subscription_id, t.period_start_at, t.attempt)
      .where(sql`subscription_id is not null and period_start_at is not null`),
    uniqueIndex("payments_idempotency_key_idx").on(t.idempotency_key),
    // By id: the charge step walks the unsettled payments in id order, a batch after another (server/billing/charge.ts).
    index("payments_pending_id_idx").on(t.id).where(sql`status in ('pending', 'awaiting_payment')`),
    // A provider's webhook names its own payment id (server/webhooks/process.ts).
    index("payments_stripe_id_idx").on(t.stripe_id).where(sql`stripe_id is not null`),
    index("payments_gocardless_id_idx").on(t.gocardless_payment_id).where(sql`gocardless_payment_id is not null`),
    index("payments_akahu_id_idx").on(t.akahu_payment_id).where(sql`akahu_payment_id is not null`),
    // The billing run's retries look at the last week's failures only (server/billing/plan.ts planRetries).
    index("payments_failed_at_idx").on(t.failed_at).where(sql`status = 'failed'`),
    index("payments_paid_at_idx").on(t.paid_at).where(sql`status = 'sent'`),
  ],
);

/**
 * Money going back after a payment was paid (issue 28): a refund (full or partial, made by staff or at the provider)
 * or a chargeback (the payer's bank took it back; opened, then won or lost). Each is its own entry against the
 * payment, in cents. A refund is written down before its provider is asked (its key goes with the request); a
 * provider's own refund or dispute we learn of by webhook is written down once, by the provider's id.
 */
export const payment_adjustments = pgTable(
  "payment_adjustments",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    payment_id: integer("payment_id").notNull().references(() => payments.id),
    kind: text("kind").$type<"refund" | "chargeback">().notNull(),
    /** refund: pending → succeeded | failed; chargeback: open → won | lost. */
    status: text("status").$type<"pending" | "succeeded" | "failed" | "open" | "won" | "lost">().notNull(),
    amount: integer("amount").notNull(),
    reason: text("reason"),
    note: text("note"),
    /** Who did it: staff (actor_id) or the provider (its dashboard, or the payer's bank). */
    source: text("source").$type<"staff" | "provider">().notNull(),
    actor_id: integer("actor_id").references(() => users.id),
    /** How the money goes back: the payment's provider, or by hand (cash, EFTPOS, bank transfer). */
    method: text("method").notNull(),
    provider_id: text("provider_id"),
    idempotency_key: text("idempotency_key"),
    error: text("error"),
    settled_at: ts("settled_at"),
    created_at: created(),
    /**
     * When its payment was made, copied by a trigger from the payment on insert (drizzle/0038; a payment's
     * created_at never changes), so /payments' `adjusted` filter reads the range's adjustments from an index
     * instead of every adjustment of the organisation. Writers never give it: the `null` is replaced.
     */
    payment_created_at: ts("payment_created_at").notNull().$defaultFn(() => sql`null`),
  },
  (t) => [
    index("payment_adjustments_payment_idx").on(t.organisation_id, t.payment_id),
    index("payment_adjustments_payment_day_idx").on(t.organisation_id, t.kind, t.payment_created_at),
    index("payment_adjustments_org_created_idx").on(t.organisation_id, t.created_at),
    uniqueIndex("payment_adjustments_key_idx").on(t.idempotency_key),
    uniqueIndex("payment_adjustments_provider_idx").on(t.method, t.provider_id).where(sql`provider_id is not null`),
    index("payment_adjustments_pending_idx").on(t.id).where(sql`status in ('pending', 'open')`),
    check("payment_adjustments_amount_positive", sql`amount > 0`),
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
    /**
     * The door system's event that recorded it (issue 15), or a desk check-in's form key (`check-in:{key}`, issue
     * 32): the same event delivered twice, or the same form sent twice, is one visit.
     */
    door_event_id: text("door_event_id"),
    /** Where it was recorded (issue 32): a door's event, staff at the desk, or the member at the entrance's kiosk. */
    source: text("source").$type<"door" | "desk" | "kiosk">().notNull().default("door"),
    /** Why a check-in was refused, in staff's words (the access rule's: domain/access.ts); null for a door's and for a visit let in. */
    reason: text("reason"),
    /** The staff member who checked them in at the desk. */
    checked_in_by: integer("checked_in_by").references(() => users.id),
  },
  (t) => [
    uniqueIndex("visits_door_event_idx").on(t.organisation_id, t.door_event_id).where(sql`${t.door_event_id} is not null`),
    index("visits_org_visited_idx").on(t.organisation_id, t.visited_at),
    // The visits list: one gym's, and the refused ones, newest first.
    index("visits_org_gym_visited_idx").on(t.organisation_id, t.gym_id, t.visited_at),
    index("visits_refused_idx").on(t.organisation_id, t.visited_at).where(sql`not successful`),
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

/**
 * A personal-training appointment (issue 16; the calendar): a trainer's time with a member at a gym. Cancelled ones
 * are kept (cancelled_at) so the member's history and the trainer's week stay true. `series_id` and
 * `occurrence_start` tie an occurrence moved or cancelled out of a recurring schedule to the series (a later slice).
 */
export const appointments = pgTable(
  "appointments",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    trainer_id: integer("trainer_id").notNull().references(() => users.id),
    member_id: integer("member_id").notNull().references(() => users.id),
    starts_at: ts("starts_at").notNull(),
    ends_at: ts("ends_at").notNull(),
    notes: text("notes"),
    series_id: integer("series_id"),
    occurrence_start: ts("occurrence_start"),
    created_by: integer("created_by").notNull().references(() => users.id),
    cancelled_at: ts("cancelled_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [
    index("appointments_trainer_idx").on(t.organisation_id, t.trainer_id, t.starts_at),
    index("appointments_week_idx").on(t.organisation_id, t.starts_at),
    // An occurrence of a series is moved or cancelled once: its row is then changed, never doubled.
    uniqueIndex("appointments_occurrence_idx").on(t.series_id, t.occurrence_start),
    check("appointments_order", sql`${t.ends_at} > ${t.starts_at}`),
  ],
);

/**
 * A trainer's repeating sessions with a member (issue 16, /recurring-schedules): an RRULE (FREQ=WEEKLY;BYDAY=…, with
 * COUNT or UNTIL or neither) from `starts_on`, each occurrence at `start_time` Auckland wall-clock time for
 * `duration_minutes`, so 9:00 AM stays 9:00 AM across daylight saving. Occurrences are not stored: one that is moved
 * or cancelled becomes an appointment row with series_id and occurrence_start (its original start). `ends_on` is the
 * last day it can fall on (from UNTIL or COUNT), kept so a week's query can skip finished series. Editing a series
 * from a date ends this one the day before and starts its successor (`previous_id`), leaving the past alone.
 */
export const recurring_schedules = pgTable(
  "recurring_schedules",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    trainer_id: integer("trainer_id").notNull().references(() => users.id),
    member_id: integer("member_id").notNull().references(() => users.id),
    rrule: text("rrule").notNull(),
    starts_on: date("starts_on").notNull(),
    ends_on: date("ends_on"),
    start_time: text("start_time").notNull(),
    duration_minutes: integer("duration_minutes").notNull(),
    notes: text("notes"),
    previous_id: integer("previous_id"),
    created_by: integer("created_by").notNull().references(() => users.id),
    cancelled_at: ts("cancelled_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [index("recurring_schedules_trainer_idx").on(t.organisation_id, t.trainer_id), index("recurring_schedules_member_idx").on(t.organisation_id, t.member_id), check("recurring_schedules_duration", sql`${t.duration_minutes} > 0`)],
);

/**
 * The organisation's door system (issue 15; SPEC §3 "Access-control integration"): Kisi, through the sandbox unless an
 * API key of the organisation's own Kisi account is stored (sealed, server/core/crypto/secrets.ts) or the server has one.
 */
export const access_control_integrations = pgTable(
  "access_control_integrations",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    integration_type: text("integration_type").$type<"kisi">().notNull(),
    /** Sealed API key of the organisation's own account, when it has one. */
    api_key: text("api_key"),
    created_at: created(),
  },
  (t) => [uniqueIndex("access_control_integrations_org_idx").on(t.organisation_id)],
);

/** A place of the door system (SPEC §3 Place: id, name, place_id) linked to one gym. */
export const access_control_places = pgTable(
  "access_control_places",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    /** The door system's id for the place. */
    place_id: text("place_id").notNull(),
    name: text("name").notNull(),
    created_at: created(),
  },
  (t) => [uniqueIndex("access_control_places_gym_idx").on(t.gym_id), uniqueIndex("access_control_places_place_idx").on(t.organisation_id, t.place_id)],
);

/** A door (a Kisi lock) of a linked place, and whether opening it counts as a visit (SPEC §3 Door integration). */
export const access_control_doors = pgTable(
  "access_control_doors",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    place_row_id: integer("place_row_id")
      .notNull()
      .references(() => access_control_places.id, { onDelete: "cascade" }),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    /** The door system's id for the lock. */
    door_id: text("door_id").notNull(),
    name: text("name").notNull(),
    tracks_visits: boolean("tracks_visits").notNull().default(false),
    created_at: created(),
  },
  (t) => [uniqueIndex("access_control_doors_door_idx").on(t.organisation_id, t.door_id)],
);

/** The sandbox Kisi's places and locks, per account (`org-{id}`): the door system's books, not ours. */
export const sandbox_door_places = pgTable("sandbox_door_places", {
  id: serial("id").primaryKey(),
  account: text("account").notNull(),
  name: text("name").notNull(),
});
export const sandbox_door_locks = pgTable("sandbox_door_locks", {
  id: serial("id").primaryKey(),
  place_id: integer("place_id")
    .notNull()
    .references(() => sandbox_door_places.id),
  name: text("name").notNull(),
});

/**
 * A member import (issue 15): a file from another gym system, its column mapping and dry run, then the import itself,
 * which a job works through in batches from `next_line`, so a stopped job goes on where it was.
 */
export const member_imports = pgTable(
  "member_imports",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    created_by: integer("created_by").notNull().references(() => users.id),
    filename: text("filename").notNull(),
    file_sha256: text("file_sha256").notNull(),
    headers: jsonb("headers").$type<string[]>().notNull(),
    /** The first few rows as written, so the person sees what each column holds when matching it. */
    preview: jsonb("preview").$type<string[][]>().notNull().default([]),
    row_count: integer("row_count").notNull(),
    mapping: jsonb("mapping").$type<ColumnTarget[]>().notNull(),
    date_order: text("date_order").$type<DateOrder>().notNull(),
    /** Each plan name of the file → a price id, or 0 for no membership. */
    plans: jsonb("plans").$type<Record<string, number>>().notNull().default({}),
    /** Import the good rows even though some have errors. */
    import_errors: boolean("import_errors").notNull().default(false),
    /** E-mail the members it creates an invitation to set a password once it is done. */
    invite: boolean("invite").notNull().default(false),
    status: text("status").$type<"draft" | "queued" | "running" | "done" | "failed">().notNull().default("draft"),
    /** The latest dry run (server/imports/analyse.ts), for the settings it was run with. */
    summary: jsonb("summary").$type<ImportSummary>(),
    next_line: integer("next_line").notNull().default(0),
    created_count: integer("created_count").notNull().default(0),
    updated_count: integer("updated_count").notNull().default(0),
    unchanged_count: integer("unchanged_count").notNull().default(0),
    rejected_count: integer("rejected_count").notNull().default(0),
    invited_count: integer("invited_count").notNull().default(0),
    /** Rows naming someone who already has an account with another organisation: invited to join, not added (decision 0048). */
    invited_to_join_count: integer("invited_to_join_count").notNull().default(0),
    error: text("error"),
    started_at: ts("started_at"),
    finished_at: ts("finished_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [index("member_imports_gym_idx").on(t.organisation_id, t.gym_id, t.created_at), index("member_imports_pending_idx").on(t.status).where(sql`${t.status} in ('queued', 'running')`)],
);

/** The file itself, apart from the import's row so lists never read it. */
export const member_import_files = pgTable("member_import_files", {
  import_id: integer("import_id")
    .primaryKey()
    .references(() => member_imports.id, { onDelete: "cascade" }),
  organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
  content: text("content").notNull(),
});

/** Rows the import could not take, with why: the "rejected rows" file is the original lines plus this reason. */
export const member_import_rejections = pgTable(
  "member_import_rejections",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    import_id: integer("import_id")
      .notNull()
      .references(() => member_imports.id, { onDelete: "cascade" }),
    /** The row's number in the file, the header being row 1. */
    line: integer("line").notNull(),
    reason: text("reason").notNull(),
  },
  (t) => [index("member_import_rejections_import_idx").on(t.import_id, t.line)],
);

/** Profile photos, resized and stripped of metadata on upload; users.profile_picture names the current one. */
/** A gym's logo (POST /api/gyms/{id}/logo), resized and re-encoded; gyms.logo is its versioned public address. */
export const gym_logos = pgTable(
  "gym_logos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    content_type: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: bytea("bytes").notNull(),
    created_at: created(),
  },
  (t) => [uniqueIndex("gym_logos_gym_idx").on(t.gym_id)],
);

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
    /** Cents of payments with status 'sent', by the day they were created, less `returned` (net revenue). */
    collected: bigint("collected", { mode: "number" }).notNull().default(0),
    /** Payments created that day that failed (domain/payment.ts: neither sent nor one of the non-failed statuses). */
    failed_payments: integer("failed_payments").notNull().default(0),
    /** Cents given back that day: refunds made and chargebacks lost (payment_adjustments), already taken off `collected`. */
    returned: bigint("returned", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organisation_id, t.gym_id, t.day] })],
);

/**
 * The payments list's totals (issue 12): payments and their money (amount + surcharge) per organisation, gym,
 * Auckland day, outcome (SPEC §4, payment_outcome()) and method (the desk's pif_payment, else the payment type's
 * kind, else 'none'), kept by a statement-level trigger like the dashboard's rollups (drizzle/0023), so the totals
 * of a year of payments are a few thousand rows to add up, not a million.
 */
export const payment_totals_daily = pgTable(
  "payment_totals_daily",
  {
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    day: date("day").notNull(),
    outcome: text("outcome").$type<"successful" | "not_failed" | "failed">().notNull(),
    method: text("method").notNull(),
    payments: integer("payments").notNull().default(0),
    amount: bigint("amount", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organisation_id, t.gym_id, t.day, t.outcome, t.method] })],
);

export const daily_visits = pgTable(
  "daily_visits",
  {
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    day: date("day").notNull(),
    /** Successful visits (a refused door entry is not a visit). */
    visits: integer("visits").notNull().default(0),
    /** Door entries refused that day (the visits list's counts, drizzle/0023). */
    refused: integer("refused").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organisation_id, t.gym_id, t.day] })],
);

/**
 * Figures the API computes and keeps for a while, shared by every server process (server/core/cache/shared-figures.ts):
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
 * The sandbox payment providers' own books (server/core/providers/*\/sandbox.ts): what "the provider" has charged,
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
    /** The webhooks the provider owes us for this charge: null until all are sent ("delivered") or lost on purpose ("dropped"). */
    webhook_state: text("webhook_state").$type<"delivered" | "dropped">(),
    /** How many of its events (a direct debit's or bank payment's status changes) were sent so far. */
    events_sent: integer("events_sent").notNull().default(0),
    /** When its next unsent event happens (its webhook is due this long after); null once all were sent. */
    next_event_at: ts("next_event_at").defaultNow(),
    webhook_at: ts("webhook_at"),
    created_at: created(),
  },
  (t) => [
    uniqueIndex("sandbox_ledger_key_idx").on(t.provider, t.idempotency_key),
    index("sandbox_ledger_events_due_idx").on(t.next_event_at).where(sql`next_event_at is not null`),
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
    provider: text("provider").$type<"stripe" | "gocardless" | "akahu">().notNull(),
    event_id: text("event_id"),
    event_type: text("event_type"),
    /**
     * received → processed | duplicate | ignored | failed; rejected when the signature is bad (never processed);
     * refused when a signed event is not its provider's word on our payment (decision 0039: never applied).
     */
    status: text("status").$type<"received" | "processed" | "duplicate" | "ignored" | "failed" | "rejected" | "refused">().notNull(),
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
    kind: text("kind").$type<"payment_failed" | "card_unusable" | "grace_ending" | "refund" | "chargeback" | "receipt" | "welcome" | "signup_reminder">().notNull(),
    key: text("key").notNull(),
    payment_id: integer("payment_id"),
    subscription_id: integer("subscription_id"),
    /** Whether an e-mail went (the member may have e-mails off): the notice counts as given either way. */
    emailed: boolean("emailed").notNull(),
    created_at: created(),
  },
  (t) => [uniqueIndex("billing_notices_key_idx").on(t.key)],
);

/**
 * A member's connection to their bank through Akahu (the open-banking provider), made when they sign up: the user
 * token Akahu gave us, with which the billing run pays their periods from the account they chose
 * (payment_types.details.akahu_account_id). `reauthenticate` when Akahu stops taking the token (the member
 * revoked it, or their bank asks them to sign in again): SPEC's reauthenticate_akahu.
 */
export const bank_connections = pgTable(
  "bank_connections",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    provider: text("provider").$type<"akahu">().notNull().default("akahu"),
    /** Akahu's user token: a secret, never sent to a browser. */
    access_token: text("access_token").notNull(),
    reauthenticate: boolean("reauthenticate").notNull().default(false),
    revoked_at: ts("revoked_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [uniqueIndex("bank_connections_user_idx").on(t.organisation_id, t.user_id, t.provider)],
);

/** The sandbox OneSignal's deliveries (server/core/providers/push/sandbox.ts), shown at /dev/mail beside the e-mails. */
export const push_outbox = pgTable(
  "push_outbox",
  {
    id: serial("id").primaryKey(),
    app_id: text("app_id").notNull(),
    notification_id: text("notification_id").notNull(),
    external_id: text("external_id").notNull(),
    heading: text("heading").notNull(),
    content: text("content").notNull(),
    url: text("url"),
    idempotency_key: text("idempotency_key").notNull(),
    created_at: created(),
  },
  (t) => [uniqueIndex("push_outbox_key_idx").on(t.idempotency_key)],
);

/**
 * The sandbox Kisi's members (server/core/providers/doors/sandbox.ts): who the offline door system knows, and whether
 * their access is on, per Kisi account (one per organisation of ours: `org-{id}`). The provider's books, not ours.
 */
export const sandbox_door_members = pgTable(
  "sandbox_door_members",
  {
    id: serial("id").primaryKey(),
    account: text("account").notNull(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    access_enabled: boolean("access_enabled").notNull().default(true),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [uniqueIndex("sandbox_door_members_email_idx").on(t.account, sql`lower(${t.email})`)],
);

/**
 * The sandbox providers' hosted pages (issue 13): a Stripe Checkout session in setup mode, a GoCardless billing
 * request flow, an Akahu consent. Each is opened by our server, completed or cancelled by the person on the
 * provider's page (our local stand-in for it), and read back by our server, as the real ones are.
 */
export const sandbox_sessions = pgTable("sandbox_sessions", {
  id: text("id").primaryKey(),
  provider: text("provider").$type<"stripe" | "gocardless" | "akahu">().notNull(),
  /** Where the page sends the person back: `success` when done, `cancel` when they give up. */
  success_url: text("success_url").notNull(),
  cancel_url: text("cancel_url").notNull(),
  /** What the opener told the provider (customer e-mail, our reference, the gym's account). */
  request: jsonb("request").$type<Record<string, string | null>>().notNull(),
  status: text("status").$type<"open" | "complete" | "cancelled" | "expired">().notNull().default("open"),
  /** What the person gave on the page, as the provider stores it (a card's brand and last four, a mandate, accounts). */
  result: jsonb("result").$type<Record<string, unknown>>(),
  expires_at: ts("expires_at").notNull(),
  created_at: created(),
});

/** The sandbox Branch's short links (server/core/providers/links/sandbox.ts): GET /api/links/{code} redirects to `url`. */
export const sandbox_links = pgTable("sandbox_links", {
  code: text("code").primaryKey(),
  url: text("url").notNull(),
  channel: text("channel").notNull(),
  feature: text("feature").notNull(),
  data: jsonb("data").$type<Record<string, string>>().notNull(),
  created_at: created(),
});

/**
 * Every pause of a subscription (SPEC §3 Subscription.pauses): the billing schedule walks them all, since each moves
 * the rhythm of the charges after it (domain/schedule.ts). The subscription's pause_start_at / pause_end_at hold the
 * one running or next to come, for its state; these rows are the record. Days are Auckland calendar days, the end
 * the day the member is back. A removed pause (before it started) keeps its row, marked.
 */
export const subscription_pauses = pgTable(
  "subscription_pauses",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    subscription_id: integer("subscription_id").notNull().references(() => subscriptions.id),
    start_day: date("start_day").notNull(),
    end_day: date("end_day").notNull(),
    reason: text("reason"),
    created_by: integer("created_by").references(() => users.id),
    /** When a running pause was ended before its end (end_day then holds the day it ended). */
    ended_early_at: ts("ended_early_at"),
    removed_at: ts("removed_at"),
    created_at: created(),
  },
  (t) => [index("subscription_pauses_subscription_idx").on(t.subscription_id)],
);

/**
 * What staff did to a membership (issue 12), one row per action: who, when, what in words, and the subscription's
 * facts before and after. The member page's history reads it.
 */
/**
 * A bulk price change (issue 12, /members/change-price): what was asked, by whom, and how far the job has got.
 * `key` is the confirming form's: a form sent twice makes one change.
 */
export const bulk_price_changes = pgTable(
  "bulk_price_changes",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    key: text("key").notNull(),
    requested_by: integer("requested_by").references(() => users.id),
    from_price_ids: integer("from_price_ids").array().notNull(),
    to_price_id: integer("to_price_id").notNull().references(() => prices.id),
    /** "period_end" (each member's own) or "date" (takes_effect_day). */
    takes_effect: text("takes_effect").$type<"period_end" | "date">().notNull(),
    takes_effect_day: date("takes_effect_day"),
    notify: boolean("notify").notNull().default(false),
    /** Replace a change a member already had scheduled (else the member is skipped). */
    replace_scheduled: boolean("replace_scheduled").notNull().default(false),
    /** The /members filters the members were chosen by, as asked (for the report). */
    filters: jsonb("filters").$type<{ gym_id: number | null; status: string | null; tag: string | null; q: string | null }>().notNull(),
    status: text("status").$type<"queued" | "running" | "done">().notNull().default("queued"),
    total: integer("total").notNull().default(0),
    created_at: created(),
    started_at: ts("started_at"),
    finished_at: ts("finished_at"),
  },
  (t) => [uniqueIndex("bulk_price_changes_key_idx").on(t.organisation_id, t.key), index("bulk_price_changes_open_idx").on(t.status).where(sql`status <> 'done'`)],
);

/** The members a bulk price change took when it was confirmed, and what became of each. */
export const bulk_price_change_members = pgTable(
  "bulk_price_change_members",
  {
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    bulk_id: integer("bulk_id").notNull().references(() => bulk_price_changes.id),
    subscription_id: integer("subscription_id").notNull().references(() => subscriptions.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    outcome: text("outcome").$type<"pending" | "changed" | "skipped">().notNull().default("pending"),
    /** What was changed, or why the member was skipped, in words. */
    reason: text("reason"),
    processed_at: ts("processed_at"),
  },
  (t) => [primaryKey({ columns: [t.bulk_id, t.subscription_id] }), index("bulk_price_change_members_outcome_idx").on(t.bulk_id, t.outcome)],
);

export const subscription_events = pgTable(
  "subscription_events",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    subscription_id: integer("subscription_id").references(() => subscriptions.id),
    /** The member. */
    user_id: integer("user_id").notNull().references(() => users.id),
    actor_id: integer("actor_id").references(() => users.id),
    action: text("action").notNull(),
    summary: text("summary").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    created_at: created(),
  },
  (t) => [index("subscription_events_user_idx").on(t.organisation_id, t.user_id, t.created_at)],
);

/**
 * The daily reconciliation (issue 28, decision 0042): each run compares our payments with each provider's own books for
 * a window of Auckland days. A system table (the job works across organisations); its differences are the organisation's.
 */
export const reconciliation_runs = pgTable("reconciliation_runs", {
  id: serial("id").primaryKey(),
  from_day: date("from_day").notNull(),
  until_day: date("until_day").notNull(),
  started_at: ts("started_at").notNull().defaultNow(),
  finished_at: ts("finished_at"),
  /** Provider objects and payments compared. */
  checked: integer("checked").notNull().default(0),
  /** Differences where the provider is authoritative, written through (a settled payment, a refund made in its dashboard). */
  corrected: integer("corrected").notNull().default(0),
  /** New differences left for a person. */
  open: integer("open").notNull().default(0),
  /** Gyms or providers that could not be asked (retried by the next run), in words. */
  errors: jsonb("errors").$type<string[]>(),
});

/**
 * One difference between our books and a provider's: corrected automatically, or open until a person explains it. The
 * same difference is recorded once while it is open or explained (a daily job sees it again every day).
 */
export const reconciliation_differences = pgTable(
  "reconciliation_differences",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    run_id: integer("run_id").notNull().references(() => reconciliation_runs.id),
    provider: text("provider").$type<"stripe" | "gocardless" | "akahu">().notNull(),
    kind: text("kind").$type<"taken_not_recorded" | "recorded_not_taken" | "amount_differs" | "settled_not_recorded" | "refund_not_recorded" | "chargeback_not_recorded">().notNull(),
    payment_id: integer("payment_id").references(() => payments.id),
    /** The provider's object: its charge (pi_…, PM…, the bank payment) or refund (re_…, RF…). */
    provider_reference: text("provider_reference").notNull(),
    /** The Auckland day the money moved (the provider's, else ours). */
    day: date("day"),
    ours: jsonb("ours").$type<Record<string, unknown> | null>(),
    theirs: jsonb("theirs").$type<Record<string, unknown> | null>(),
    status: text("status").$type<"corrected" | "open" | "explained">().notNull(),
    explanation: text("explanation"),
    resolved_by: integer("resolved_by").references(() => users.id),
    resolved_at: ts("resolved_at"),
    created_at: created(),
  },
  (t) => [
    uniqueIndex("reconciliation_differences_once_idx").on(t.provider, t.provider_reference, t.kind).where(sql`status <> 'corrected'`),
    index("reconciliation_differences_org_status_idx").on(t.organisation_id, t.status, t.id),
  ],
);

/**
 * Integrators' API keys (issue 33, decision 0062): an organisation's principal with scopes (capabilities of the
 * permission table), sent as `Authorization: Bearer gym_live_…`. Only the secret's SHA-256 is kept; `prefix` is what
 * people see to tell keys apart. Looked up by hash before the tenant is known, so read on the system's handle.
 */
export const api_keys = pgTable(
  "api_keys",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    name: text("name").notNull(),
    /** The key's first characters (`gym_live_k7qf3m9p`), shown in lists; the rest is never stored. */
    prefix: text("prefix").notNull(),
    secret_hash: text("secret_hash").notNull(),
    /** Capabilities of server/core/permissions.ts this key holds, in every gym of the organisation. */
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    /** Requests a minute before 429. */
    rate_limit_per_minute: integer("rate_limit_per_minute").notNull().default(600),
    /** Whose actions a key's changes are recorded as (the admin who made it). */
    created_by_user_id: integer("created_by_user_id")
      .notNull()
      .references(() => users.id),
    created_at: created(),
    last_used_at: ts("last_used_at"),
    last_used_ip: text("last_used_ip"),
    revoked_at: ts("revoked_at"),
    revoked_by_user_id: integer("revoked_by_user_id").references(() => users.id),
  },
  (t) => [uniqueIndex("api_keys_secret_hash_idx").on(t.secret_hash), index("api_keys_org_idx").on(t.organisation_id, t.created_at)],
);

/**
 * `Idempotency-Key` answers (issue 33): the first answer to a principal's key is kept for a day and given again to the
 * same request; the same key with another body is refused. Written in the request's own transaction, so a request
 * that failed and rolled back keeps nothing and may be tried again.
 */
export const idempotency_keys = pgTable(
  "idempotency_keys",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    /** `key:{api_key id}` or `user:{user id}`: keys of different callers never meet. */
    principal: text("principal").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of method, path and body. */
    request_hash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    body: text("body").notNull(),
    content_type: text("content_type").notNull(),
    created_at: created(),
  },
  (t) => [uniqueIndex("idempotency_keys_key_idx").on(t.organisation_id, t.principal, t.key), index("idempotency_keys_created_idx").on(t.created_at)],
);

/**
 * Where an organisation's events are sent (issue 33): signed by the Standard Webhooks scheme with `secret` (sealed at
 * rest, server/core/crypto/secrets.ts). After a rotation the previous secret also signs until it expires. An endpoint
 * failing without a success for three days is disabled.
 */
export const webhook_endpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** Event types sent to it (domain/webhook-events.ts). */
    events: jsonb("events").$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    previous_secret: text("previous_secret"),
    previous_secret_expires_at: ts("previous_secret_expires_at"),
    disabled_at: ts("disabled_at"),
    disabled_reason: text("disabled_reason"),
    /** The first failure since the last success: three days of it disables the endpoint. */
    failing_since: ts("failing_since"),
    created_by_user_id: integer("created_by_user_id").references(() => users.id),
    created_at: created(),
    updated_at: updated(),
    deleted_at: ts("deleted_at"),
  },
  (t) => [index("webhook_endpoints_org_idx").on(t.organisation_id)],
);

/** An event that happened (issue 33), written in the same transaction as the change: the outbox. */
export const webhook_events = pgTable(
  "webhook_events",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    /** `msg_…`: the `webhook-id` every endpoint receives it with, the same on every attempt. */
    public_id: text("public_id").notNull(),
    type: text("type").notNull(),
    /** The whole body sent: `{ type, version, timestamp, data }`. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    created_at: created(),
  },
  (t) => [uniqueIndex("webhook_events_public_id_idx").on(t.public_id), index("webhook_events_org_idx").on(t.organisation_id, t.created_at)],
);

/** One event for one endpoint: sent until a 2xx, on a backoff, for three days at most. Unique per pair: each event once per endpoint. */
export const webhook_deliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    event_id: integer("event_id")
      .notNull()
      .references(() => webhook_events.id),
    endpoint_id: integer("endpoint_id")
      .notNull()
      .references(() => webhook_endpoints.id),
    /** pending → succeeded, or failed (gave up, or the endpoint was disabled). */
    status: text("status").$type<"pending" | "succeeded" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    next_attempt_at: ts("next_attempt_at").notNull().defaultNow(),
    /** A sender holds the delivery until then; a sender that died lets it go again when it passes. */
    locked_until: ts("locked_until"),
    last_attempt_at: ts("last_attempt_at"),
    last_status: integer("last_status"),
    last_error: text("last_error"),
    delivered_at: ts("delivered_at"),
    created_at: created(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_pair_idx").on(t.event_id, t.endpoint_id),
    index("webhook_deliveries_due_idx").on(t.next_attempt_at).where(sql`status = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.organisation_id, t.endpoint_id, t.created_at),
  ],
);

/** Each try of a delivery: what was sent and what came back (the answer cut to 4 KB), for the endpoint's page. */
export const webhook_attempts = pgTable(
  "webhook_attempts",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    delivery_id: integer("delivery_id")
      .notNull()
      .references(() => webhook_deliveries.id),
    attempted_at: ts("attempted_at").notNull(),
    request_headers: jsonb("request_headers").$type<Record<string, string>>().notNull(),
    response_status: integer("response_status"),
    response_body: text("response_body"),
    duration_ms: integer("duration_ms").notNull(),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.delivery_id, t.attempted_at)],
);

/**
 * Group classes (issue 34, decision 0065): a kind of class the organisation runs (Spin, Yoga…), with its usual
 * length, places and waitlist, its colour on the calendar, and the price of a drop-in (null: members only).
 */
export const class_types = pgTable(
  "class_types",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    name: text("name").notNull(),
    description: text("description"),
    duration_minutes: integer("duration_minutes").notNull(),
    default_capacity: integer("default_capacity").notNull(),
    default_waitlist: integer("default_waitlist").notNull().default(0),
    /** #rrggbb on the calendar and the timetable. */
    colour: text("colour").notNull(),
    /** Cents a member whose membership does not include this class pays to book it; null: only those it includes. */
    drop_in_amount: integer("drop_in_amount"),
    archived_at: ts("archived_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [
    uniqueIndex("class_types_name_idx").on(t.organisation_id, sql`lower(${t.name})`).where(sql`archived_at is null`),
    check("class_types_sizes", sql`${t.duration_minutes} > 0 and ${t.default_capacity} > 0 and ${t.default_waitlist} >= 0`),
    check("class_types_drop_in", sql`${t.drop_in_amount} is null or ${t.drop_in_amount} > 0`),
  ],
);

/** Which memberships include a class type: every price of an offering, or one price. */
export const class_type_inclusions = pgTable(
  "class_type_inclusions",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    class_type_id: integer("class_type_id")
      .notNull()
      .references(() => class_types.id),
    offering_id: integer("offering_id").references(() => offerings.id),
    price_id: integer("price_id").references(() => prices.id),
  },
  (t) => [
    uniqueIndex("class_type_inclusions_offering_idx").on(t.class_type_id, t.offering_id).where(sql`offering_id is not null`),
    uniqueIndex("class_type_inclusions_price_idx").on(t.class_type_id, t.price_id).where(sql`price_id is not null`),
    check("class_type_inclusions_one", sql`(${t.offering_id} is null) <> (${t.price_id} is null)`),
  ],
);

/**
 * A class on a gym's timetable: once (rrule null) or weekly (an RRULE as recurring schedules have, server/calendar/
 * recurrence.ts), at `start_time` Auckland wall-clock time. Unlike personal-training series its occurrences are rows
 * (class_occurrences), written ahead to `generated_until` (the class-timetable job keeps eight weeks ahead), because
 * members book places in them. Changing a weekly class from a date ends it the day before and starts its successor.
 */
export const class_schedules = pgTable(
  "class_schedules",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    class_type_id: integer("class_type_id")
      .notNull()
      .references(() => class_types.id),
    trainer_id: integer("trainer_id").notNull().references(() => users.id),
    room: text("room"),
    capacity: integer("capacity").notNull(),
    waitlist_size: integer("waitlist_size").notNull().default(0),
    rrule: text("rrule"),
    starts_on: date("starts_on").notNull(),
    ends_on: date("ends_on"),
    start_time: text("start_time").notNull(),
    duration_minutes: integer("duration_minutes").notNull(),
    generated_until: date("generated_until"),
    previous_id: integer("previous_id"),
    created_by: integer("created_by").notNull().references(() => users.id),
    cancelled_at: ts("cancelled_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [
    index("class_schedules_gym_idx").on(t.organisation_id, t.gym_id),
    check("class_schedules_sizes", sql`${t.duration_minutes} > 0 and ${t.capacity} > 0 and ${t.waitlist_size} >= 0`),
  ],
);

/**
 * One class on one day: what members book. Its own trainer, room, places and times (copied from the schedule, then
 * changed for this day alone if staff move it). `occurrence_day` is the day the schedule put it on, so a moved class
 * is still that schedule's class of that day. Bookings lock this row to take a place (decision 0065).
 */
export const class_occurrences = pgTable(
  "class_occurrences",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    gym_id: integer("gym_id").notNull().references(() => gyms.id),
    class_type_id: integer("class_type_id")
      .notNull()
      .references(() => class_types.id),
    schedule_id: integer("schedule_id")
      .notNull()
      .references(() => class_schedules.id),
    occurrence_day: date("occurrence_day").notNull(),
    starts_at: ts("starts_at").notNull(),
    ends_at: ts("ends_at").notNull(),
    trainer_id: integer("trainer_id").notNull().references(() => users.id),
    room: text("room"),
    capacity: integer("capacity").notNull(),
    waitlist_size: integer("waitlist_size").notNull().default(0),
    cancelled_at: ts("cancelled_at"),
    cancel_reason: text("cancel_reason"),
    /** When the class ended and those booked who never came were marked no-shows. */
    attendance_closed_at: ts("attendance_closed_at"),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [
    uniqueIndex("class_occurrences_day_idx").on(t.schedule_id, t.occurrence_day),
    index("class_occurrences_gym_idx").on(t.organisation_id, t.gym_id, t.starts_at),
    index("class_occurrences_trainer_idx").on(t.organisation_id, t.trainer_id, t.starts_at),
    check("class_occurrences_order", sql`${t.ends_at} > ${t.starts_at}`),
    check("class_occurrences_sizes", sql`${t.capacity} > 0 and ${t.waitlist_size} >= 0`),
  ],
);

/**
 * A member's place in a class, or on its waitlist. booked → attended | no_show | cancelled | late_cancelled;
 * waitlisted → booked (a place freed) | cancelled. One live booking per member per class (the unique index); a
 * cancelled one stays for the record. `waitlisted_at` orders the waitlist.
 */
export const class_bookings = pgTable(
  "class_bookings",
  {
    id: serial("id").primaryKey(),
    organisation_id: integer("organisation_id").notNull().references(() => organisations.id),
    occurrence_id: integer("occurrence_id")
      .notNull()
      .references(() => class_occurrences.id),
    user_id: integer("user_id").notNull().references(() => users.id),
    status: text("status").$type<"booked" | "waitlisted" | "attended" | "no_show" | "cancelled" | "late_cancelled">().notNull(),
    waitlisted_at: ts("waitlisted_at"),
    booked_at: ts("booked_at"),
    cancelled_at: ts("cancelled_at"),
    attended_at: ts("attended_at"),
    visit_id: integer("visit_id"),
    /** A drop-in's price when it was booked (class_types.drop_in_amount): the member's membership did not include the class. */
    drop_in_amount: integer("drop_in_amount"),
    /** The drop-in's payment: written with the place (or when a waitlist place becomes one), charged after the commit. */
    payment_id: integer("payment_id").references(() => payments.id),
    /** Who made it: the member, staff, or an integrator's key (its creator). */
    source: text("source").$type<"member" | "staff" | "api">().notNull(),
    created_by: integer("created_by").notNull().references(() => users.id),
    created_at: created(),
    updated_at: updated(),
  },
  (t) => [
    uniqueIndex("class_bookings_live_idx").on(t.occurrence_id, t.user_id).where(sql`status not in ('cancelled', 'late_cancelled')`),
    index("class_bookings_occurrence_idx").on(t.occurrence_id, t.status),
    index("class_bookings_user_idx").on(t.organisation_id, t.user_id, t.status),
    // A drop-in's booking from its payment (a declined card releases the place, server/classes/drop-ins.ts); one booking per payment.
    uniqueIndex("class_bookings_payment_idx").on(t.payment_id).where(sql`payment_id is not null`),
  ],
);
