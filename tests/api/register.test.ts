import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeGym, makeOrganisation } from "../../server/seed/factories";
import { browser, lastCode, setup } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
let gymUuid: string;
beforeAll(async () => {
  env = await setup({ SIGNUP_LIMIT_PER_HOUR: "3" });
  const org = await makeOrganisation(env.db, { name: "Joinable" });
  gymUuid = (await makeGym(env.db, org.id, "Joinable Central")).uuid;
});
afterAll(() => env.close());

const signup = (ip: string) => browser(env.api, { host: "signup.localhost:3000", ip });
const person = (email: string, extra: Record<string, string> = {}) => ({
  name: "Pat Person",
  email,
  mobile_number: "021 555 0100",
  password: "a fine passphrase",
  ...extra,
});

describe("POST /api/register", () => {
  it("creates a member of the gym's organisation, signed in but not yet verified", async () => {
    const b = signup("198.51.100.10");
    const res = await b.call("POST", "/api/register", person("pat@example.com", { gym: gymUuid }));
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ email: "pat@example.com", two_factor_required: true, is_staff: false });
    expect((await b.call("GET", "/api/me")).json.error).toBe("not_two_factor_authenticated");
    await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, "pat@example.com") });
    const me = (await b.call("GET", "/api/me")).json.data;
    expect(me).toMatchObject({ is_staff: false, current_organisation: { name: "Joinable", role: "member" }, current_gym: { name: "Joinable Central" } });
    expect(me.email_verified_at).toBeTruthy();
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
