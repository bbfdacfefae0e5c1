import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { hashPassword } from "../../server/core/auth/password";
import { organisation_users, users } from "../../server/core/db/schema";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
let alpha: ReturnType<typeof browser>;
let beta: ReturnType<typeof browser>;
const PASSWORD = "search test passphrase";

const signIn = (email: string) => signedIn(env.api, env.db, email, PASSWORD);

async function member(orgId: number, gymId: number, name: string, email: string, mobile_number: string | null = null) {
  const u = await makeUser(env.db, { name, email, mobile_number });
  await addMember(env.db, u.id, orgId, gymId);
  return u;
}

/** POSTs a search as `who` and answers the hits' names, in order. */
async function names(who: ReturnType<typeof browser>, query: unknown) {
  const res = await who.call("POST", "/api/search", { query });
  expect(res.status).toBe(200);
  return (res.json.data.data as { name: string }[]).map((h) => h.name);
}

beforeAll(async () => {
  env = await setup();
  const hash = await hashPassword(PASSWORD);
  const a = await makeOrganisation(env.db, { name: "Alpha", multi_gym: true });
  const a1 = await makeGym(env.db, a.id, "Alpha One");
  const a2 = await makeGym(env.db, a.id, "Alpha Two");
  const b = await makeOrganisation(env.db, { name: "Beta" });
  const b1 = await makeGym(env.db, b.id, "Beta One");

  const staffA = await makeUser(env.db, { name: "Alpha Admin", email: "alpha@example.com", password_hash: hash, current_organisation_id: a.id, current_gym_id: a1.id });
  await addStaff(env.db, staffA.id, a.id, "admin", [
    { gymId: a1.id, role: "admin" },
    { gymId: a2.id, role: "admin" },
  ]);
  const staffB = await makeUser(env.db, { name: "Beta Admin", email: "beta@example.com", password_hash: hash });
  await addStaff(env.db, staffB.id, b.id, "admin");
  // Staff of Alpha whose name matches, to prove staff are never search hits.
  const trainer = await makeUser(env.db, { name: "Smith Trainer", email: "trainer@alpha.example", mobile_number: "021 555 0999" });
  await addStaff(env.db, trainer.id, a.id, "personal_trainer", [{ gymId: a1.id, role: "personal_trainer" }]);
  await makeUser(env.db, { name: "Member Only", email: "member-only@example.com", password_hash: hash });

  await member(a.id, a1.id, "Olivia Smith", "olivia.smith@example.com", "021 555 0123");
  await member(a.id, a1.id, "Smithers Jones", "sj@example.com", "022-555-4567");
  await member(a.id, a1.id, "Sam Goldsmith", "sam.g@example.com", "+64 27 555 8888");
  // At the other gym of the same organisation: search is organisation-wide.
  await member(a.id, a2.id, "Tane Parata", "tane@example.com", "029 555 1212");
  await member(a.id, a1.id, "Harper O'Neil_Lee", "harper_lee@example.com");
  await member(a.id, a1.id, "Parkinson Alexandra Wellington-Smythe", "pawx@example.com");
  for (let i = 0; i < 25; i++) await member(a.id, a1.id, `Bulk Person ${String(i).padStart(2, "0")}`, `bulk${i}@example.com`);

  const left = await member(a.id, a1.id, "Smith Former", "former@example.com");
  await env.db.update(organisation_users).set({ deleted_at: new Date() }).where(and(eq(organisation_users.user_id, left.id), eq(organisation_users.organisation_id, a.id)));
  const gone = await member(a.id, a1.id, "Smith Deleted", "deleted@example.com");
  await env.db.update(users).set({ deleted_at: new Date() }).where(eq(users.id, gone.id));

  // Beta's members, one with a name and number that would match Alpha's searches.
  await member(b.id, b1.id, "Olivia Smithson", "olivia.smithson@example.com", "021 555 0124");
  await member(b.id, b1.id, "Beta Bulk", "betabulk@example.com");

  alpha = await signIn("alpha@example.com");
  beta = await signIn("beta@example.com");
});
afterAll(() => env.close());

