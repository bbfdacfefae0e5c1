import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { eachMember } from "../../server/members/list";
import { hashPassword } from "../../server/core/auth/password";
import { withTenant } from "../../server/core/db/tenant";
import { offerings, organisation_users, prices, subscriptions, visits } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/** Wednesday 15 April 2026, 1 pm in Auckland. */
const NOW = new Date("2026-04-15T01:00:00Z");
const PASSWORD = "members list passphrase";
const at = (iso: string) => new Date(iso);

let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
const id: Record<string, number> = {};
let alphaId: number;

async function member(orgId: number, gymId: number, name: string, extra: Partial<typeof organisation_users.$inferInsert> = {}, mobile?: string) {
  const u = await makeUser(env.db, { name, email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`, mobile_number: mobile });
  await addMember(env.db, u.id, orgId, gymId, extra);
  id[name] = u.id;
  return u.id;
}
const subscribe = (orgId: number, gymId: number, userId: number, priceId: number, values: Partial<typeof subscriptions.$inferInsert> = {}) =>
  env.db.insert(subscriptions).values({ organisation_id: orgId, gym_id: gymId, user_id: userId, price_id: priceId, created_at: at("2026-01-10T00:00:00Z"), ...values });

const signIn = (email: string) => signedIn(api, env.db, email, PASSWORD);
const names = (res: { json: { data: { data: { name: string }[] } } }) => res.json.data.data.map((m) => m.name);

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW });
  const hash = await hashPassword(PASSWORD);
  const alpha = await makeOrganisation(env.db, { name: "Alpha", multi_gym: true });
  alphaId = alpha.id;
  const north = await makeGym(env.db, alpha.id, "North");
  const south = await makeGym(env.db, alpha.id, "South");
  id.north = north.id;
  id.south = south.id;
  const [anytime] = await env.db.insert(offerings).values({ organisation_id: alpha.id, name: "Anytime", type: "24_7" }).returning();
  const [weekly] = await env.db.insert(prices).values({ organisation_id: alpha.id, offering_id: anytime.id, amount: 2500, billing_frequency: "weekly" }).returning();
  const [term] = await env.db
    .insert(prices)
    .values({ organisation_id: alpha.id, offering_id: anytime.id, amount: 9000, billing_frequency: "monthly", term_amount: 6, term_unit: "month" })
    .returning();
  const [pifOffering] = await env.db.insert(offerings).values({ organisation_id: alpha.id, name: "Ten Weeks", type: "24_7" }).returning();
  const [pif] = await env.db.insert(prices).values({ organisation_id: alpha.id, offering_id: pifOffering.id, amount: 20000, billing_frequency: "one_off" }).returning();
  id.anytime = anytime.id;
  id.tenWeeks = pifOffering.id;
  id.weekly = weekly.id;
  id.term = term.id;

  await subscribe(alpha.id, north.id, await member(alpha.id, north.id, "Aroha Active", { tags: ["student"], created_at: at("2026-01-02T00:00:00Z") }, "021 555 0101"), weekly.id, {
    // A pause booked for later: active until it starts.
    pause_start_at: at("2026-06-01T00:00:00Z"),
    pause_end_at: at("2026-06-15T00:00:00Z"),
  });
  await subscribe(alpha.id, north.id, await member(alpha.id, north.id, "Paula Paused", { created_at: at("2026-01-03T00:00:00Z") }), weekly.id, {
    pause_start_at: at("2026-04-08T00:00:00Z"),
    pause_end_at: at("2026-05-01T00:00:00Z"),
  });
  await subscribe(alpha.id, north.id, await member(alpha.id, north.id, "Cam Cancelled", { created_at: at("2026-01-04T00:00:00Z") }), term.id, {
    cancelled_at: at("2026-04-01T00:00:00Z"),
    current_period_end: at("2026-04-30T00:00:00Z"),
  });
  await subscribe(alpha.id, north.id, await member(alpha.id, north.id, "Grace Overdue", { tags: ["student", "vip"], created_at: at("2026-01-05T00:00:00Z") }), weekly.id, {
    grace_period_ends_at: at("2026-04-20T00:00:00Z"),
  });
  await subscribe(alpha.id, north.id, await member(alpha.id, north.id, "Uma Upcoming", { created_at: at("2026-01-06T00:00:00Z") }), pif.id, { upcoming_state: "upcoming" });
  await member(alpha.id, north.id, "Nora Nothing", { created_at: at("2026-01-07T00:00:00Z") });
  // Returning: an old cancelled subscription, then a new one; the list shows the new one.
  const returning = await member(alpha.id, north.id, "Rewi Returning", { created_at: at("2026-01-08T00:00:00Z") });
  await subscribe(alpha.id, north.id, returning, weekly.id, { created_at: at("2025-06-01T00:00:00Z"), cancelled_at: at("2025-12-01T00:00:00Z") });
  await subscribe(alpha.id, north.id, returning, term.id, { created_at: at("2026-03-01T00:00:00Z"), pause_start_at: at("2026-03-10T00:00:00Z"), pause_end_at: at("2026-03-20T00:00:00Z") }); // a pause over
  await member(alpha.id, north.id, "Dee Deleted", { deleted_at: at("2026-03-01T00:00:00Z") });
  await subscribe(alpha.id, south.id, await member(alpha.id, south.id, "Sam South"), weekly.id);

  await env.db.insert(visits).values([
    { organisation_id: alpha.id, gym_id: north.id, user_id: id["Aroha Active"], visited_at: at("2026-04-14T20:00:00Z") },
    { organisation_id: alpha.id, gym_id: north.id, user_id: id["Cam Cancelled"], visited_at: at("2026-04-10T20:00:00Z") },
    { organisation_id: alpha.id, gym_id: north.id, user_id: id["Uma Upcoming"], visited_at: at("2026-04-12T20:00:00Z"), successful: false },
  ]);

  const beta = await makeOrganisation(env.db, { name: "Beta" });
  const betaGym = await makeGym(env.db, beta.id, "Beta Gym");
  await member(beta.id, betaGym.id, "Bea Beta");

  const admin = await makeUser(env.db, { name: "alpha admin", email: "admin@example.com", password_hash: hash, current_organisation_id: alpha.id, current_gym_id: north.id });
  await addStaff(env.db, admin.id, alpha.id, "admin");
  const trainer = await makeUser(env.db, { name: "south trainer", email: "trainer@example.com", password_hash: hash, current_organisation_id: alpha.id, current_gym_id: south.id });
  await addStaff(env.db, trainer.id, alpha.id, "personal_trainer", [{ gymId: south.id, role: "personal_trainer" }]);
});
afterAll(() => env.close());

describe("GET /api/members", () => {
  it("lists the current gym's members by name, with membership, status and last visit", async () => {
    const res = await (await signIn("admin@example.com")).call("GET", "/api/members");
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["Aroha Active", "Cam Cancelled", "Grace Overdue", "Nora Nothing", "Paula Paused", "Rewi Returning", "Uma Upcoming"]);
    expect(res.json.data.meta).toEqual({ page: 1, per_page: 50, total: 7, pages: 1, sort: "name", dir: "asc" });
    const byName = Object.fromEntries(res.json.data.data.map((m: { name: string }) => [m.name, m]));
    expect(byName["Aroha Active"]).toMatchObject({
      email: "aroha.active@example.com",
      mobile_number: "021 555 0101",
      gym: { id: id.north, name: "North" },
      tags: ["student"],
      last_visit_at: "2026-04-14T20:00:00.000Z",
      visits_count: 1,
      membership: { offering: "Anytime", amount: 2500, billing_frequency: "weekly", term: null },
      status: { state: "active", label: "Active", colour: "green" },
    });
    expect(byName["Paula Paused"].status).toEqual({ state: "paused", label: "Paused", colour: "amber" });
    expect(byName["Cam Cancelled"].status).toEqual({ state: "cancelled", label: "Cancelled, access until 30 Apr", colour: "green" }); // paid until 30 April
    expect(byName["Cam Cancelled"].membership.term).toBe("6m Term");
    expect(byName["Grace Overdue"].status).toEqual({ state: "grace_period", label: "Grace period", colour: "amber" });
    expect(byName["Uma Upcoming"]).toMatchObject({ status: { state: "upcoming", colour: "amber" }, membership: { term: "PIF" }, last_visit_at: null, visits_count: 0 });
    expect(byName["Nora Nothing"]).toMatchObject({ status: null, membership: null });
    expect(byName["Rewi Returning"]).toMatchObject({ status: { state: "active" }, membership: { term: "6m Term", amount: 9000 } });
  });

  it("filters by status, offering, price, tag and text", async () => {
    const admin = await signIn("admin@example.com");
    const list = async (q: string) => names(await admin.call("GET", `/api/members?${q}`));
    expect(await list("status=active")).toEqual(["Aroha Active", "Rewi Returning"]);
    expect(await list("status=paused")).toEqual(["Paula Paused"]);
    expect(await list("status=cancelled")).toEqual(["Cam Cancelled"]);
    expect(await list("status=grace_period")).toEqual(["Grace Overdue"]);
    expect(await list("status=upcoming")).toEqual(["Uma Upcoming"]);
    expect(await list("status=none")).toEqual(["Nora Nothing"]);
    expect(await list(`status=none&offering=${id.anytime}`)).toEqual([]); // no subscription, so no offering
    expect(await list(`offering=${id.tenWeeks}`)).toEqual(["Uma Upcoming"]);
    expect(await list(`price=${id.term}`)).toEqual(["Cam Cancelled", "Rewi Returning"]);
    expect(await list("tag=vip")).toEqual(["Grace Overdue"]);
    expect(await list("tag=student&status=active")).toEqual(["Aroha Active"]);
    expect(await list("q=PAUL")).toEqual(["Paula Paused"]);
    expect(await list("q=cam.cancelled@")).toEqual(["Cam Cancelled"]);
    expect(await list("q=5550101")).toEqual(["Aroha Active"]);
    expect(await list("q=100%25")).toEqual([]);
    // One or two characters match the start of the name or e-mail only.
    expect(await list("q=pa")).toEqual(["Paula Paused"]);
    expect(await list("q=ul")).toEqual([]);
    // A GET form sends empty fields: they mean no filter.
    expect(await list("status=&offering=&price=&tag=&q=&gym=&sort=&dir=&page=")).toHaveLength(7);
  });

  it("sorts by name, joined and last visit, either way", async () => {
    const admin = await signIn("admin@example.com");
    const list = async (q: string) => names(await admin.call("GET", `/api/members?${q}`));
    expect((await list("sort=name&dir=desc"))[0]).toBe("Uma Upcoming");
    expect(await list("sort=joined")).toEqual(["Rewi Returning", "Nora Nothing", "Uma Upcoming", "Grace Overdue", "Cam Cancelled", "Paula Paused", "Aroha Active"]);
    expect((await list("sort=joined&dir=asc"))[0]).toBe("Aroha Active");
    expect((await list("sort=last_visit")).slice(0, 2)).toEqual(["Aroha Active", "Cam Cancelled"]);
    expect((await list("sort=last_visit&dir=asc")).slice(-2)).toEqual(["Cam Cancelled", "Aroha Active"]);
  });

  it("pages 50 at a time", async () => {
    const admin = await signIn("admin@example.com");
    const res = await admin.call("GET", "/api/members?page=2");
    expect(res.json.data).toMatchObject({ data: [], meta: { page: 2, total: 7, pages: 1 } });
  });

  it("answers a later page's rows, by a tag and by text too, and past the last page only the count", async () => {
    // 53 members in an organisation of their own: the second page has three. A tag or a text filter counts and sorts
    // the members it finds once (server/members/list.ts countAndPage), the others walk the sort's index.
    const gamma = await makeOrganisation(env.db, { name: "Gamma" });
    const gym = await makeGym(env.db, gamma.id, "Gamma Gym");
    const numbered = (n: number) => `Squad ${String(n).padStart(2, "0")}`;
    for (let n = 1; n <= 53; n++) {
      const u = await makeUser(env.db, { name: numbered(n), email: `squad.${n}@example.com` });
      await addMember(env.db, u.id, gamma.id, gym.id, { tags: ["squad"], created_at: at(`2026-02-${String(1 + (n % 28)).padStart(2, "0")}T00:00:00Z`) });
    }
    const admin = await makeUser(env.db, {
      name: "gamma admin",
      email: "gamma.admin@example.com",
      password_hash: await hashPassword(PASSWORD),
      current_organisation_id: gamma.id,
      current_gym_id: gym.id,
    });
    await addStaff(env.db, admin.id, gamma.id, "admin");
    const staff = await signIn("gamma.admin@example.com");
    const byJoined = Array.from({ length: 53 }, (_, i) => i + 1)
      .sort((a, b) => (a % 28) - (b % 28) || a - b)
      .map(numbered);
    for (const filter of ["", "&tag=squad", "&q=squad", "&q=squad&tag=squad"]) {
      const second = await staff.call("GET", `/api/members?page=2${filter}`);
      expect(names(second)).toEqual([numbered(51), numbered(52), numbered(53)]);
      expect(second.json.data.meta).toMatchObject({ page: 2, total: 53, pages: 2 });
      expect(names(await staff.call("GET", `/api/members?page=2&dir=desc${filter}`))).toEqual([numbered(3), numbered(2), numbered(1)]);
      // In join order, the member id (made in turn) breaking ties between members who joined the same day.
      expect(names(await staff.call("GET", `/api/members?page=2&sort=joined&dir=asc${filter}`))).toEqual(byJoined.slice(50));
      const past = await staff.call("GET", `/api/members?page=3${filter}`);
      expect(past.json.data).toMatchObject({ data: [], meta: { page: 3, total: 53, pages: 2 } });
    }
  });

  it("lets an organisation admin list another gym or every gym, and keeps deleted members and other organisations out", async () => {
    const admin = await signIn("admin@example.com");
    expect(names(await admin.call("GET", `/api/members?gym=${id.south}`))).toEqual(["Sam South"]);
    const all = names(await admin.call("GET", "/api/members?gym=all"));
    expect(all).toHaveLength(8);
    expect(all).not.toContain("Dee Deleted");
    expect(all).not.toContain("Bea Beta");
  });

  it("keeps other staff to their own gyms", async () => {
    const trainer = await signIn("trainer@example.com");
    expect(names(await trainer.call("GET", "/api/members"))).toEqual(["Sam South"]);
    const every = await trainer.call("GET", "/api/members?gym=all");
    expect(every.status).toBe(422);
    expect(every.json.errors.gym).toEqual(["Only organisation admins can list every gym"]);
    const north = await trainer.call("GET", `/api/members?gym=${id.north}`);
    expect(north.status).toBe(422);
    expect(north.json.errors.gym).toEqual(["Choose a gym from the list"]);
  });

  it("answers 422 with a message per field for values it cannot use", async () => {
    const res = await (await signIn("admin@example.com")).call("GET", "/api/members?status=sleeping&sort=height&page=0&offering=abc");
    expect(res.status).toBe(422);
    expect(res.json.errors).toMatchObject({
      status: ["Choose a status from the list"],
      sort: ["Sort by name, joined or last visit"],
      offering: ["Choose an offering from the list"],
    });
    expect(res.json.errors.page).toHaveLength(1);
  });

  it("is for signed-in staff", async () => {
    const { browser } = await import("./harness");
    expect((await browser(api).call("GET", "/api/members")).status).toBe(401);
  });
});

describe("POST /api/members/export", () => {
  it("downloads every matching member as CSV, in list order", async () => {
    const admin = await signIn("admin@example.com");
    const res = await api.fetch(
      new Request("http://localhost:3000/api/members/export", {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest", cookie: [...admin.jar].map(([k, v]) => `${k}=${v}`).join("; ") },
        body: JSON.stringify({ sort: "joined", dir: "asc", status: "" }),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="members-2026-04-15.csv"');
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toBe("ID,Name,E-mail,Mobile,Gym,Offering,Price,Frequency,Term,Status,Tags,Last visit (NZ time),Visits,Joined (NZ date)");
    expect(lines).toHaveLength(8);
    expect(lines[1]).toContain("Aroha Active,aroha.active@example.com,021 555 0101,North,Anytime,$25.00,Weekly,,Active,student,2026-04-15 08:00,1,2026-01-02");
    expect(lines[7]).toContain("Rewi Returning");
  });

  it("reads the database in keyset batches that neither skip nor repeat a member", async () => {
    for (const sort of ["name", "joined", "last_visit"] as const) {
      for (const dir of ["asc", "desc"] as const) {
        // eachMember opens a transaction per batch (t.again), so the tenant is only borrowed for that.
        const t = await withTenant(env.db, alphaId, null, async (t) => t);
        const batches: string[][] = [];
        for await (const b of eachMember(t, { sort, dir, gymId: null }, NOW, 3)) batches.push(b.map((m) => m.name));
        const all = batches.flat();
        expect(batches.every((b) => b.length <= 3)).toBe(true);
        expect(new Set(all).size).toBe(8);
        const page = await (await signIn("admin@example.com")).call("GET", `/api/members?gym=all&sort=${sort}&dir=${dir}`);
        expect(all).toEqual(names(page));
      }
    }
  });

  it("answers 422 to filters it cannot use, and 403 to staff who may not export, before any CSV", async () => {
    const res = await (await signIn("admin@example.com")).call("POST", "/api/members/export", { status: "nonsense" });
    expect(res.status).toBe(422);
    const trainer = await (await signIn("trainer@example.com")).call("POST", "/api/members/export", { gym: "all" });
    expect(trainer.status).toBe(403);
    expect(trainer.json.message).toBe("Only admins can export members.");
  });
});
