import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { organisation_users, rate_limits, users } from "../../server/core/db/schema";
import { addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeUser } from "../../server/seed/factories";
import { browser, lastCode, lastMail, setup, signedIn } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
let gymUuid: string;
const STAFF_PASSWORD = "register staff passphrase";
const ids = {} as Record<"joinable" | "south" | "other", number>;
beforeAll(async () => {
  env = await setup({ SIGNUP_LIMIT_PER_HOUR: "3" });
  const org = await makeOrganisation(env.db, { name: "Joinable", multi_gym: true });
  gymUuid = (await makeGym(env.db, org.id, "Joinable Central")).uuid;
  const south = await makeGym(env.db, org.id, "Joinable South");
  // Sold at every gym: the public list shows the gyms people can join (issue 32).
  await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true }), { amount: 1500 });
  const other = await makeOrganisation(env.db, { name: "Elsewhere" });
  await makeGym(env.db, other.id, "Elsewhere Gym");
  Object.assign(ids, { joinable: org.id, south: south.id, other: other.id });
  const hash = await hashPassword(STAFF_PASSWORD);
  const admin = await makeUser(env.db, { name: "Joinable Admin", email: "admin@joinable.example", password_hash: hash, current_organisation_id: org.id });
  await addStaff(env.db, admin.id, org.id, "admin");
  const otherAdmin = await makeUser(env.db, { name: "Elsewhere Admin", email: "admin@elsewhere.example", password_hash: hash, current_organisation_id: other.id });
  await addStaff(env.db, otherAdmin.id, other.id, "admin");
});
afterAll(() => env.close());

const lastUser = async (email: string) => (await env.db.select().from(users).where(eq(users.email, email)))[0];
const signup = (ip: string) => browser(env.api, { host: "signup.localhost:3000", ip });
const person = (email: string, extra: Record<string, string> = {}) => ({
  name: "Pat Person",
  email,
  mobile_number: "021 555 0100",
  password: "a fine passphrase",
  gym: gymUuid,
  ...extra,
});

