import { and, asc, desc, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { payment, signedInUser, subscription } from "../../domain/contract/entities";
import { CONTRACT_ROUTES, pathShape, type ContractRoute } from "../../domain/contract/routes";
import { SPEC_CALL_LIST, SPEC_CALLS, type SpecCall } from "../../domain/contract/spec-calls";
import { localDay } from "../../domain/dates";
import { sandboxAkahuSignature } from "../../server/core/providers/bank/sandbox";
import { gyms, offerings, organisation_users, payments, prices, rate_limits, subscriptions, users } from "../../server/core/db/schema";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "../../server/seed/demo-data";
import { browser, lastMail, setup, signedIn, signingSecrets } from "./harness";

/**
 * SPEC's answers, exactly (issue 33): every call SPEC §7 names (domain/contract/spec-calls.ts) is in the contract
 * (domain/contract/routes.ts), and each, called as a client written from SPEC would call it on a real organisation
 * (the demo's: members with memberships, payments paid, failed, refunded and charged back, visits, offerings, staff,
 * three gyms), answers its status and a body its schema accepts: SPEC §3's fields under SPEC's names. A field renamed
 * or left out fails here.
 */

type Browser = ReturnType<typeof browser>;
type Answer = Awaited<ReturnType<Browser["call"]>>;

let env: Awaited<ReturnType<typeof setup>>;
let admin: Browser;
let member: Browser;
let joiner: Browser;
/** Ids of the demo's records the calls name, found once the demo is seeded. */
const id: Record<string, number> = {};
const text: Record<string, string> = {};
const today = localDay(new Date());

const png = async () => {
  const bytes = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#36a" } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "photo.png", { type: "image/png" });
};
const form = (values: Record<string, string | File>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(values)) f.append(k, v);
  return f;
};
const versionOf = async (subscriptionId: number) =>
  (await env.db.select({ v: subscriptions.version }).from(subscriptions).where(eq(subscriptions.id, subscriptionId)))[0].v;

beforeAll(async () => {
  env = await setup();
  await seedDemo(env.db, { members: 60 });
  admin = await signedIn(env.api, env.db, DEMO_ACCOUNTS.admin, DEMO_PASSWORD);
  member = await signedIn(env.api, env.db, DEMO_ACCOUNTS.member, DEMO_PASSWORD);
  const me = (await admin.call("GET", "/api/me")).json.data;
  id.org = me.current_organisation.id;
  id.gym = me.current_gym.id;
  const [gym] = await env.db.select().from(gyms).where(eq(gyms.id, id.gym));
  text.gymUuid = gym.uuid;
  const { db } = env;
  const first = async <T>(rows: Promise<T[]>, what = "record") => {
    const [row] = await rows;
    if (!row) throw new Error(`the demo has no ${what}`);
    return row;
  };
  // A member whose latest membership is in its grace period: a failed payment, money owed.
  const owing = await first(
    db
      .select({ user: subscriptions.user_id, s: subscriptions.id })
      .from(subscriptions)
      .innerJoin(
        organisation_users,
        and(eq(organisation_users.latest_subscription_id, subscriptions.id), eq(organisation_users.organisation_id, subscriptions.organisation_id)),
      )
      .where(and(eq(subscriptions.organisation_id, id.org), isNotNull(subscriptions.grace_period_ends_at), eq(subscriptions.gym_id, id.gym))),
  );
  Object.assign(id, { owingMember: owing.user, owingSubscription: owing.s });
  const [morgan] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ACCOUNTS.member));
  id.morgan = morgan.id;
  // A member running on a weekly price, with nothing scheduled (not Morgan, who signs in): paused and moved to another price below.
  const running = await first(
    db
      .select({ user: subscriptions.user_id, s: subscriptions.id, price: subscriptions.price_id })
      .from(subscriptions)
      .innerJoin(
        organisation_users,
        and(eq(organisation_users.latest_subscription_id, subscriptions.id), eq(organisation_users.organisation_id, subscriptions.organisation_id)),
      )
      .innerJoin(prices, eq(prices.id, subscriptions.price_id))
      .where(
        and(
          eq(subscriptions.organisation_id, id.org),
          eq(organisation_users.latest_state, "active"),
          isNull(subscriptions.pause_start_at),
          isNull(subscriptions.transition_to_price_id),
          isNull(subscriptions.term_ends_at),
          eq(prices.billing_frequency, "weekly"),
          isNull(prices.term_amount),
          ne(subscriptions.user_id, owing.user),
          ne(subscriptions.user_id, morgan.id),
        ),
      )
      .orderBy(asc(subscriptions.id)),
  );
  Object.assign(id, { runningMember: running.user, runningSubscription: running.s, runningPrice: running.price });
  const other = await first(
    db
      .select({ id: prices.id })
      .from(prices)
      .where(
        and(
          eq(prices.organisation_id, id.org),
          eq(prices.billing_frequency, "weekly"),
          isNull(prices.term_amount),
          isNull(prices.archived_at),
          eq(prices.private, false),
          ne(prices.id, running.price),
          isNull(prices.gym_id),
        ),
      ),
  );
  id.otherWeeklyPrice = other.id;
  const upcoming = await first(
    db
      .select({ s: subscriptions.id })
      .from(subscriptions)
      .innerJoin(prices, eq(prices.id, subscriptions.price_id))
      .where(
        and(
          eq(subscriptions.organisation_id, id.org),
          eq(subscriptions.upcoming_state, "upcoming"),
          isNull(subscriptions.cancelled_at),
          ne(prices.billing_frequency, "one_off"),
        ),
      ),
  );
  id.upcomingSubscription = upcoming.s;
  const pif = await first(
    db
      .select({ id: prices.id })
      .from(prices)
      .innerJoin(offerings, eq(offerings.id, prices.offering_id))
      .where(
        and(
          eq(prices.organisation_id, id.org),
          eq(prices.billing_frequency, "one_off"),
          isNull(prices.archived_at),
          eq(prices.private, false),
          isNull(prices.gym_id),
          eq(offerings.all_gyms_access, true),
        ),
      ),
  );
  id.pifPrice = pif.id;
  // A member whose membership was cancelled: sold a paid-in-full one at the desk below.
  const cancelled = await first(
    db
      .select({ user: organisation_users.user_id })
      .from(organisation_users)
      .where(
        and(
          eq(organisation_users.organisation_id, id.org),
          eq(organisation_users.role, "member"),
          eq(organisation_users.latest_state, "cancelled"),
          eq(organisation_users.home_gym_id, id.gym),
        ),
      ),
  );
  id.cancelledMember = cancelled.user;
  const trainer = await first(db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ACCOUNTS.trainer)));
  id.trainer = trainer.id;
  // A member to remove at the end: no one else's calls name them.
  const removable = await first(
    db
      .select({ user: organisation_users.user_id })
      .from(organisation_users)
      .where(
        and(
          eq(organisation_users.organisation_id, id.org),
          eq(organisation_users.role, "member"),
          ne(organisation_users.user_id, owing.user),
          ne(organisation_users.user_id, running.user),
          ne(organisation_users.user_id, cancelled.user),
          ne(organisation_users.user_id, morgan.id),
        ),
      )
      .orderBy(desc(organisation_users.user_id)),
  );
  id.removableMember = removable.user;
}, 120_000);
afterAll(() => env?.close());

