import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { eq } from "drizzle-orm";
import { createApi } from "../../server/api/app";
import { gyms, offerings, organisations, payments, prices, subscriptions, users, visits } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn, testConfig } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
const PASSWORD = "stats test passphrase";

/** One organisation's worth of data: `n` members, each with an active subscription, a sent payment and a visit today. */
async function fill(orgId: number, gymId: number, n: number, tag: string) {
  const [offering] = await env.db.insert(offerings).values({ organisation_id: orgId, name: "Anytime", type: "24_7" }).returning();
  const [price] = await env.db
    .insert(prices)
    .values({ organisation_id: orgId, offering_id: offering.id, amount: 2500, billing_frequency: "weekly" })
    .returning();
  for (let i = 0; i < n; i++) {
    const m = await makeUser(env.db, { name: `m${i}`, email: `${tag}${i}@example.com` });
    await addMember(env.db, m.id, orgId, gymId);
    const [sub] = await env.db
      .insert(subscriptions)
      .values({ organisation_id: orgId, user_id: m.id, gym_id: gymId, price_id: price.id })
      .returning();
    await env.db.insert(payments).values({ organisation_id: orgId, gym_id: gymId, user_id: m.id, subscription_id: sub.id, amount: 2500, status: "sent" });
    await env.db.insert(visits).values({ organisation_id: orgId, gym_id: gymId, user_id: m.id, visited_at: new Date() });
  }
}

const staffBrowser = (email: string) => signedIn(env.api, env.db, email, PASSWORD);
const alpha = async () => {
  const [org] = await env.db.select().from(organisations).where(eq(organisations.name, "Alpha"));
  const [gym] = await env.db.select().from(gyms).where(eq(gyms.organisation_id, org.id));
  return { org: org.id, gym: gym.id };
};

beforeAll(async () => {
  env = await setup();
  const hash = await hashPassword(PASSWORD);
  const a = await makeOrganisation(env.db, { name: "Alpha" });
  const gymA = await makeGym(env.db, a.id, "Alpha One");
  const b = await makeOrganisation(env.db, { name: "Beta" });
  const gymB = await makeGym(env.db, b.id, "Beta One");
  await fill(a.id, gymA.id, 3, "a");
  await fill(b.id, gymB.id, 5, "b");
  const staffA = await makeUser(env.db, { name: "alpha admin", email: "alpha@example.com", password_hash: hash });
  await addStaff(env.db, staffA.id, a.id, "admin");
  const staffB = await makeUser(env.db, { name: "beta admin", email: "beta@example.com", password_hash: hash });
  await addStaff(env.db, staffB.id, b.id, "admin");
  await makeUser(env.db, { name: "member only", email: "member-only@example.com", password_hash: hash });
});
afterAll(() => env.close());

