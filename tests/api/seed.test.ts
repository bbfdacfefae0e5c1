import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, asc, eq, gte, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { BILLING_FREQUENCIES } from "../../domain/billing";
import { startOfToday } from "../../domain/dates";
import { subscriptionState, type SubscriptionState } from "../../domain/subscription";
import type { Db } from "../../server/core/db/client";
import {
  gym_users,
  gyms,
  messages,
  offering_hours,
  offerings,
  organisation_users,
  organisations,
  payment_types,
  payments,
  prices,
  subscriptions,
  users,
  visits,
} from "../../server/core/db/schema";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo, type DemoSummary } from "../../server/seed/demo-data";
import { browser, freshDatabase, lastCode, setup } from "./harness";

const MEMBERS = 40;
const now = new Date();
let env: Awaited<ReturnType<typeof setup>>;
let summary: DemoSummary;

beforeAll(async () => {
  env = await setup();
  summary = await seedDemo(env.db, { members: MEMBERS, now });
});
afterAll(() => env.close());

async function userByEmail(db: Db, email: string) {
  const [u] = await db.select().from(users).where(eq(users.email, email));
  expect(u, email).toBeDefined();
  return u;
}

describe("the demo organisations and staff", () => {
  it("makes Demo Fitness (three gyms, multi-gym, messaging) and Harbour Strength (one gym)", async () => {
    const orgs = await env.db.select().from(organisations).orderBy(asc(organisations.name));
    expect(orgs.map((o) => [o.name, o.multi_gym, o.calendar_and_messaging])).toEqual([
      ["Demo Fitness", true, true],
      ["Harbour Strength", false, false],
    ]);
    const counts = await env.db
      .select({ org: gyms.organisation_id, n: sql<number>`count(*)`.mapWith(Number) })
      .from(gyms)
      .groupBy(gyms.organisation_id);
    const byOrg = new Map(counts.map((c) => [c.org, c.n]));
    expect(byOrg.get(orgs[0].id)).toBe(3);
    expect(byOrg.get(orgs[1].id)).toBe(1);
  });

  it("makes the admin an admin of both organisations and of all four gyms", async () => {
    const admin = await userByEmail(env.db, DEMO_ACCOUNTS.admin);
    expect(admin.email_verified_at).not.toBeNull();
    const roles = await env.db.select().from(organisation_users).where(eq(organisation_users.user_id, admin.id));
    expect(roles).toHaveLength(2);
    expect(roles.every((r) => r.role === "admin")).toBe(true);
    const gymRoles = await env.db.select().from(gym_users).where(eq(gym_users.user_id, admin.id));
    expect(gymRoles).toHaveLength(4);
    expect(gymRoles.every((g) => g.role === "admin")).toBe(true);
    const [demo] = await env.db.select().from(organisations).where(eq(organisations.name, "Demo Fitness"));
    expect(admin.current_organisation_id).toBe(demo.id);
  });

  it("gives the trainer exactly one Demo Fitness gym", async () => {
    const trainer = await userByEmail(env.db, DEMO_ACCOUNTS.trainer);
    const [role] = await env.db.select().from(organisation_users).where(eq(organisation_users.user_id, trainer.id));
    expect(role.role).toBe("personal_trainer");
    const gymRoles = await env.db.select().from(gym_users).where(eq(gym_users.user_id, trainer.id));
    expect(gymRoles).toHaveLength(1);
    expect(gymRoles[0]).toMatchObject({ role: "personal_trainer", organisation_id: role.organisation_id });
    expect(trainer.current_gym_id).toBe(gymRoles[0].gym_id);
  });

  it("gives only the three demo accounts a password", async () => {
    const withPassword = await env.db.select({ email: users.email }).from(users).where(isNotNull(users.password_hash));
    expect(withPassword.map((u) => u.email).sort()).toEqual(Object.values(DEMO_ACCOUNTS).sort());
    const emails = await env.db.select({ email: users.email }).from(users);
    expect(new Set(emails.map((e) => e.email.toLowerCase())).size).toBe(MEMBERS + 3);
  });
});