/** How each call is made, in the order they run (a call may use what an earlier one made). */
const CALLS: [SpecCall, () => Promise<Answer>][] = [
  // ── Sign-up: a person joining at Demo Fitness Central, start to finish ──
  ["POST /api/unique-email", () => browser(env.api).call("POST", "/api/unique-email", { email: "new.joiner@example.com" })],
  [
    "POST /api/register",
    async () => {
      joiner = browser(env.api, { ip: "198.51.100.33" });
      const made = await joiner.call("POST", "/api/register", {
        name: "New Joiner",
        email: "new.joiner@example.com",
        mobile_number: "021 555 0133",
        password: "a long enough passphrase",
        gym: text.gymUuid,
      });
      id.joiner = made.json.data?.id;
      return made;
    },
  ],
  [
    "POST /api/email/verify",
    async () => joiner.call("POST", "/api/email/verify", { code: (await lastMail(env.db, "new.joiner@example.com"))!.text.match(/\b(\d{6})\b/)![1] }),
  ],
  ["POST /api/profile-picture", async () => joiner.call("POST", "/api/profile-picture", form({ file: await png() }))],
  [
    "PUT /api/me/register-fields",
    () =>
      joiner.call("PUT", "/api/me/register-fields", {
        address: "1 Dominion Road",
        city: "Auckland",
        post_code: "1024",
        dob: "1990-05-01",
        emergency_contact_name: "Kim",
        emergency_contact_number: "021 555 0199",
        emergency_contact_relationship: "Sister",
        hear_about_us: "friend",
      }),
  ],
  ["POST /api/prices/{price_id}/pro-rata", () => joiner.call("POST", `/api/prices/${id.otherWeeklyPrice}/pro-rata`, { start_date: today })],
  ["GET /api/surcharge-total", () => joiner.call("GET", `/api/surcharge-total?price_id=${id.otherWeeklyPrice}&payment_type=stripe_card`)],
  [
    "GET /api/gocardless/mandate-url",
    async () => {
      const opened = await joiner.call(
        "GET",
        "/api/gocardless/mandate-url?account_holder=New%20Joiner&account_number=12-3140-0071234-00&nonce=contract-mandate-1",
      );
      text.billingRequest = opened.json.data?.id;
      return opened;
    },
  ],
  [
    "POST /api/gocardless/sync-payment-method",
    async () => {
      await joiner.call("POST", `/api/sandbox/gocardless/flow/${text.billingRequest}`, { authorised: true });
      const saved = await joiner.call("POST", "/api/gocardless/sync-payment-method", { billing_request: text.billingRequest });
      id.directDebit = saved.json.data?.id;
      return saved;
    },
  ],
  [
    "GET /api/akahu/auth-url",
    async () => {
      const asked = await joiner.call("GET", "/api/akahu/auth-url");
      text.akahuAuthorisation = new URL(asked.json.data.url).pathname.split("/").pop()!;
      // A gym's admin asks for their gym's open-banking app's consent page too (SPEC §7 lists the call under Gyms).
      const staff = await admin.call("GET", `/api/akahu/auth-url?gym_id=${id.gym}`);
      expect(staff.status, JSON.stringify(staff.json)).toBe(200);
      expect(new URL(staff.json.data.url).pathname).toMatch(/\/sandbox\/akahu\/authorize\//);
      return asked;
    },
  ],
  [
    "POST /api/akahu/exchange",
    async () => {
      const allowed = await joiner.call("POST", `/api/sandbox/akahu/authorize/${text.akahuAuthorisation}`, { accounts: ["acc_sandbox_everyday"] });
      const back = new URL(allowed.json.data.redirect);
      return joiner.call("POST", "/api/akahu/exchange", { code: back.searchParams.get("code"), state: back.searchParams.get("state") });
    },
  ],
  ["POST /api/akahu/sync-accounts", () => joiner.call("POST", "/api/akahu/sync-accounts", { account_id: "acc_sandbox_everyday" })],
  ["POST /api/me/payment-types/{payment_type_id}/switch", () => joiner.call("POST", `/api/me/payment-types/${id.directDebit}/switch`)],
  [
    "POST /api/subscriptions",
    () =>
      joiner.call("POST", "/api/subscriptions", { price_id: id.otherWeeklyPrice, start_date: today, terms: "on", idempotency_key: "contract-confirm-0001" }),
  ],
  ["GET /api/me/active-subscription", () => joiner.call("GET", "/api/me/active-subscription")],

  // ── The back office: dashboard and search ──
  ["GET /api/me", () => admin.call("GET", "/api/me")],
  ["GET /api/stats", () => admin.call("GET", "/api/stats")],
  ["GET /api/active-users", () => admin.call("GET", "/api/active-users")],
  ["GET /api/user-breakdown", () => admin.call("GET", "/api/user-breakdown")],
  ["POST /api/search", () => admin.call("POST", "/api/search", { query: "a" })],
  ["GET /api/expected-payments-debugging", () => admin.call("GET", "/api/expected-payments-debugging")],
  ["GET /api/cost-and-visit-breakdown", () => admin.call("GET", "/api/cost-and-visit-breakdown")],
  [
    "GET /api/webhook-calls",
    async () => {
      // The open-banking provider says the joiner's consent was revoked: a webhook call, and a connection to make again.
      const body = JSON.stringify({ webhook_type: "TOKEN", webhook_code: "DELETE", state: `o${id.org}:u${id.joiner}`, item_id: "token_contract" });
      const secrets = await signingSecrets(env);
      const sent = await env.api.fetch(
        new Request("http://localhost/api/webhooks/akahu", {
          method: "POST",
          body,
          headers: { "content-type": "application/json", "x-akahu-signature": sandboxAkahuSignature(body, secrets.akahu), "x-akahu-signing-key": "1" },
        }),
      );
      expect(sent.status).toBe(200);
      return admin.call("GET", "/api/webhook-calls");
    },
  ],

  // ── Gyms ──
  ["GET /api/gyms", () => admin.call("GET", "/api/gyms")],
  ["GET /api/gyms/{id}", () => admin.call("GET", `/api/gyms/${id.gym}`)],
  [
    "PUT /api/gyms/{id}",
    () =>
      admin.call("PUT", `/api/gyms/${id.gym}`, {
        name: "Demo Fitness Central",
        price_change_notification_reply_to: "hello@demofitness.example.com",
        break_fee_percentage: 25,
        card_surcharge_percent: "1.5",
        card_surcharge_fixed: 30,
        general_card_surcharge_text: "Cards carry 1.5% + 30c",
      }),
  ],
  [
    "PUT /api/gyms/{gymId}/destination-accounts/{accountId}",
    async () =>
      admin.call("PUT", `/api/gyms/${id.gym}/destination-accounts/${(await admin.call("GET", `/api/gyms/${id.gym}`)).json.data.destination_account.id}`, {
        name: "Central trading",
      }),
  ],
  ["PUT /api/gyms/{id}/tracks-visits", () => admin.call("PUT", `/api/gyms/${id.gym}/tracks-visits`, { tracks_visits: true })],
  ["POST /api/gyms/{id}/switch", () => admin.call("POST", `/api/gyms/${id.gym}/switch`)],
  ["POST /api/gyms/{id}/logo", async () => admin.call("POST", `/api/gyms/${id.gym}/logo`, form({ collection: "logo", file: await png() }))],
  [
    "POST /api/gyms/{id}/stripe/redirect",
    async () => {
      const started = await admin.call("POST", `/api/gyms/${id.gym}/stripe/redirect`);
      text.stripePage = started.json.data?.url;
      return started;
    },
  ],
  [
    "POST /api/stripe/exchange",
    async () => {
      const back = new URL((await admin.call("POST", `/api${text.stripePage}`)).json.data.redirect);
      return admin.call("POST", "/api/stripe/exchange", { code: back.searchParams.get("code"), state: back.searchParams.get("state") });
    },
  ],
  [
    "POST /api/gyms/{id}/gocardless/redirect",
    async () => {
      const started = await admin.call("POST", `/api/gyms/${id.gym}/gocardless/redirect`);
      text.gocardlessPage = started.json.data?.url;
      return started;
    },
  ],
  [
    "POST /api/gocardless/exchange",
    async () => {
      const back = new URL((await admin.call("POST", `/api${text.gocardlessPage}`)).json.data.redirect);
      return admin.call("POST", "/api/gocardless/exchange", { code: back.searchParams.get("code"), state: back.searchParams.get("state") });
    },
  ],
  ["PUT /api/gyms/{id}/branch-config", () => admin.call("PUT", `/api/gyms/${id.gym}/branch-config`, { key: "key_live_contract" })],
  [
    "PUT /api/gyms/{id}/akahu-config",
    () => admin.call("PUT", `/api/gyms/${id.gym}/akahu-config`, { app_token: "app_token_contract", secret: "contract-akahu-secret-value" }),
  ],
  [
    "PUT /api/gyms/{id}/onesignal-config",
    () => admin.call("PUT", `/api/gyms/${id.gym}/onesignal-config`, { app_id: "onesignal-app-contract", api_auth_key: "onesignal-key-contract" }),
  ],

  // ── The organisation ──
  ["PUT /api/organisations/{organisationId}", () => admin.call("PUT", `/api/organisations/${id.org}`, { name: "Demo Fitness" })],
  ["PUT /api/organisations/{organisationId}/grace-period", () => admin.call("PUT", `/api/organisations/${id.org}/grace-period`, { period: 7, unit: "day" })],
  [
    "PUT /api/organisations/{organisationId}/term-membership-grace-period",
    () => admin.call("PUT", `/api/organisations/${id.org}/term-membership-grace-period`, { period: 14, unit: "day" }),
  ],
  [
    "PUT /api/organisations/{organisationId}/offering-permissions",
    () => admin.call("PUT", `/api/organisations/${id.org}/offering-permissions`, { enable_offerings: true, non_stop: true, limited_access: true }),
  ],
  [
    "PUT /api/organisations/{organisationId}/price-frequencies",
    () =>
      admin.call("PUT", `/api/organisations/${id.org}/price-frequencies`, {
        weekly: true,
        fortnightly: true,
        monthly: true,
        quarterly: true,
        six_monthly: true,
        yearly: true,
      }),
  ],
  ["GET /api/organisations/{organisationId}/akahu-webhooks", () => admin.call("GET", `/api/organisations/${id.org}/akahu-webhooks`)],
  ["POST /api/organisations/{organisationId}/age-bypass-links", () => admin.call("POST", `/api/organisations/${id.org}/age-bypass-links`)],
  ["POST /api/organisations/{organisationId}/switch", () => admin.call("POST", `/api/organisations/${id.org}/switch`)],

  // ── Offerings and prices ──
  [
    "POST /api/offerings",
    async () => {
      const made = await admin.call("POST", "/api/offerings", {
        name: "Contract Classes",
        description: "Made by the contract test",
        type: "limited_access",
        gyms: [id.gym],
        hours: [{ day: 1, open_at: "06:00", close_at: "09:00" }],
        prices: [{ amount: 1500, billing_frequency: "weekly", private: true }],
      });
      id.offering = made.json.data?.id;
      id.privatePrice = made.json.data?.prices?.[0]?.id;
      return made;
    },
  ],
  [
    "PUT /api/offerings/{id}",
    () =>
      admin.call("PUT", `/api/offerings/${id.offering}`, {
        name: "Contract Classes",
        type: "limited_access",
        gyms: [id.gym],
        hours: [{ day: 2, open_at: "06:00", close_at: "09:00" }],
      }),
  ],
  [
    "POST /api/offerings/{id}/prices",
    async () => {
      const made = await admin.call("POST", `/api/offerings/${id.offering}/prices`, {
        amount: 1800,
        billing_frequency: "weekly",
        term_amount: 6,
        term_unit: "month",
        joining_fee: 2000,
      });
      id.termPrice = made.json.data?.id;
      return made;
    },
  ],
  [
    "PUT /api/prices/{id}",
    () =>
      admin.call("PUT", `/api/prices/${id.termPrice}`, { amount: 1900, billing_frequency: "weekly", term_amount: 6, term_unit: "month", joining_fee: 2000 }),
  ],
  ["POST /api/prices/{id}/private-links", () => admin.call("POST", `/api/prices/${id.privatePrice}/private-links`, { age_bypass: true })],
  ["GET /api/offerings", () => admin.call("GET", "/api/offerings")],
  ["GET /api/gyms/{gym_id}/offerings", () => admin.call("GET", `/api/gyms/${id.gym}/offerings`)],
  ["GET /api/offerings/{id}", () => admin.call("GET", `/api/offerings/${id.offering}`)],
  ["GET /api/offerings/{id}/prices", () => admin.call("GET", `/api/offerings/${id.offering}/prices`)],
  ["GET /api/organisations/{id}/prices", () => admin.call("GET", `/api/organisations/${id.org}/prices`)],
  [
    "GET /api/gyms/{gymId}/offerings/{offeringId}/unique-memberships",
    async () =>
      admin.call(
        "GET",
        `/api/gyms/${id.gym}/offerings/${(await env.db.select().from(prices).where(eq(prices.id, id.runningPrice)))[0].offering_id}/unique-memberships`,
      ),
  ],
  ["POST /api/prices/{id}/pro-rata", () => admin.call("POST", `/api/prices/${id.termPrice}/pro-rata`, { start_date: today })],
  ["DELETE /api/prices/{id}/archive", () => admin.call("DELETE", `/api/prices/${id.termPrice}/archive`)],
  ["POST /api/prices/{id}/restore", () => admin.call("POST", `/api/prices/${id.termPrice}/restore`)],
  ["DELETE /api/prices/{id}", () => admin.call("DELETE", `/api/prices/${id.termPrice}`)],
  ["DELETE /api/offerings/{id}/archive", () => admin.call("DELETE", `/api/offerings/${id.offering}/archive`)],
  ["DELETE /api/offerings/{id}", () => admin.call("DELETE", `/api/offerings/${id.offering}`)],

  // ── Access control ──
  [
    "POST /api/organisations/{id}/access-control/integration",
    () => admin.call("POST", `/api/organisations/${id.org}/access-control/integration`, { integration_type: "kisi" }),
  ],
  [
    "GET /api/organisations/{id}/access-control/places",
    async () => {
      const listed = await admin.call("GET", `/api/organisations/${id.org}/access-control/places`);
      text.place = listed.json.data?.data?.[0]?.place_id;
      return listed;
    },
  ],
  ["POST /api/gyms/{id}/access-control/places", () => admin.call("POST", `/api/gyms/${id.gym}/access-control/places`, { place_id: text.place })],
  [
    "GET /api/organisations/{id}/access-control/places/{placeId}/doors",
    () => admin.call("GET", `/api/organisations/${id.org}/access-control/places/${text.place}/doors`),
  ],
  ["GET /api/organisations/{id}/access-control/integration", () => admin.call("GET", `/api/organisations/${id.org}/access-control/integration`)],

  // ── Members ──
  ["GET /api/members", () => admin.call("GET", "/api/members")],
  ["GET /api/members/{id}", () => admin.call("GET", `/api/members/${id.owingMember}`)],
  [
    "PUT /api/members/{id}",
    () =>
      admin.call("PUT", `/api/members/${id.runningMember}`, {
        name: "Contract Member",
        email: "contract.member@example.com",
        mobile_number: "021 555 0144",
        dob: "1988-03-04",
        tags: ["contract"],
        email_notifications: "on",
        hear_about_us: "friend",
      }),
  ],
  ["POST /api/members/{id}/profile-picture", async () => admin.call("POST", `/api/members/${id.runningMember}/profile-picture`, form({ file: await png() }))],
  ["GET /api/members/{id}/access-control", () => admin.call("GET", `/api/members/${id.owingMember}/access-control`)],
  ["GET /api/members/{id}/access-control-credentials", () => admin.call("GET", `/api/members/${id.owingMember}/access-control-credentials`)],
  ["POST /api/users/{id}/recreate-kisi-login", () => admin.call("POST", `/api/users/${id.owingMember}/recreate-kisi-login`)],
  ["POST /api/members/export", () => admin.call("POST", "/api/members/export", {})],
  [
    "POST /api/subscriptions/{id}/pause",
    async () =>
      admin.call("POST", `/api/subscriptions/${id.runningSubscription}/pause`, {
        action: "pause",
        start: localDay(new Date(Date.now() + 14 * 864e5)),
        end: localDay(new Date(Date.now() + 21 * 864e5)),
        reason: "Holiday",
        version: await versionOf(id.runningSubscription),
      }),
  ],
  [
    "POST /api/subscriptions/change-price-email-preview",
    () =>
      admin.call("POST", "/api/subscriptions/change-price-email-preview", {
        subscription_id: id.runningSubscription,
        price_id: id.otherWeeklyPrice,
        from: "period_end",
      }),
  ],
  [
    "POST /api/subscriptions/schedule-price-change",
    async () =>
      admin.call("POST", "/api/subscriptions/schedule-price-change", {
        subscription_id: id.runningSubscription,
        price_id: id.otherWeeklyPrice,
        from: "period_end",
        version: await versionOf(id.runningSubscription),
      }),
  ],
  ["GET /api/users/{id}/price-change-history", () => admin.call("GET", `/api/users/${id.runningMember}/price-change-history`)],
  ["GET /api/subscriptions/{id}/start-early-data", () => admin.call("GET", `/api/subscriptions/${id.upcomingSubscription}/start-early-data`)],
  [
    "POST /api/subscriptions/{id}/manual-payment",
    async () =>
      admin.call("POST", `/api/subscriptions/${id.owingSubscription}/manual-payment`, {
        method: "eftpos",
        key: "contract-desk-0001",
        version: await versionOf(id.owingSubscription),
      }),
  ],
  ["GET /api/members/{id}/weekly-visits", () => admin.call("GET", `/api/members/${id.owingMember}/weekly-visits`)],
  ["GET /api/members/{id}/subscription-periods", () => admin.call("GET", `/api/members/${id.owingMember}/subscription-periods`)],
  ["GET /api/members/{id}/weekly-cost-per-visit", () => admin.call("GET", `/api/members/${id.owingMember}/weekly-cost-per-visit`)],
  ["GET /api/users/{id}/recurring-schedule", async () => admin.call("GET", `/api/users/${await memberWithSchedule()}/recurring-schedule`)],
  [
    "POST /api/organisations/{id}/members/onboard-pif",
    async () => {
      const made = await admin.call("POST", `/api/organisations/${id.org}/members/onboard-pif`, {
        name: "Paid Upfront",
        email: "paid.upfront@example.com",
        gym_id: id.gym,
        price_id: id.pifPrice,
        start: today,
        method: "bank_transfer",
        key: "contract-onboard-0001",
      });
      id.pifMember = made.json.data?.user_id;
      return made;
    },
  ],
  ["POST /api/members/{id}/resend-pif-invite", () => admin.call("POST", `/api/members/${id.pifMember}/resend-pif-invite`)],
  [
    "POST /api/members/{id}/pif",
    () => admin.call("POST", `/api/members/${id.cancelledMember}/pif`, { price_id: id.pifPrice, start: today, method: "cash", key: "contract-pif-0001" }),
  ],

  // ── Payments and visits ──
  ["GET /api/payments", () => admin.call("GET", "/api/payments")],
  ["GET /api/users/{id}/payments", () => admin.call("GET", `/api/users/${id.owingMember}/payments`)],
  ["POST /api/payments/export", () => admin.call("POST", "/api/payments/export", {})],
  [
    "POST /api/payments/{id}/received",
    async () => {
      const [transfer] = await env.db
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.user_id, id.pifMember), eq(payments.pif_payment, "bank_transfer")));
      return admin.call("POST", `/api/payments/${transfer.id}/received`);
    },
  ],
  ["GET /api/visits", () => admin.call("GET", "/api/visits")],
  ["GET /api/users/{id}/visits", () => admin.call("GET", `/api/users/${id.owingMember}/visits`)],
  ["POST /api/visits/export", () => admin.call("POST", "/api/visits/export", {})],

  // ── Messaging ──
  [
    "GET /api/messaging/conversations",
    async () => {
      const listed = await admin.call("GET", "/api/messaging/conversations");
      id.conversation = listed.json.data?.data?.[0]?.id;
      return listed;
    },
  ],
  ["GET /api/messaging/conversation-messages", () => admin.call("GET", `/api/messaging/conversation-messages?conversation_id=${id.conversation}`)],
  ["POST /api/messaging/send", () => admin.call("POST", "/api/messaging/send", { conversation_id: id.conversation, body: "See you on Monday." })],
  ["PUT /api/messaging/conversations/{conversationId}/read", () => admin.call("PUT", `/api/messaging/conversations/${id.conversation}/read`)],
  ["GET /api/messaging/unread-messages", () => admin.call("GET", "/api/messaging/unread-messages")],

  // ── Staff ──
  ["GET /api/organisations/{id}/staff", () => admin.call("GET", `/api/organisations/${id.org}/staff`)],
  ["POST /api/organisations/{id}/staff-exists", () => admin.call("POST", `/api/organisations/${id.org}/staff-exists`, { email: "new.coach@example.com" })],
  [
    "POST /api/organisations/{id}/staff",
    async () => {
      const made = await admin.call("POST", `/api/organisations/${id.org}/staff`, {
        email: "new.coach@example.com",
        name: "New Coach",
        role: "personal_trainer",
        gyms: [{ id: id.gym, role: "personal_trainer" }],
        invite: "on",
      });
      id.newStaff = made.json.data?.id;
      return made;
    },
  ],
  ["POST /api/staff/{id}/resend-invitation", () => admin.call("POST", `/api/staff/${id.newStaff}/resend-invitation`)],
  ["GET /api/staff/{id}", () => admin.call("GET", `/api/staff/${id.trainer}`)],
  ["POST /api/staff/{id}/kisi-access", () => admin.call("POST", `/api/staff/${id.trainer}/kisi-access`, { access_enabled: "on" })],
  ["DELETE /api/staff/{id}", () => admin.call("DELETE", `/api/staff/${id.newStaff}`)],

  // ── Removing a member, and the session's own calls ──
  ["DELETE /api/members/{id}", () => admin.call("DELETE", `/api/members/${id.removableMember}`)],
  ["POST /api/login", () => browser(env.api, { ip: "198.51.100.44" }).call("POST", "/api/login", { email: DEMO_ACCOUNTS.trainer, password: DEMO_PASSWORD })],
  [
    "POST /api/email/resend",
    async () => {
      const b = browser(env.api, { ip: "198.51.100.45" });
      await b.call("POST", "/api/login", { email: DEMO_ACCOUNTS.trainer, password: DEMO_PASSWORD });
      // A new code may be asked for 30 seconds after the last: that long has passed.
      await env.db.delete(rate_limits).where(eq(rate_limits.key, `code:send:${id.trainer}`));
      return b.call("POST", "/api/email/resend");
    },
  ],
  ["POST /api/forgot-password", () => browser(env.api, { ip: "198.51.100.46" }).call("POST", "/api/forgot-password", { email: "new.joiner@example.com" })],
  ["POST /api/validate-link", async () => browser(env.api).call("POST", "/api/validate-link", { token: await resetToken() })],
  [
    "POST /api/reset-password",
    async () =>
      browser(env.api).call("POST", "/api/reset-password", {
        token: await resetToken(),
        password: "another long passphrase",
        password_confirmation: "another long passphrase",
      }),
  ],
  ["POST /api/logout", () => member.call("POST", "/api/logout")],
];