describe("GET /api/stats", () => {
  it("counts only the session's organisation", async () => {
    const alpha = await (await staffBrowser("alpha@example.com")).call("GET", "/api/stats");
    expect(alpha.status).toBe(200);
    expect(alpha.json.data).toMatchObject({ members: 3, subscriptions: { active: 3, paused: 0 }, visits_today: 3, revenue_this_month: 7500 });
    const beta = await (await staffBrowser("beta@example.com")).call("GET", "/api/stats");
    expect(beta.json.data).toMatchObject({ members: 5, subscriptions: { active: 5 }, visits_today: 5, revenue_this_month: 12500 });
  });

  it("ignores any organisation named in the request", async () => {
    const alpha = await staffBrowser("alpha@example.com");
    const res = await alpha.call("GET", "/api/stats?organisation_id=2", undefined, { "x-organisation-id": "2" });
    expect(res.json.data.members).toBe(3);
  });

  it("is for staff only", async () => {
    expect((await browser(env.api).call("GET", "/api/stats")).status).toBe(401);
    const member = await staffBrowser("member-only@example.com");
    expect((await member.call("GET", "/api/stats")).status).toBe(403);
  });

  it("shows every server the same membership counts, kept until a write changes them, and money and visits live", async () => {
    // Two API instances stand for two worker processes (WEB_CONCURRENCY) on one database.
    const other = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
    const here = await staffBrowser("alpha@example.com");
    const there = await signedIn(other, env.db, "alpha@example.com", PASSWORD);
    const first = (await here.call("GET", "/api/stats")).json.data;
    expect((await there.call("GET", "/api/stats")).json.data).toEqual(first);
    const { org, gym } = await alpha();
    const [member] = await env.db.select().from(users).where(eq(users.email, "a0@example.com"));

    // A visit and a payment change no membership count: the kept counts stay (the same entry on both), while money
    // and visits are read live. A visit updates the member's row (last_visit_at), which is not what the counts read.
    await env.db.insert(visits).values({ organisation_id: org, gym_id: gym, user_id: member.id, visited_at: new Date() });
    await env.db.insert(payments).values({ organisation_id: org, gym_id: gym, user_id: member.id, amount: 5000, status: "sent" });
    for (const server of [here, there]) {
      const now = (await server.call("GET", "/api/stats")).json.data;
      expect(now).toMatchObject({ members: first.members, membership_as_of: first.membership_as_of, visits_today: first.visits_today + 1 });
      expect(now.revenue_this_month).toBe(first.revenue_this_month + 5000);
    }

    // A write that changes them drops the kept counts for every server, whoever makes it: here one behind the API's
    // back (as a job or an import writes), then a delete through one server (drizzle/0041_figures_follow_writes.sql).
    await fill(org, gym, 2, "late");
    const filled = (await here.call("GET", "/api/stats")).json.data;
    expect(filled.members).toBe(first.members + 2);
    expect((await there.call("GET", "/api/stats")).json.data).toEqual(filled);
    const [late] = await env.db.select().from(users).where(eq(users.email, "late0@example.com"));
    expect((await there.call("DELETE", `/api/members/${late.id}`)).status).toBe(200);
    const after = (await here.call("GET", "/api/stats")).json.data;
    expect(after.members).toBe(first.members + 1);
    expect((await there.call("GET", "/api/stats")).json.data).toEqual(after);

    // Without keeping (DASHBOARD_CACHE_SECONDS=0) each page counts afresh.
    const live = createApi({ db: env.db, mailer: outboxMailer(env.db), config: testConfig({ DASHBOARD_CACHE_SECONDS: "0" }) });
    const liveAdmin = await signedIn(live, env.db, "alpha@example.com", PASSWORD);
    await fill(org, gym, 1, "later");
    expect((await liveAdmin.call("GET", "/api/stats")).json.data.members).toBe(first.members + 2);
  });

  it("reads the member summary once for the GET calls of one page, and afresh for the next page", async () => {
    const live = createApi({ db: env.db, mailer: outboxMailer(env.db), config: testConfig({ DASHBOARD_CACHE_SECONDS: "0" }) });
    const { jar } = await signedIn(live, env.db, "alpha@example.com", PASSWORD);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    // What server.js gives the loaders of one page, and app/lib/api.server.ts passes on with each GET.
    const get = async (path: string, pageReads: Map<string, Promise<unknown>>) =>
      ((await (await live.fetch(new Request(`http://localhost:3000${path}`, { headers: { cookie, "x-requested-with": "XMLHttpRequest" } }), { clientIp: "203.0.113.7", pageReads })).json()) as { data: any }).data;
    const page = new Map<string, Promise<unknown>>();
    const stats = await get("/api/stats", page);
    const { org, gym } = await alpha();
    await fill(org, gym, 1, "page");
    // Later calls of the same page see the same reading, so the page's figures agree with each other.
    expect((await get("/api/stats", page)).members).toBe(stats.members);
    expect((await get("/api/user-breakdown", page)).by_state.active).toBe(stats.subscriptions.active);
    expect((await get("/api/stats", new Map())).members).toBe(stats.members + 1);
  });

  it("ends with the session when the user is deleted", async () => {
    const alpha = await staffBrowser("alpha@example.com");
    await env.db.update(users).set({ deleted_at: new Date() }).where(eq(users.email, "alpha@example.com"));
    expect((await alpha.call("GET", "/api/stats")).status).toBe(401);
  });
});