describe("the demo member", () => {
  it("has an active subscription, a payment type, payments and visits", async () => {
    const member = await userByEmail(env.db, DEMO_ACCOUNTS.member);
    const [membership] = await env.db.select().from(organisation_users).where(eq(organisation_users.user_id, member.id));
    expect(membership.role).toBe("member");
    expect(membership.home_gym_id).not.toBeNull();
    expect(membership.default_payment_type_id).not.toBeNull();

    const subs = await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, member.id));
    expect(subs).toHaveLength(1);
    expect(subscriptionState(subs[0], now)).toBe("active");
    expect(subs[0].current_period_start! <= now && now < subs[0].current_period_end!).toBe(true);

    expect(await env.db.select().from(payment_types).where(eq(payment_types.user_id, member.id))).toHaveLength(1);
    const paid = await env.db.select().from(payments).where(and(eq(payments.user_id, member.id), eq(payments.status, "sent")));
    expect(paid.length).toBeGreaterThan(10);
    expect(paid.length).toBeLessThanOrEqual(30);
    expect(await env.db.select().from(visits).where(eq(visits.user_id, member.id))).not.toHaveLength(0);
  });
});

describe("offerings, prices and subscriptions", () => {
  it("has a price for every billing frequency, term prices, a private and an archived price", async () => {
    const rows = await env.db.select().from(prices);
    expect(new Set(rows.map((p) => p.billing_frequency))).toEqual(new Set(BILLING_FREQUENCIES));
    expect(rows.every((p) => Number.isInteger(p.amount) && p.amount > 0)).toBe(true);
    expect(rows.some((p) => p.joining_fee > 0)).toBe(true);
    expect(new Set(rows.filter((p) => p.term_amount).map((p) => `${p.term_amount}/${p.term_unit}`))).toEqual(new Set(["6/month", "12/month"]));
    expect(rows.filter((p) => p.private)).toHaveLength(1);
    expect(rows.filter((p) => p.archived_at)).toHaveLength(1);
  });

  it("opens the Off-Peak offerings Monday to Friday, 9 to 4", async () => {
    const offPeak = await env.db.select().from(offerings).where(eq(offerings.type, "limited_access"));
    expect(offPeak.length).toBe(2);
    const hours = await env.db.select().from(offering_hours).where(inArray(offering_hours.offering_id, offPeak.map((o) => o.id)));
    expect(hours).toHaveLength(10);
    expect(new Set(hours.map((h) => h.day))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(hours.every((h) => h.open_at.startsWith("09:00") && h.close_at.startsWith("16:00"))).toBe(true);
  });

  it("has subscriptions in every state, with consistent periods", async () => {
    const subs = await env.db.select().from(subscriptions);
    expect(subs.length).toBeGreaterThanOrEqual(Math.floor(MEMBERS * 0.75));
    const states = new Map<SubscriptionState, number>();
    for (const s of subs) states.set(subscriptionState(s, now), (states.get(subscriptionState(s, now)) ?? 0) + 1);
    for (const state of ["active", "paused", "cancelled", "grace_period", "upcoming"] as const) expect(states.get(state), state).toBeGreaterThan(0);
    expect(states.get("active")).toBeGreaterThan(subs.length / 2);
    expect(Object.fromEntries(states)).toEqual(Object.fromEntries(Object.entries(summary.subscription_states).filter(([, n]) => n > 0)));
    expect(subs.every((s) => s.current_period_start! < s.current_period_end!)).toBe(true);
    expect(subs.some((s) => s.term_ends_at && s.cooling_period_ends_at)).toBe(true);
    expect(subs.some((s) => s.pif_ends_at)).toBe(true);
  });
});

describe("payments, visits and messages", () => {
  it("has mostly successful payments, some failed with a reason, each for its price's amount", async () => {
    const rows = await env.db
      .select({ status: payments.status, amount: payments.amount, price: prices.amount, error: payments.error_status, org: payments.organisation_id, gym: payments.gym_id })
      .from(payments)
      .innerJoin(subscriptions, eq(subscriptions.id, payments.subscription_id))
      .innerJoin(prices, eq(prices.id, subscriptions.price_id));
    const failed = rows.filter((p) => p.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((p) => p.error)).toBe(true);
    expect(rows.filter((p) => p.status === "sent").length).toBeGreaterThan(rows.length * 0.8);
    expect(rows.every((p) => p.amount === p.price && p.org && p.gym)).toBe(true);
    expect(summary.payments).toBe(rows.length);
  });

  it("has visits today, none of them in the future", async () => {
    const today = await env.db.select().from(visits).where(gte(visits.visited_at, startOfToday(now)));
    expect(today.length).toBeGreaterThan(0);
    expect(today.every((v) => v.visited_at <= now)).toBe(true);
    expect(summary.visits_today).toBe(today.length);
  });

  it("has a year of visits, as the README promises: every 30 days of the last 360 has some", async () => {
    const rows = await env.db.select({ at: visits.visited_at }).from(visits);
    const buckets = new Set(rows.map((v) => Math.floor((now.getTime() - v.at.getTime()) / (30 * 86_400_000))));
    expect([...Array(12).keys()].filter((b) => !buckets.has(b))).toEqual([]);
  });

  it("leaves at least three unread messages from members for the admin", async () => {
    const unread = await env.db.select().from(messages).where(and(eq(messages.from_member, true), isNull(messages.read_at)));
    expect(unread.length).toBeGreaterThanOrEqual(3);
    const [demo] = await env.db.select().from(organisations).where(eq(organisations.name, "Demo Fitness"));
    expect(unread.every((m) => m.organisation_id === demo.id)).toBe(true);
  });
});

describe("determinism", () => {
  it("seeds the same data twice for the same options", async () => {
    const other = await freshDatabase();
    try {
      const again = await seedDemo(other.db, { members: MEMBERS, now });
      expect(again).toEqual(summary);
      expect(await fingerprint(other.db)).toEqual(await fingerprint(env.db));
    } finally {
      await other.close();
    }
  });
});

async function fingerprint(db: Db) {
  const q = async (query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: { v: string }[] }).rows[0].v;
  return {
    users: await q(sql`select md5(string_agg(email || coalesce(mobile_number, ''), ',' order by email)) as v from users`),
    payments: await q(
      sql`select md5(string_agg(u.email || p.status || p.amount || extract(epoch from p.created_at), ',' order by u.email, p.created_at, p.status)) as v
          from payments p join users u on u.id = p.user_id`,
    ),
    visits: await q(
      sql`select md5(string_agg(u.email || extract(epoch from v.visited_at) || v.successful, ',' order by u.email, v.visited_at)) as v
          from visits v join users u on u.id = v.user_id`,
    ),
  };
}