/** The token of the newest reset link e-mailed to the joiner. */
async function resetToken() {
  return new URL((await lastMail(env.db, "new.joiner@example.com"))!.text.match(/(http\S+reset-password\?token=\S+)/)![1]).searchParams.get("token")!;
}

/** A member with a recurring schedule of sessions (the demo's calendar books some). */
async function memberWithSchedule() {
  const rows = await env.db.execute(sql`select member_id from recurring_schedules where organisation_id = ${id.org} and member_id is not null limit 1`);
  const list = (Array.isArray(rows) ? rows : (rows as { rows: { member_id: number }[] }).rows) as { member_id: number }[];
  return list[0]?.member_id ?? id.morgan;
}

/** Lists whose emptiness the demo cannot help (each says why); every other list must have records for its schema to check. */
const MAY_BE_EMPTY = new Set<SpecCall>(["GET /api/users/{id}/recurring-schedule"]);

const routeOf = (call: SpecCall) => CONTRACT_ROUTES.find((r) => r.call === call)!;

/** The zod issues of an answer, readably: where and what. */
const issues = (error: z.ZodError) => error.issues.map((i) => `${i.path.join(".") || "(answer)"}: ${i.message}`).join("\n");

describe("the contract covers SPEC §7", () => {
  it("lists every call SPEC §7 names, once, and nothing else", () => {
    const listed = CONTRACT_ROUTES.map((r) => r.call);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...SPEC_CALL_LIST].sort());
    // §7's areas as SPEC has them, each call written METHOD /api/path.
    expect(Object.keys(SPEC_CALLS)).toHaveLength(11);
    for (const call of SPEC_CALL_LIST) expect(call).toMatch(/^(GET|POST|PUT|DELETE) \/api\/[A-Za-z0-9_{}/-]+$/);
  });

  it("names for each a route the API has, by method and path", () => {
    const ours = new Set(env.api.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${pathShape(r.path)}`));
    expect(CONTRACT_ROUTES.filter((r) => !ours.has(`${r.method} ${pathShape(r.path)}`)).map((r) => r.call)).toEqual([]);
  });

  it("has a schema or a content type for each, and this test calls each", () => {
    for (const r of CONTRACT_ROUTES) expect("contentType" in r.answer || "safeParse" in r.answer, r.call).toBe(true);
    expect(CALLS.map(([call]) => call).sort()).toEqual(CONTRACT_ROUTES.map((r) => r.call).sort());
  });
});

describe("every call answers as SPEC says", () => {
  for (const [call, make] of CALLS) {
    it(call, async () => {
      const route: ContractRoute = routeOf(call);
      const res = await make();
      expect(res.status, `${call}: ${JSON.stringify(res.json)?.slice(0, 600)}`).toBe(route.status);
      if ("contentType" in route.answer) {
        expect(res.headers.get("content-type")).toMatch(new RegExp(`^${route.answer.contentType}`));
        expect(String(res.json).split("\n").length).toBeGreaterThan(1);
        return;
      }
      const parsed = route.answer.safeParse(res.json);
      expect(parsed.success ? "" : issues(parsed.error!), call).toBe("");
      const inner = res.json?.data?.data;
      if (Array.isArray(inner) && !MAY_BE_EMPTY.has(call))
        expect(inner.length, `${call} answered an empty list: its records' fields went unchecked`).toBeGreaterThan(0);
    });
  }
});

