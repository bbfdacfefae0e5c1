import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addCalendarDays, localDay } from "../../domain/dates";
import { hashPassword } from "../../server/core/auth/password";
import { mail_outbox, organisation_users, users } from "../../server/core/db/schema";
import { addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn } from "./harness";

/**
 * Walk-in joins (issue 32, decision 0061): staff make a member on a recurring price at the desk with the sign-up's own
 * quote and rules; the person finishes joining from a link (e-mailed, and answered once to the desk) that signs them
 * in on the sign-up host with the price and start day chosen. The same form twice makes one member.
 */
const PASSWORD = "walk in desk passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let org: { id: number };
let gym: { id: number };
let other: { id: number };
let weekly: { id: number };
let elsewhere: { id: number };
let pif: { id: number };
const start = addCalendarDays(localDay(new Date()), 3);
const walkIn = (body: Record<string, unknown>) => admin.call("POST", `/api/organisations/${org.id}/members/walk-in`, body);
const base = (email: string, key: string) => ({
  name: "Wally Walkin",
  email,
  mobile_number: "021 555 0199",
  dob: "1990-04-21",
  gym_id: gym.id,
  price_id: weekly.id,
  start,
  key,
});

beforeAll(async () => {
  env = await setup();
  org = await makeOrganisation(env.db, { name: "Walk-in Ltd", multi_gym: true, minimum_age: 16 });
  gym = await makeGym(env.db, org.id, "Kingsland");
  other = await makeGym(env.db, org.id, "Onehunga");
  const anytime = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  weekly = await makePrice(env.db, anytime, { amount: 1999, joining_fee: 4900 });
  pif = await makePrice(env.db, anytime, { amount: 60000, billing_frequency: "one_off" });
  elsewhere = await makePrice(env.db, anytime, { amount: 2500, gym_id: other.id });
  const hash = await hashPassword(PASSWORD);
  const staff = async (email: string, role: "admin" | "personal_trainer", gyms: { gymId: number; role: "admin" | "personal_trainer" }[] = []) => {
    const u = await makeUser(env.db, { name: email.split("@")[0], email, password_hash: hash });
    await addStaff(env.db, u.id, org.id, role, gyms);
    return signedIn(env.api, env.db, email, PASSWORD);
  };
  admin = await staff("walkin.admin@example.com", "admin");
  trainer = await staff("walkin.trainer@example.com", "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
});
afterAll(() => env?.close?.());

describe("POST /api/organisations/{id}/members/walk-in", () => {
  it("previews the sign-up's own quote and writes nothing", async () => {
    const res = await walkIn({ ...base("preview.only@example.com", "walkin-key-0001"), preview: true });
    expect(res.status).toBe(200);
    expect(res.json.data.preview).toMatchObject({ start_date: start, first: { joining_fee: 4900, charged_on: start }, regular: { amount: 1999 } });
    expect(await env.db.select().from(users).where(eq(users.email, "preview.only@example.com"))).toEqual([]);
  });

  it("makes a member who has not joined yet, keeps the price and day for their sign-up, and sends the link that finishes it", async () => {
    const res = await walkIn(base("wally@example.com", "walkin-key-0002"));
    expect(res.status).toBe(201);
    const { user_id, join_url } = res.json.data;
    expect(join_url).toMatch(/^http:\/\/signup\.localhost(:\d+)?\/sign-in\/link\?token=[\w-]{43}$/);
    const [u] = await env.db.select().from(users).where(eq(users.id, user_id));
    expect(u).toMatchObject({ password_hash: null, should_onboard: true, dob: "1990-04-21", mobile_number: "021 555 0199" });
    const [ou] = await env.db.select().from(organisation_users).where(eq(organisation_users.user_id, user_id));
    expect(ou).toMatchObject({ role: "member", home_gym_id: gym.id, signup_price_id: weekly.id, signup_start_on: start, latest_subscription_id: null });
    const mail = (await env.db.select().from(mail_outbox).where(eq(mail_outbox.to, "wally@example.com")))[0];
    expect(mail.subject).toBe("Finish joining Kingsland");
    expect(mail.text).toContain(join_url);

    // The link signs them in on the sign-up host, where their sign-up has the price and the day.
    const person = browser(env.api, { host: "signup.localhost:3000" });
    const token = new URL(join_url).searchParams.get("token");
    expect((await person.call("POST", "/api/login-link/check", { token })).json.data).toMatchObject({ name: "Wally Walkin" });
    expect((await person.call("POST", "/api/login-link/claim", { token })).status).toBe(200);
    const signup = (await person.call("GET", "/api/me/signup")).json.data;
    expect(signup).toMatchObject({ chosen_price_id: weekly.id, chosen_start_date: start });
    // Once only.
    expect((await browser(env.api, { host: "signup.localhost:3000" }).call("POST", "/api/login-link/claim", { token })).status).toBe(422);
  });

  it("joins once for the same form sent twice, even at the same moment, and refuses the address for another form", async () => {
    const body = base("double.click@example.com", "walkin-key-0003");
    const [a, b] = await Promise.all([walkIn(body), walkIn(body)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.json.data.user_id).toBe(b.json.data.user_id);
    expect(await env.db.select().from(users).where(eq(users.email, "double.click@example.com"))).toHaveLength(1);
    const again = await walkIn(base("double.click@example.com", "walkin-key-0004"));
    expect(again.status).toBe(422);
    expect(again.json.errors.email).toEqual(["They are already your member: open their page"]);
  });

  it("keeps the sign-up's rules: the minimum age, a price on sale at that gym, a recurring one", async () => {
    const young = await walkIn({ ...base("young@example.com", "walkin-key-0005"), dob: addCalendarDays(localDay(new Date()), -365 * 15) });
    expect(young.status).toBe(422);
    expect(young.json.errors.dob[0]).toMatch(/^They need to be 16 or older to join/);
    expect((await walkIn({ ...base("elsewhere@example.com", "walkin-key-0006"), price_id: elsewhere.id })).json.errors).toEqual({
      price_id: ["Choose a membership from the list"],
    });
    expect((await walkIn({ ...base("pif@example.com", "walkin-key-0007"), price_id: pif.id })).json.errors).toEqual({
      price_id: ["A paid-in-full price is sold from New paid-in-full member"],
    });
    expect((await walkIn({ ...base("past@example.com", "walkin-key-0008"), start: "2020-01-01" })).json.errors).toEqual({
      start: ["Choose today or a day after it"],
    });
    for (const email of ["young@example.com", "elsewhere@example.com", "pif@example.com", "past@example.com"]) {
      expect(await env.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    }
  });

  it("is for staff who may change memberships at that gym", async () => {
    const res = await trainer.call("POST", `/api/organisations/${org.id}/members/walk-in`, base("by.trainer@example.com", "walkin-key-0009"));
    expect(res.status).toBe(403);
  });
});