describe("POST /api/register", () => {
  it("creates a member of the gym's organisation, signed in but not yet verified", async () => {
    const b = signup("198.51.100.10");
    const res = await b.call("POST", "/api/register", person("pat@example.com", { gym: gymUuid }));
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ email: "pat@example.com", two_factor_required: true });
    expect((await b.call("GET", "/api/me")).json.error).toBe("not_two_factor_authenticated");
    await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, "pat@example.com") });
    const me = (await b.call("GET", "/api/me")).json.data;
    expect(me).toMatchObject({ current_organisation: { name: "Joinable", role: "member" }, current_gym: { name: "Joinable Central" } });
    expect(me.email_verified_at).toBeTruthy();
  });

  it("makes the person a member of the chosen gym's organisation, whom that organisation's staff find and no other's", async () => {
    const [south] = (await signup("198.51.100.15").call("GET", "/api/public/gyms")).json.data.filter((g: { name: string }) => g.name === "Joinable South");
    const res = await signup("198.51.100.15").call("POST", "/api/register", person("sam.south@example.com", { name: "Sam Southside", gym: south.uuid }));
    expect(res.status).toBe(201);
    const [user] = await env.db.select().from(users).where(eq(users.email, "sam.south@example.com"));
    expect(user).toMatchObject({ current_organisation_id: ids.joinable, current_gym_id: ids.south });
    expect(await env.db.select().from(organisation_users).where(eq(organisation_users.user_id, user.id))).toEqual([
      expect.objectContaining({ organisation_id: ids.joinable, role: "member", home_gym_id: ids.south }),
    ]);

    const staff = await signedIn(env.api, env.db, "admin@joinable.example", STAFF_PASSWORD);
    const listed = await staff.call("GET", "/api/members?q=southside&gym=all");
    expect(listed.json.data.data.map((m: { name: string; gym: { name: string } }) => [m.name, m.gym.name])).toEqual([["Sam Southside", "Joinable South"]]);
    expect((await staff.call("POST", "/api/search", { query: "sam.south" })).json.data.data).toEqual([{ id: user.id, name: "Sam Southside", email: "sam.south@example.com" }]);

    const other = await signedIn(env.api, env.db, "admin@elsewhere.example", STAFF_PASSWORD);
    expect((await other.call("GET", "/api/members?q=southside&gym=all")).json.data.data).toEqual([]);
    expect((await other.call("POST", "/api/search", { query: "sam.south" })).json.data.data).toEqual([]);
    expect((await other.call("GET", `/api/members/${user.id}`)).status).toBe(404);
  });

  it("welcomes a new sign-up to their gym in the code's e-mail, not as a sign-in", async () => {
    const b = signup("198.51.100.16");
    expect((await b.call("POST", "/api/register", person("wendy.welcome@example.com"))).status).toBe(201);
    const mail = await lastMail(env.db, "wendy.welcome@example.com");
    expect(mail?.subject).toBe("Confirm your e-mail address");
    expect(mail?.text).toContain("Welcome to Joinable Central, and thanks for signing up.");
    expect(mail?.text).toContain("If you did not sign up with this address, ignore this e-mail");
    expect(mail?.text).not.toContain("sign in");
    // A new code for the same unconfirmed address says the same; once confirmed, a sign-in's code is a sign-in's.
    // As if the 30 s before "send a new code" had passed.
    await env.db.delete(rate_limits).where(eq(rate_limits.key, `code:send:${(await lastUser("wendy.welcome@example.com")).id}`));
    expect((await b.call("POST", "/api/email/resend")).status).toBe(200);
    expect((await lastMail(env.db, "wendy.welcome@example.com"))?.text).toContain("Welcome to Joinable Central, and thanks for signing up.");
    expect((await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, "wendy.welcome@example.com") })).status).toBe(200);
    // Another browser (this one is now trusted, and would be sent no code).
    const elsewhere = signup("198.51.100.18");
    expect((await elsewhere.call("POST", "/api/login", { email: "wendy.welcome@example.com", password: "a fine passphrase" })).status).toBe(200);
    const signIn = await lastMail(env.db, "wendy.welcome@example.com");
    expect(signIn?.subject).toBe("Your sign-in code");
    // The code is in the body only (issue 29: a subject shows on a locked phone).
    expect(signIn?.subject).not.toContain(await lastCode(env.db, "wendy.welcome@example.com"));
    expect(signIn?.text).toContain("If you did not try to sign in, change your password.");
  });

  it("refuses a sign-up that names no gym, and makes no account", async () => {
    for (const gym of [undefined, "", "  "]) {
      const body: Record<string, string> = person("nogym@example.com");
      if (gym === undefined) delete body.gym;
      else body.gym = gym;
      const res = await signup("198.51.100.17").call("POST", "/api/register", body);
      expect(res.status).toBe(422);
      expect(res.json.errors).toEqual({ gym: ["Choose the gym you are joining."] });
    }
    expect(await env.db.select().from(users).where(eq(users.email, "nogym@example.com"))).toEqual([]);
  });

  it("refuses a taken e-mail (any case), a common password and an unknown gym, all at once", async () => {
    const res = await signup("198.51.100.11").call("POST", "/api/register", person("PAT@example.com", { password: "password123", gym: "3f1c7d5e-0000-4000-8000-000000000000" }));
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.errors).sort()).toEqual(["email", "gym", "password"]);
  });

  it("answers unique-email", async () => {
    const b = signup("198.51.100.12");
    expect((await b.call("POST", "/api/unique-email", { email: "Pat@Example.com" })).json.data.unique).toBe(false);
    expect((await b.call("POST", "/api/unique-email", { email: "new@example.com" })).json.data.unique).toBe(true);
  });

  it("rejects a filled honeypot without creating anything", async () => {
    const b = signup("198.51.100.13");
    const res = await b.call("POST", "/api/register", person("bot@example.com", { website: "http://spam.example" }));
    expect(res.status).toBe(400);
    expect((await b.call("POST", "/api/unique-email", { email: "bot@example.com" })).json.data.unique).toBe(true);
  });

  it("accepts a plain form posted from another site", async () => {
    const res = await signup("198.51.100.14").call("POST", "/api/register", new URLSearchParams(person("form@example.com")).toString(), {
      "x-requested-with": "",
      "content-type": "application/x-www-form-urlencoded",
      origin: "https://integrator.example",
      "sec-fetch-site": "cross-site",
    });
    expect(res.status).toBe(201);
  });

  it("limits accounts per address per hour, counting only accounts made", async () => {
    const ip = "203.0.113.99";
    for (let i = 0; i < 3; i++) {
      expect((await signup(ip).call("POST", "/api/register", person("x@example", {}))).status).toBe(422); // invalid: not counted
      expect((await signup(ip).call("POST", "/api/register", person(`limit${i}@example.com`))).status).toBe(201);
    }
    const over = await signup(ip).call("POST", "/api/register", person("limit9@example.com"));
    expect(over.status).toBe(429);
    expect(over.json.message).toMatch(/Too many sign-ups from this network\. Try again in \d+ minutes\./);
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
