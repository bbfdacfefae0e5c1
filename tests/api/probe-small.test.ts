import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { browser, itRaces, lastCode, lastMail, setup, signedIn } from "./harness";

/** Issue 29's smaller probe findings (decision 0046). */
const PASSWORD = "probe small passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let org: Awaited<ReturnType<typeof makeOrganisation>>;
let gym: Awaited<ReturnType<typeof makeGym>>;
let admin: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  env = await setup();
  org = await makeOrganisation(env.db, { name: "Probe Gyms" });
  gym = await makeGym(env.db, org.id, "Central");
  const a = await makeUser(env.db, {
    name: "Probe Admin",
    email: "probe.admin@example.com",
    password_hash: await hashPassword(PASSWORD),
    current_organisation_id: org.id,
    current_gym_id: gym.id,
  });
  await addStaff(env.db, a.id, org.id, "admin");
  admin = await signedIn(env.api, env.db, "probe.admin@example.com", PASSWORD);
});
afterAll(() => env.close());

describe("M2: a formula typed on the public sign-up form", () => {
  it("is neutralised in the members export", async () => {
    const b = browser(env.api, { ip: "198.51.100.29" });
    const names = ["-1+2+cmd|' /C calc'!A0", "+(1+1)", "- 2+3"];
    for (const [i, name] of names.entries()) {
      const email = `formula${i}@example.com`;
      const made = await b.call("POST", "/api/register", { name, email, mobile_number: "021 555 0100", password: "a long enough passphrase", gym: gym.uuid });
      expect(made.status, name).toBe(201);
      expect((await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, email) })).status).toBe(200);
      await b.call("POST", "/api/logout");
    }
    const res = await admin.call("POST", "/api/members/export", {});
    expect(res.status).toBe(200);
    const text = String(res.json);
    for (const name of names) {
      expect(text).toContain(`'${name}`);
      expect(text).not.toMatch(new RegExp(`(^|,|")${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "m"));
    }
  });
});

describe("L1: one day schema (real calendar days, 1900–2200)", () => {
  it("answers 422, not 500, to years 9999 and 1000 and to 29 February in a year without one", async () => {
    const m = await makeUser(env.db, { name: "Dated Member", email: "dated@example.com" });
    await addMember(env.db, m.id, org.id, gym.id);
    for (const day of ["9999-12-31", "1000-01-01", "2023-02-29", "2201-01-01", "1899-12-31"]) {
      for (const path of [
        `/api/webhook-calls?to=${day}`,
        `/api/webhook-calls?from=${day}`,
        `/api/expected-payments-debugging?from=${day}&to=${day}`,
        `/api/expected-payments-debugging?to=${day}`,
        `/api/active-user-debugging?member=${m.id}&day=${day}`,
      ]) {
        const res = await admin.call("GET", path);
        expect(res.status, path).toBe(422);
      }
      const edit = await admin.call("PUT", `/api/members/${m.id}`, { name: "Dated Member", email: "dated@example.com", dob: day });
      expect(edit.status, day).toBe(422);
      expect(Object.keys(edit.json.errors)).toEqual(["dob"]);
    }
    expect((await admin.call("PUT", `/api/members/${m.id}`, { name: "Dated Member", email: "dated@example.com", dob: "2024-02-29" })).status).toBe(200);
    expect((await admin.call("GET", "/api/webhook-calls?from=2026-01-01&to=2200-12-31")).status).toBe(200);
  });
});

describe("L2: password reset links", () => {
  const resetToken = async (email: string) => {
    expect((await browser(env.api).call("POST", "/api/forgot-password", { email })).status).toBe(200);
    return new URL((await lastMail(env.db, email))!.text.match(/https?:\/\/\S+/)![0]).searchParams.get("token")!;
  };

  it("a reset ends every other link still out", async () => {
    await makeUser(env.db, { name: "Two Links", email: "two.links@example.com", password_hash: await hashPassword(PASSWORD) });
    const first = await resetToken("two.links@example.com");
    const second = await resetToken("two.links@example.com");
    expect(
      (
        await browser(env.api).call("POST", "/api/reset-password", {
          token: second,
          password: "a brand new passphrase",
          password_confirmation: "a brand new passphrase",
        })
      ).status,
    ).toBe(200);
    const late = await browser(env.api).call("POST", "/api/reset-password", {
      token: first,
      password: "someone elses passphrase",
      password_confirmation: "someone elses passphrase",
    });
    expect(late.status).toBe(422);
    expect((await browser(env.api).call("POST", "/api/validate-link", { token: first })).status).toBe(422);
  });

  itRaces("six simultaneous uses of one link: exactly one sets the password", async () => {
    await makeUser(env.db, { name: "Six Tabs", email: "six.tabs@example.com", password_hash: await hashPassword(PASSWORD) });
    const token = await resetToken("six.tabs@example.com");
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        browser(env.api, { ip: `192.0.2.${i + 1}` }).call("POST", "/api/reset-password", {
          token,
          password: `racing passphrase ${i}`,
          password_confirmation: `racing passphrase ${i}`,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422, 422, 422, 422]);
  });
});

describe("L4: the permission table decides fields as well as routes", () => {
  it("a trainer reads a membership without what the member owes, their next charge or how far they have paid", async () => {
    const t = await makeUser(env.db, {
      name: "Probe Trainer",
      email: "probe.trainer@example.com",
      password_hash: await hashPassword(PASSWORD),
      current_organisation_id: org.id,
      current_gym_id: gym.id,
    });
    await addStaff(env.db, t.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
    const trainer = await signedIn(env.api, env.db, "probe.trainer@example.com", PASSWORD);
    const m = await makeUser(env.db, { name: "Owing Member", email: "owing@example.com" });
    await addMember(env.db, m.id, org.id, gym.id);
    const price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Probe Plan" }), { amount: 2_500 });
    const sub = await makeSubscription(env.db, price, m.id, gym.id, { current_period_start: new Date(Date.now() - 3 * 86_400_000) });
    const money = ["owing", "next_charge", "paid_until"];
    expect((await trainer.call("GET", `/api/users/${m.id}/payments`)).status).toBe(403);
    const seen = await trainer.call("GET", `/api/subscriptions/${sub.id}`);
    expect(seen.status).toBe(200);
    expect(seen.json.data).toMatchObject({ id: sub.id, state: expect.any(String), price: { id: price.id } });
    for (const field of money) expect(seen.json.data, field).not.toHaveProperty(field);
    const full = (await admin.call("GET", `/api/subscriptions/${sub.id}`)).json.data;
    for (const field of money) expect(full, field).toHaveProperty(field);
  });
});
