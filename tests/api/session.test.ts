import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { hashPassword } from "../../server/core/auth/password";
import { organisation_users, payment_types } from "../../server/core/db/schema";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { browser, lastCode, lastMail, setup } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
const PASSWORD = "correct horse battery";
let ids: { org: number; other: number; central: number; north: number; elsewhere: number };

beforeAll(async () => {
  env = await setup();
  const org = await makeOrganisation(env.db, { name: "Test Gyms", multi_gym: true });
  const gym = await makeGym(env.db, org.id, "Central");
  const north = await makeGym(env.db, org.id, "North");
  const other = await makeOrganisation(env.db, { name: "Other Org" });
  const elsewhere = await makeGym(env.db, other.id, "Elsewhere");
  ids = { org: org.id, other: other.id, central: gym.id, north: north.id, elsewhere: elsewhere.id };
  const staff = await makeUser(env.db, { name: "sam staff", email: "sam@example.com", password_hash: await hashPassword(PASSWORD), current_organisation_id: org.id });
  await addStaff(env.db, staff.id, org.id, "admin", [{ gymId: north.id, role: "personal_trainer" }]);
  await addStaff(env.db, staff.id, other.id, "personal_trainer");
});
afterAll(() => env.close());

async function signIn(b: ReturnType<typeof browser>, email = "sam@example.com") {
  const res = await b.call("POST", "/api/login", { email, password: PASSWORD });
  expect(res.status).toBe(200);
  return res;
}

describe("sign-in with the e-mailed code", () => {
  it("asks for the code, refuses /me until it is entered, then answers /me", async () => {
    const b = browser(env.api);
    const login = await signIn(b);
    expect(login.json.data.two_factor_required).toBe(true);

    const before = await b.call("GET", "/api/me");
    expect(before.status).toBe(400);
    expect(before.json.error).toBe("not_two_factor_authenticated");

    const code = await lastCode(env.db, "sam@example.com");
    const wrong = await b.call("POST", "/api/email/verify", { code: code === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(422);
    expect(wrong.json.errors.code[0]).toMatch(/not right/);

    const ok = await b.call("POST", "/api/email/verify", { code });
    expect(ok.status).toBe(200);

    const me = await b.call("GET", "/api/me");
    expect(me.status).toBe(200);
    expect(me.json.data).toMatchObject({
      email: "sam@example.com",
      is_staff: true,
      is_organisation_admin: true,
      current_organisation: { name: "Test Gyms", multi_gym: true, role: "admin" },
      current_gym: { name: "Central", role: "admin" },
    });
    expect(me.json.data.organisations).toHaveLength(2);
    // An organisation admin works in every gym, as admin unless a gym gives them another role.
    expect(me.json.data.gyms).toEqual([
      { id: ids.central, name: "Central", logo: null, role: "admin", archived: false },
      { id: ids.north, name: "North", logo: null, role: "personal_trainer", archived: false },
    ]);
  });

  it("lists the member's payment types of the current organisation only, and the default one", async () => {
    const user = await makeUser(env.db, { name: "pat payer", email: "pat@example.com", password_hash: await hashPassword(PASSWORD), current_organisation_id: ids.org });
    await addMember(env.db, user.id, ids.org, ids.central);
    await addMember(env.db, user.id, ids.other, ids.elsewhere);
    const [card, bank] = await env.db
      .insert(payment_types)
      .values([
        { organisation_id: ids.org, user_id: user.id, type: "stripe_card", details: { type: "visa", last_four: "4242", exp_month: 12, exp_year: 2030 } },
        { organisation_id: ids.org, user_id: user.id, type: "bank_account", details: { name: "P Payer", account_number: "12-3456-7890123-00" } },
        { organisation_id: ids.other, user_id: user.id, type: "bank_account", details: { name: "P Payer", account_number: "02-0000-0000000-00" } },
      ])
      .returning();
    await env.db.update(organisation_users).set({ default_payment_type_id: bank.id }).where(eq(organisation_users.user_id, user.id));

    const b = browser(env.api);
    await signIn(b, "pat@example.com");
    await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, "pat@example.com") });
    const me = (await b.call("GET", "/api/me")).json.data;
    expect(me.current_organisation).toMatchObject({ id: ids.org, role: "member" });
    expect(me.gyms).toEqual([{ id: ids.central, name: "Central", logo: null, role: "member", archived: false }]);
    expect(me.payment_types).toEqual([
      { id: card.id, type: "stripe_card", details: card.details },
      { id: bank.id, type: "bank_account", details: bank.details },
    ]);
    expect(me.default_payment_type).toEqual({ id: bank.id, type: "bank_account", details: bank.details });
  });

  it("lets a trusted browser skip the code on its next sign-in", async () => {
    const b = browser(env.api);
    await signIn(b);
    await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, "sam@example.com") });
    await b.call("POST", "/api/logout");
    const again = await signIn(b);
    expect(again.json.data.two_factor_required).toBe(false);
    expect((await b.call("GET", "/api/me")).status).toBe(200);
  });

  it("locks the code after five wrong tries", async () => {
    const b = browser(env.api);
    await signIn(b);
    const code = await lastCode(env.db, "sam@example.com");
    const wrongCode = code === "123456" ? "654321" : "123456";
    for (let i = 0; i < 4; i++) expect((await b.call("POST", "/api/email/verify", { code: wrongCode })).status).toBe(422);
    const fifth = await b.call("POST", "/api/email/verify", { code: wrongCode });
    expect(fifth.json.errors.code[0]).toMatch(/Too many wrong codes/);
    const right = await b.call("POST", "/api/email/verify", { code });
    expect(right.status).toBe(422);
  });

  it("makes a new session id at every sign-in", async () => {
    const b = browser(env.api);
    await signIn(b);
    const first = b.jar.get("gym_session");
    await signIn(b);
    expect(b.jar.get("gym_session")).not.toBe(first);
  });

  it("throttles resending the code for 30 seconds", async () => {
    const b = browser(env.api);
    await signIn(b);
    const res = await b.call("POST", "/api/email/resend");
    expect(res.status).toBe(429);
    expect(res.json.message).toMatch(/You can ask for a new code in \d+ seconds/);
  });
});

