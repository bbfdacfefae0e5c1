import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { createApi } from "../../server/api/app";
import { api_keys, idempotency_keys, offerings } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { browser, itRaces, setup, signedIn } from "./harness";

/**
 * Integrators' API keys (issue 33, decision 0062): made by organisation admins, sent as a bearer token with no cookie and
 * no X-Requested-With, scoped by the permission table, limited per key, and never a way into another organisation or
 * into the routes for people.
 */
const PASSWORD = "api keys passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let org: { id: number };
let north: { id: number };
let south: { id: number };
let memberId: number;
let otherMemberId: number;

/** A request with only a key: no cookie, no X-Requested-With, from another site. */
async function keyed(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await api.fetch(
    new Request(`http://localhost:3000${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        origin: "https://integrator.example",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { clientIp: "198.51.100.9" },
  );
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, headers: res.headers };
}

const makeKey = async (levels: Record<string, string>, extra: Record<string, unknown> = {}) => {
  const res = await admin.call("POST", "/api/api-keys", { name: "Zapier", ...levels, ...extra });
  expect(res.status).toBe(201);
  return res.json.data as { id: number; secret: string; prefix: string; scopes: string[] };
};

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  org = await makeOrganisation(env.db, { name: "Keyed Ltd", multi_gym: true });
  north = await makeGym(env.db, org.id, "North");
  south = await makeGym(env.db, org.id, "South");
  const price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true }), { amount: 1500 });
  const hash = await hashPassword(PASSWORD);
  const a = await makeUser(env.db, { name: "Key Admin", email: "keys.admin@example.com", password_hash: hash });
  await addStaff(env.db, a.id, org.id, "admin");
  admin = await signedIn(api, env.db, "keys.admin@example.com", PASSWORD);
  const t = await makeUser(env.db, { name: "Key Trainer", email: "keys.trainer@example.com", password_hash: hash });
  await addStaff(env.db, t.id, org.id, "personal_trainer", [{ gymId: north.id, role: "admin" }]);
  trainer = await signedIn(api, env.db, "keys.trainer@example.com", PASSWORD);
  for (const [name, gym] of [
    ["Mia North", north.id],
    ["Sam South", south.id],
  ] as const) {
    const u = await makeUser(env.db, { name, email: `${name.split(" ")[0].toLowerCase()}@example.com` });
    await addMember(env.db, u.id, org.id, gym);
    await makePayment(env.db, await makeSubscription(env.db, price, u.id, gym), { amount: 1500 });
    if (gym === north.id) memberId = u.id;
  }
  const other = await makeOrganisation(env.db, { name: "Elsewhere Ltd" });
  const otherGym = await makeGym(env.db, other.id, "Elsewhere");
  const o = await makeUser(env.db, { name: "Olive Other", email: "olive@example.com" });
  await addMember(env.db, o.id, other.id, otherGym.id);
  otherMemberId = o.id;
});
afterAll(() => env?.close?.());

describe("making and revoking keys", () => {
  it("shows the secret once, stores only its hash, and lists the key without it", async () => {
    const key = await makeKey({ members: "read", payments: "write" });
    expect(key.secret).toMatch(/^gym_live_[0-9a-z]{32}$/);
    expect(key.prefix).toBe(key.secret.slice(0, 17));
    expect(key.scopes).toEqual(["gyms.read", "members.read", "money.read", "money.write"]);
    const list = await admin.call("GET", "/api/api-keys");
    const listed = list.json.data.data.find((k: { id: number }) => k.id === key.id);
    expect(listed).toMatchObject({ name: "Zapier", prefix: key.prefix, created_by: "Key Admin", revoked_at: null });
    expect(listed.levels).toMatchObject({ members: "read", payments: "write", visits: "none" });
    expect(JSON.stringify(list.json)).not.toContain(key.secret);
    const [row] = await env.db.select().from(api_keys).where(eq(api_keys.id, key.id));
    expect(JSON.stringify(row)).not.toContain(key.secret.slice(17));
  });

  it("refuses a key with no access, a missing name, and a limit out of range, with field errors", async () => {
    const res = await admin.call("POST", "/api/api-keys", { name: " ", rate_limit_per_minute: "5" });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ name: ["Value is required"], rate_limit_per_minute: ["Enter a whole number from 10 to 6000"] });
    const none = await admin.call("POST", "/api/api-keys", { name: "Nothing" });
    expect(none.json.errors).toEqual({ members: ["Give the key access to at least one area"] });
  });

  it("is for organisation admins only: a gym admin is refused, and so is a key", async () => {
    expect((await trainer.call("POST", "/api/api-keys", { name: "Mine", members: "read" })).status).toBe(403);
    expect((await trainer.call("GET", "/api/api-keys")).status).toBe(403);
    const key = await makeKey({ members: "write" });
    const res = await keyed(key.secret, "POST", "/api/api-keys", { name: "Escalate", members: "write" });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe("api_key_not_allowed");
  });

  it("stops working the moment it is revoked", async () => {
    const key = await makeKey({ members: "read" });
    expect((await keyed(key.secret, "GET", "/api/members")).status).toBe(200);
    const revoked = await admin.call("DELETE", `/api/api-keys/${key.id}`);
    expect(revoked.json.data.revoked_at).not.toBeNull();
    const res = await keyed(key.secret, "GET", "/api/members");
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: "invalid_api_key" });
  });
});

describe("calling the API with a key", () => {
  it("needs no cookie, no code by e-mail and no X-Requested-With, even for a change from another site", async () => {
    const key = await makeKey({ members: "write" });
    const list = await keyed(key.secret, "GET", "/api/members");
    expect(list.status).toBe(200);
    // Every gym of the organisation: a key is not at a gym.
    expect(list.json.data.data.map((m: { name: string }) => m.name).sort()).toEqual(["Mia North", "Sam South"]);
    const put = await keyed(key.secret, "PUT", `/api/members/${memberId}`, { name: "Mia Northcote", email: "mia@example.com" });
    expect(put.status).toBe(200);
    expect(put.json.data.name).toBe("Mia Northcote");
  });

  it("records when and from where it was last used", async () => {
    const key = await makeKey({ visits: "read" });
    await keyed(key.secret, "GET", "/api/visits");
    const [row] = await env.db.select().from(api_keys).where(eq(api_keys.id, key.id));
    expect(row.last_used_ip).toBe("198.51.100.9");
    expect(row.last_used_at).not.toBeNull();
  });

  it("may do only what its scopes allow, through the permission table", async () => {
    const key = await makeKey({ members: "read" });
    expect((await keyed(key.secret, "GET", `/api/members/${memberId}`)).status).toBe(200);
    expect((await keyed(key.secret, "GET", "/api/payments")).status).toBe(403);
    expect((await keyed(key.secret, "GET", "/api/visits")).status).toBe(403);
    const put = await keyed(key.secret, "PUT", `/api/members/${memberId}`, { name: "Changed", email: "mia@example.com" });
    expect(put.status).toBe(403);
    const visits = await makeKey({ visits: "read" });
    expect((await keyed(visits.secret, "GET", "/api/visits")).status).toBe(200);
    expect((await keyed(visits.secret, "GET", "/api/members")).status).toBe(403);
  });

  it("never reaches another organisation's records", async () => {
    const key = await makeKey({ members: "write" });
    expect((await keyed(key.secret, "GET", `/api/members/${otherMemberId}`)).status).toBe(404);
    expect((await keyed(key.secret, "DELETE", `/api/members/${otherMemberId}`)).status).toBe(404);
  });

  it("is refused on the routes for people: the session's own, settings, staff, exports", async () => {
    const key = await makeKey({ members: "write", payments: "write", memberships: "write", visits: "write", offerings: "write", calendar: "write" });
    for (const [method, path] of [
      ["GET", "/api/me"],
      ["GET", `/api/organisations/${org.id}/staff`],
      ["PUT", `/api/organisations/${org.id}`],
      ["POST", "/api/members/export"],
      ["GET", "/api/stats"],
      ["POST", `/api/gyms/${north.id}/switch`],
      ["GET", "/api/messaging/unread-messages"],
      ["POST", "/api/kiosk"],
    ]) {
      const res = await keyed(key.secret, method, path, method === "GET" ? undefined : {});
      expect([path, res.status, res.json?.error]).toEqual([path, 403, "api_key_not_allowed"]);
    }
  });

  it("answers 401 to a key that is not one", async () => {
    for (const token of ["gym_live_" + "0".repeat(32), "nonsense", "gym_live_short"]) {
      const res = await keyed(token, "GET", "/api/members");
      expect(res.status).toBe(401);
      expect(res.json.error).toBe("invalid_api_key");
    }
  });

  it("ignores a session cookie sent with a key: the key alone decides", async () => {
    const key = await makeKey({ visits: "read" });
    const res = await admin.call("GET", "/api/payments", undefined, { authorization: `Bearer ${key.secret}` });
    expect(res.status).toBe(403);
  });
});

describe("limits per key", () => {
  it("answers 429 with Retry-After past the key's requests a minute, and other keys carry on", async () => {
    const slow = await makeKey({ members: "read" }, { rate_limit_per_minute: 10 });
    const other = await makeKey({ members: "read" });
    for (let i = 0; i < 10; i++) expect((await keyed(slow.secret, "GET", "/api/members")).status).toBe(200);
    const res = await keyed(slow.secret, "GET", "/api/members");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.headers.get("ratelimit-limit")).toBe("10");
    expect((await keyed(other.secret, "GET", "/api/members")).status).toBe(200);
  });
});

describe("Idempotency-Key", () => {
  const offering = (name: string) => ({
    name,
    description: "Weekdays",
    type: "24_7",
    all_gyms_access: true,
    gyms: [],
    hours_mandated: false,
    hours: [],
    prices: [{ amount: 1299, billing_frequency: "weekly" }],
  });
  const count = async (name: string) => (await env.db.select().from(offerings).where(eq(offerings.name, name))).length;

  it("answers the first result again to the same request, without doing it twice", async () => {
    const key = await makeKey({ offerings: "write" });
    const first = await keyed(key.secret, "POST", "/api/offerings", offering("Idempotent"), { "idempotency-key": "b1c2d3e4-0001" });
    expect(first.status).toBe(201);
    const again = await keyed(key.secret, "POST", "/api/offerings", offering("Idempotent"), { "idempotency-key": "b1c2d3e4-0001" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(await count("Idempotent")).toBe(1);
  });

  it("refuses the same key with another body (422), and keeps keys of different callers apart", async () => {
    const key = await makeKey({ offerings: "write" });
    await keyed(key.secret, "POST", "/api/offerings", offering("First body"), { "idempotency-key": "shared-key-1" });
    const res = await keyed(key.secret, "POST", "/api/offerings", offering("Second body"), { "idempotency-key": "shared-key-1" });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe("idempotency_key_reused");
    expect(await count("Second body")).toBe(0);
    // Staff signed in may send one too; their keys are their own.
    const staff = await admin.call("POST", "/api/offerings", offering("Second body"), { "idempotency-key": "shared-key-1" });
    expect(staff.status).toBe(201);
  });

  it("keeps nothing for a request that failed, so it may be sent again", async () => {
    const key = await makeKey({ offerings: "write" });
    const bad = await keyed(key.secret, "POST", "/api/offerings", { ...offering(""), name: "" }, { "idempotency-key": "retry-after-fix" });
    expect(bad.status).toBe(422);
    expect(await env.db.select().from(idempotency_keys).where(eq(idempotency_keys.key, "retry-after-fix"))).toEqual([]);
    const bad2 = await keyed(key.secret, "POST", "/api/offerings", offering("Fixed"), { "idempotency-key": "retry-after-fix" });
    expect(bad2.status).toBe(201);
  });

  it("forgets a key after a day", async () => {
    const key = await makeKey({ offerings: "write" });
    await keyed(key.secret, "POST", "/api/offerings", offering("Day one"), { "idempotency-key": "daily" });
    await env.db
      .update(idempotency_keys)
      .set({ created_at: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(idempotency_keys.key, "daily"));
    const res = await keyed(key.secret, "POST", "/api/offerings", offering("Day one"), { "idempotency-key": "daily" });
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(await count("Day one")).toBe(2);
  });

  it("refuses a key that is not visible ASCII", async () => {
    const key = await makeKey({ offerings: "write" });
    const res = await keyed(key.secret, "POST", "/api/offerings", offering("Odd key"), { "idempotency-key": "x".repeat(256) });
    expect(res.status).toBe(400);
  });

  itRaces("does it once when the same request arrives twice at the same moment", async () => {
    const key = await makeKey({ offerings: "write" });
    const both = await Promise.all([1, 2].map(() => keyed(key.secret, "POST", "/api/offerings", offering("Raced"), { "idempotency-key": "raced-1" })));
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both[0].json).toEqual(both[1].json);
    expect(await count("Raced")).toBe(1);
  });
});

describe("the pages", () => {
  it("a browser request sending a key is not signed in by it (only the API reads keys)", async () => {
    const key = await makeKey({ members: "read" });
    const page = browser(api);
    // The web app's client forwards only cookies (app/lib/api.server.ts); the API itself must answer /api/me as for nobody.
    const res = await page.call("GET", "/api/me", undefined, { authorization: `Bearer ${key.secret}` });
    expect(res.status).toBe(403);
  });
});
