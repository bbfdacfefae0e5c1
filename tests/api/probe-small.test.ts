import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/auth/password";
import { addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { browser, lastCode, setup, signedIn } from "./harness";

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
  const a = await makeUser(env.db, { name: "Probe Admin", email: "probe.admin@example.com", is_staff: true, password_hash: await hashPassword(PASSWORD), current_organisation_id: org.id, current_gym_id: gym.id });
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