describe("signing in to the demo", () => {
  it("lets admin@example.com sign in with the demo password and lands in Demo Fitness", async () => {
    const b = browser(env.api);
    const login = await b.call("POST", "/api/login", { email: DEMO_ACCOUNTS.admin, password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    if (login.json.data.two_factor_required) {
      const ok = await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, DEMO_ACCOUNTS.admin) });
      expect(ok.status).toBe(200);
    }
    const me = await b.call("GET", "/api/me");
    expect(me.status).toBe(200);
    expect(me.json.data).toMatchObject({
      email: DEMO_ACCOUNTS.admin,
      is_staff: true,
      is_organisation_admin: true,
      is_gym_admin: true,
      current_organisation: { name: "Demo Fitness", multi_gym: true, role: "admin" },
    });
    expect(me.json.data.organisations).toHaveLength(2);
    expect(me.json.data.gyms).toHaveLength(3);
  });

  it("refuses a wrong password and members who have none", async () => {
    const b = browser(env.api, { ip: "198.51.100.9" });
    expect((await b.call("POST", "/api/login", { email: DEMO_ACCOUNTS.admin, password: "not-the-demo-pass" })).status).toBe(422);
    const [someone] = await env.db.select({ email: users.email }).from(users).where(isNull(users.password_hash)).limit(1);
    expect((await b.call("POST", "/api/login", { email: someone.email, password: DEMO_PASSWORD })).status).toBe(422);
  });
});