describe("the schemas catch a renamed or missing field", () => {
  it("refuses a payment whose period_start_at is renamed, or whose user is gone", async () => {
    const [one] = (await admin.call("GET", "/api/payments")).json.data.data;
    expect(payment.safeParse(one).success).toBe(true);
    const { period_start_at, ...renamed } = one;
    expect(payment.safeParse({ ...renamed, period_start: period_start_at }).success).toBe(false);
    const { user: _user, ...missing } = one;
    expect(payment.safeParse({ ...missing, member: one.user }).success).toBe(false);
  });

  it("refuses a subscription whose scheduled change comes as one object", async () => {
    const card = (await admin.call("GET", `/api/members/${id.runningMember}`)).json.data.latest_subscription;
    expect(card.transition_to_price?.id).toBe(id.otherWeeklyPrice);
    expect(subscription.safeParse(card).success).toBe(true);
    const { transition_to_price, transition_takes_effect_at, ...rest } = card;
    expect(
      subscription.safeParse({ ...rest, scheduled_price_change: { to_price: transition_to_price, takes_effect_at: transition_takes_effect_at } }).success,
    ).toBe(false);
  });
});

describe("the values are ours, not placeholders", () => {
  it("gives a member's own payment types in SPEC's shape on /api/me: a card, a direct debit, a bank account", async () => {
    // Morgan signed out above (POST /api/logout), and the joiner's new password ended their sessions: both sign in again.
    const morgan = await signedIn(env.api, env.db, DEMO_ACCOUNTS.member, DEMO_PASSWORD);
    const joined = await signedIn(env.api, env.db, "new.joiner@example.com", "another long passphrase");
    for (const who of [morgan, joined]) expect(signedInUser.safeParse((await who.call("GET", "/api/me")).json.data).error?.issues ?? []).toEqual([]);
  });

  it("gives a member's bank connection, payment types and door credentials as they are", async () => {
    const joined = (await admin.call("GET", `/api/members/${id.joiner}`)).json.data;
    // The provider revoked the joiner's consent (the webhook above): connected once, to be made again.
    expect([joined.has_akahu_connection, joined.reauthenticate_akahu]).toEqual([false, true]);
    expect(joined.payment_types.map((p: { type: string }) => p.type).sort()).toEqual(["bank_account", "gocardless_bank_account"]);
    expect(joined.default_payment_type.type).toBe("gocardless_bank_account");
    expect(joined.payment_types.every((p: { details: { account_number: string } }) => p.details.account_number.includes("•"))).toBe(true);
    const owing = (await admin.call("GET", `/api/members/${id.owingMember}`)).json.data;
    expect(owing.access_control_credentials.length).toBeGreaterThan(0);
  });

  it("lists a membership's latest ten payments, newest first, and names its first and latest", async () => {
    const s = (await admin.call("GET", `/api/members/${id.owingMember}`)).json.data.latest_subscription;
    const all = await env.db
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.subscription_id, s.id))
      .orderBy(desc(payments.created_at), desc(payments.id));
    expect(all.length).toBeGreaterThan(10);
    expect(s.payments.map((p: { id: number }) => p.id)).toEqual(all.slice(0, 10).map((p) => p.id));
    expect([s.latest_payment.id, s.first_payment.id]).toEqual([all[0].id, all.at(-1)!.id]);
  });

  it("gives a gym the user's place at it and its organisation", async () => {
    const listed = (await admin.call("GET", "/api/gyms")).json.data.data;
    expect(listed.filter((g: { selected: boolean }) => g.selected).map((g: { id: number }) => g.id)).toEqual([id.gym]);
    expect(listed.every((g: { role: unknown; organisation: { id: number } }) => g.role === "admin" && g.organisation.id === id.org)).toBe(true);
  });

  it("gives a price its value over its term and its card surcharge at the gym", async () => {
    const made = (
      await admin.call("POST", `/api/offerings/${(await env.db.select().from(prices).where(eq(prices.id, id.runningPrice)))[0].offering_id}/prices`, {
        amount: 1000,
        billing_frequency: "monthly",
        term_amount: 1,
        term_unit: "year",
        joining_fee: 500,
      })
    ).json.data;
    // Twelve monthly charges and the joining fee; the gym's surcharge is 1.5% + 30c on a card.
    expect(made).toMatchObject({ total_value: 12_500, formatted_surcharge: "$0.45", formatted_amount_with_surcharge: "$10.45" });
    expect(made.offering.id).toBe(made.offering_id);
  });

  it("lets a gym's admins ask for their gym's open-banking consent page, not another organisation's gym", async () => {
    const [theirs] = await env.db.select({ id: gyms.id }).from(gyms).where(ne(gyms.organisation_id, id.org));
    expect([403, 404]).toContain((await admin.call("GET", `/api/akahu/auth-url?gym_id=${theirs.id}`)).status);
    const trainer = await signedIn(env.api, env.db, DEMO_ACCOUNTS.trainer, DEMO_PASSWORD);
    expect((await trainer.call("GET", `/api/akahu/auth-url?gym_id=${id.gym}`)).status).toBe(403);
  });
});