describe("wrong passwords and throttling", () => {
  it("answers 422 for a wrong password and 429 after five", async () => {
    const b = browser(env.api, { ip: "198.51.100.1" });
    for (let i = 0; i < 5; i++) {
      const res = await b.call("POST", "/api/login", { email: "sam@example.com", password: "wrong password" });
      expect(res.status).toBe(422);
      expect(res.json.errors.email[0]).toBe("These credentials do not match our records.");
    }
    const locked = await b.call("POST", "/api/login", { email: "sam@example.com", password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.json.message).toMatch(/Try again in 15 minutes/);
    // Unlock for the other tests.
    const { rate_limits } = await import("../../server/core/db/schema");
    await env.db.delete(rate_limits);
  });

  it("validates the body with field errors", async () => {
    const b = browser(env.api);
    const res = await b.call("POST", "/api/login", { email: "not-an-email" });
    expect(res.status).toBe(422);
    expect(res.json.errors.email).toEqual(["Value is not a valid email address"]);
    expect(res.json.errors.password).toEqual(["Value is required"]);
  });

  it("answers 400 to malformed JSON and 404 to unknown paths", async () => {
    const b = browser(env.api);
    const bad = await b.call("POST", "/api/login", "{not json");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/not valid JSON/);
    const missing = await b.call("GET", "/api/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBeTruthy();
  });

  it("answers 401 to /me without a session", async () => {
    const res = await browser(env.api).call("GET", "/api/me");
    expect(res.status).toBe(401);
  });
});

describe("cross-site requests", () => {
  it("refuses a state change without X-Requested-With from another origin", async () => {
    const b = browser(env.api);
    const res = await b.call(
      "POST",
      "/api/login",
      { email: "sam@example.com", password: PASSWORD },
      { "x-requested-with": "", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(res.status).toBe(403);
  });

  it("accepts a same-origin form post", async () => {
    const b = browser(env.api);
    const res = await b.call("POST", "/api/login", new URLSearchParams({ email: "sam@example.com", password: PASSWORD }).toString(), {
      "x-requested-with": "",
      "content-type": "application/x-www-form-urlencoded",
      "sec-fetch-site": "same-origin",
    });
    expect(res.status).toBe(200);
  });
});

describe("forgotten passwords", () => {
  it("answers the same for known and unknown addresses and mails only the known", async () => {
    const b = browser(env.api);
    const known = await b.call("POST", "/api/forgot-password", { email: "sam@example.com" });
    const unknown = await b.call("POST", "/api/forgot-password", { email: "nobody@example.com" });
    expect(known.status).toBe(200);
    expect(unknown.json).toEqual(known.json);
    expect(await lastMail(env.db, "nobody@example.com")).toBeUndefined();
    expect((await lastMail(env.db, "sam@example.com"))?.subject).toBe("Reset your password");
  });

  it("resets with the link once, ends every session, and refuses common passwords", async () => {
    const signedIn = browser(env.api);
    await signIn(signedIn);
    await signedIn.call("POST", "/api/email/verify", { code: await lastCode(env.db, "sam@example.com") });
    expect((await signedIn.call("GET", "/api/me")).status).toBe(200);

    const b = browser(env.api);
    await b.call("POST", "/api/forgot-password", { email: "sam@example.com" });
    const url = (await lastMail(env.db, "sam@example.com"))!.text.match(/(http\S+reset-password\?token=\S+)/)![1];
    const token = new URL(url).searchParams.get("token")!;
    expect(new URL(url).host).toBe("localhost:3000");

    const check = await b.call("POST", "/api/validate-link", { token });
    expect(check.json.data).toMatchObject({ valid: true, purpose: "reset", email: "sam@example.com" });

    const common = await b.call("POST", "/api/reset-password", { token, password: "password1", password_confirmation: "password1" });
    expect(common.status).toBe(422);
    expect(common.json.errors.password[0]).toMatch(/too common/);

    const mismatch = await b.call("POST", "/api/reset-password", { token, password: "a new passphrase", password_confirmation: "different" });
    expect(mismatch.json.errors.password_confirmation).toEqual(["The value must be equal to the other value"]);

    const ok = await b.call("POST", "/api/reset-password", { token, password: "a new passphrase", password_confirmation: "a new passphrase" });
    expect(ok.status).toBe(200);
    expect((await signedIn.call("GET", "/api/me")).status).toBe(401);

    const reused = await b.call("POST", "/api/reset-password", { token, password: "another passphrase", password_confirmation: "another passphrase" });
    expect(reused.status).toBe(422);
    expect(reused.json.error).toBe("invalid_link");

    const login = await b.call("POST", "/api/login", { email: "sam@example.com", password: "a new passphrase" });
    expect(login.status).toBe(200);
    // Put the password back for other tests in this file.
    const { users } = await import("../../server/core/db/schema");
    await env.db.update(users).set({ password_hash: await hashPassword(PASSWORD) });
  });
});

describe("handoff to the sign-up host", () => {
  it("carries a verified session to another host once, and only within a minute", async () => {
    const back = browser(env.api);
    await signIn(back);
    expect((await back.call("POST", "/api/session/handoff")).status).toBe(400); // not verified yet
    await back.call("POST", "/api/email/verify", { code: await lastCode(env.db, "sam@example.com") });
    const { token } = (await back.call("POST", "/api/session/handoff")).json.data;

    const signup = browser(env.api, { host: "signup.localhost:3000" });
    expect((await signup.call("POST", "/api/session/claim", { token })).status).toBe(200);
    expect((await signup.call("GET", "/api/me")).json.data.email).toBe("sam@example.com");

    const again = browser(env.api, { host: "signup.localhost:3000" });
    const reused = await again.call("POST", "/api/session/claim", { token });
    expect(reused.status).toBe(422);
    // A handoff token is not a password link.
    const { token: other } = (await back.call("POST", "/api/session/handoff")).json.data;
    expect((await again.call("POST", "/api/validate-link", { token: other })).status).toBe(422);
  });
});