describe("POST /api/search", () => {
  it("answers { data: { data: [{ id, name, email }] } } and nothing more about a member", async () => {
    const res = await alpha.call("POST", "/api/search", { query: "olivia" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { data: [{ id: expect.any(Number), name: "Olivia Smith", email: "olivia.smith@example.com" }] } });
  });

  it("matches part of a name, whatever the case", async () => {
    expect(await names(alpha, "LIVI")).toEqual(["Olivia Smith"]);
    expect(await names(alpha, "parat")).toEqual(["Tane Parata"]);
    expect(await names(alpha, "oLiViA sMiTh")).toEqual(["Olivia Smith"]);
    expect(await names(alpha, "olivia   smith")).toEqual(["Olivia Smith"]);
    expect(await names(alpha, "olivia\t\u0000smith")).toEqual(["Olivia Smith"]);
  });

  it("matches part of an e-mail address", async () => {
    expect(await names(alpha, "OLIVIA.SMITH@EX")).toEqual(["Olivia Smith"]);
    expect(await names(alpha, "sam.g@")).toEqual(["Sam Goldsmith"]);
    expect(await names(alpha, "tane@example.com")).toEqual(["Tane Parata"]);
  });

  it("matches a mobile number by its digits, ignoring spaces and punctuation", async () => {
    expect(await names(alpha, "0215550")).toEqual(["Olivia Smith"]);
    expect(await names(alpha, "021 555 0123")).toEqual(["Olivia Smith"]);
    expect(await names(alpha, "021-555-0123")).toEqual(["Olivia Smith"]);
    expect(await names(alpha, "5554567")).toEqual(["Smithers Jones"]);
    expect(await names(alpha, "8888")).toEqual(["Sam Goldsmith"]);
    expect(await names(alpha, "(029) 555")).toEqual(["Tane Parata"]);
    // Fewer than three digits could be anyone's number.
    expect(await names(alpha, "55")).toEqual([]);
  });

  it("ranks exact, then prefix, then start of a later word, then anywhere", async () => {
    expect(await names(alpha, "smith")).toEqual(["Smithers Jones", "Olivia Smith", "Sam Goldsmith"]);
    // The tier comes before closeness: a long name starting with "par" beats a short one with "par" in a later word.
    expect(await names(alpha, "par")).toEqual(["Parkinson Alexandra Wellington-Smythe", "Tane Parata"]);
    expect(await names(alpha, "olivia smith")).toEqual(["Olivia Smith"]);
  });

  it("treats two-letter queries as the start of a word", async () => {
    expect(await names(alpha, "sm")).toEqual(["Smithers Jones", "Olivia Smith"]);
    expect(await names(alpha, "ta")).toEqual(["Tane Parata"]);
  });

  it("takes LIKE wildcards literally", async () => {
    expect(await names(alpha, "%")).toEqual([]);
    expect(await names(alpha, "o_n")).toEqual([]);
    expect(await names(alpha, "'neil_")).toEqual(["Harper O'Neil_Lee"]);
    expect(await names(alpha, "per_lee")).toEqual(["Harper O'Neil_Lee"]);
  });

  it("answers at most 20, best first", async () => {
    const hits = await names(alpha, "bulk person");
    expect(hits).toHaveLength(20);
    expect(hits[0]).toBe("Bulk Person 00");
    expect(hits).toEqual([...hits].sort());
  });

  it("finds members of the current organisation only, in any of its gyms", async () => {
    expect(await names(alpha, "olivia")).toEqual(["Olivia Smith"]);
    expect(await names(beta, "olivia")).toEqual(["Olivia Smithson"]);
    expect(await names(beta, "0215550")).toEqual(["Olivia Smithson"]);
    expect(await names(alpha, "bulk")).not.toContain("Beta Bulk");
    expect(await names(beta, "bulk")).toEqual(["Beta Bulk"]);
    // The current gym is Alpha One; Tane belongs to Alpha Two.
    expect(await names(alpha, "tane")).toEqual(["Tane Parata"]);
  });

  it("ignores any organisation named in the request", async () => {
    const res = await alpha.call("POST", "/api/search?organisation_id=2", { query: "olivia", organisation_id: 2 }, { "x-organisation-id": "2" });
    expect(res.json.data.data.map((h: { name: string }) => h.name)).toEqual(["Olivia Smith"]);
  });

  it("never returns staff, former members or deleted users", async () => {
    expect(await names(alpha, "trainer")).toEqual([]);
    expect(await names(alpha, "0215550999")).toEqual([]);
    expect(await names(alpha, "admin")).toEqual([]);
    expect(await names(alpha, "former")).toEqual([]);
    expect(await names(alpha, "deleted")).toEqual([]);
  });

  it("answers an empty list for an empty or blank query", async () => {
    expect(await names(alpha, "")).toEqual([]);
    expect(await names(alpha, "   ")).toEqual([]);
    const missing = await alpha.call("POST", "/api/search", {});
    expect(missing.status).toBe(200);
    expect(missing.json).toEqual({ data: { data: [] } });
  });

  it("refuses a query longer than 100 characters with 422 and errors.query", async () => {
    expect((await alpha.call("POST", "/api/search", { query: "a".repeat(100) })).status).toBe(200);
    const res = await alpha.call("POST", "/api/search", { query: "a".repeat(101) });
    expect(res.status).toBe(422);
    expect(res.json.errors.query).toEqual(["The maximum value allowed is 100"]);
    const wrongType = await alpha.call("POST", "/api/search", { query: 42 });
    expect(wrongType.status).toBe(422);
    expect(wrongType.json.errors.query).toHaveLength(1);
  });

  it("answers 400 to malformed JSON", async () => {
    const res = await alpha.call("POST", "/api/search", "{ query: ", { "content-type": "application/json" });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("malformed_json");
  });

  it("accepts a plain form post", async () => {
    const res = await alpha.call("POST", "/api/search", "query=parata", { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(200);
    expect(res.json.data.data.map((h: { name: string }) => h.name)).toEqual(["Tane Parata"]);
  });

  it("is for staff only", async () => {
    expect((await browser(env.api).call("POST", "/api/search", { query: "olivia" })).status).toBe(401);
    const memberOnly = await signIn("member-only@example.com");
    expect((await memberOnly.call("POST", "/api/search", { query: "olivia" })).status).toBe(403);
  });
});
