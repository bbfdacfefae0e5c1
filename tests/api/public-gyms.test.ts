import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gyms } from "../../server/core/db/schema";
import { makeGym, makeOffering, makeOrganisation, makePrice } from "../../server/seed/factories";
import { browser, setup } from "./harness";

/** GET /api/public/gyms and /api/public/gyms/{uuid}: the sign-up chooser's list, open to anyone. */
let env: Awaited<ReturnType<typeof setup>>;
const uuids: Record<string, string> = {};

beforeAll(async () => {
  env = await setup();
  const bravo = await makeOrganisation(env.db, { name: "Bravo Boxing" });
  const alpha = await makeOrganisation(env.db, { name: "Alpha Athletics" });
  const secrets = {
    stripe_id: "acct_SECRET",
    gocardless_organisation_id: "OR_SECRET",
    price_change_notification_reply_to: "secret@example.com",
    break_fee_percentage: 98765,
    integrations: { akahu: { app_token: "SECRET-TOKEN" } },
  };
  for (const [org, name, logo] of [
    [bravo, "Bravo Central", "/logos/bravo.svg"],
    [alpha, "Alpha North", "https://elsewhere.example/logo.png"],
    [alpha, "Alpha East", null],
    [alpha, "Alpha West", "//elsewhere.example/logo.png"],
  ] as const) {
    const gym = await makeGym(env.db, org.id, name);
    await env.db.update(gyms).set({ ...secrets, logo }).where(eq(gyms.id, gym.id));
    uuids[name] = gym.uuid;
  }
  // Alpha sells a public price at every gym; Bravo sells nothing public yet (a private price only).
  await makePrice(env.db, await makeOffering(env.db, alpha.id, { name: "Anytime", all_gyms_access: true }), { amount: 1500 });
  bravoOffering = await makeOffering(env.db, bravo.id, { name: "Boxing", all_gyms_access: true });
  await makePrice(env.db, bravoOffering, { amount: 2500, private: true });
});
let bravoOffering: { id: number; organisation_id: number };
afterAll(() => env.close());

/** Anyone: no cookie, no X-Requested-With, from another site. */
const anyone = () => browser(env.api, { host: "signup.localhost:3000" });
const fromElsewhere = { "x-requested-with": "", origin: "https://integrator.example", "sec-fetch-site": "cross-site" };

describe("GET /api/public/gyms", () => {
  it("lists every gym people can join to anyone, by organisation and name, with its public fields only", async () => {
    // Bravo Central sells only a private price: nobody can join it from the list yet.
    const before = await anyone().call("GET", "/api/public/gyms", undefined, fromElsewhere);
    expect(before.json.data.map((g: { name: string }) => g.name)).toEqual(["Alpha East", "Alpha North", "Alpha West"]);
    await makePrice(env.db, bravoOffering, { amount: 3000 });
    const res = await anyone().call("GET", "/api/public/gyms", undefined, fromElsewhere);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [
        { uuid: uuids["Alpha East"], name: "Alpha East", logo: null, organisation: { name: "Alpha Athletics" } },
        // A logo from anywhere but our own site could not be shown (img-src 'self'), so it is not offered.
        { uuid: uuids["Alpha North"], name: "Alpha North", logo: null, organisation: { name: "Alpha Athletics" } },
        { uuid: uuids["Alpha West"], name: "Alpha West", logo: null, organisation: { name: "Alpha Athletics" } },
        { uuid: uuids["Bravo Central"], name: "Bravo Central", logo: "/logos/bravo.svg", organisation: { name: "Bravo Boxing" } },
      ],
    });
    expect(JSON.stringify(res.json)).not.toMatch(/SECRET|secret@|98765|"id"/);
  });

  it("answers one gym by its uuid, and 404 for a uuid no gym has or one that is not a uuid", async () => {
    const one = await anyone().call("GET", `/api/public/gyms/${uuids["Bravo Central"]}`, undefined, fromElsewhere);
    expect(one.status).toBe(200);
    // `price` is the price a sign-up link names (?price=), when one is on sale there: none asked for here. `prices`:
    // the public prices on sale there (the $30 one), whose ids integrators put in their links.
    expect(one.json.data).toMatchObject({ uuid: uuids["Bravo Central"], name: "Bravo Central", logo: "/logos/bravo.svg", organisation: { name: "Bravo Boxing" }, price: null });
    expect(one.json.data.prices.map((p: { amount: number }) => p.amount)).toEqual([3000]);
    // A price that is not on sale there names nothing; nonsense is ignored, not a 500.
    for (const price of ["1", "99999999999", "abc", "-1"]) {
      const named = await anyone().call("GET", `/api/public/gyms/${uuids["Bravo Central"]}?price=${price}&link=nonsense`);
      expect(named.status, price).toBe(200);
      expect(named.json.data.price, price).toBeNull();
    }
    // The prices carry their ids (for links); the gym never its own.
    expect(JSON.stringify(one.json)).not.toMatch(/SECRET|secret@|98765/);
    expect(Object.keys(one.json.data)).not.toContain("id");
    // Upper case names the same gym.
    expect((await anyone().call("GET", `/api/public/gyms/${uuids["Bravo Central"].toUpperCase()}`)).json.data.name).toBe("Bravo Central");

    for (const bad of ["3f1c7d5e-0000-4000-8000-000000000000", "1", "not-a-uuid", "%27%3B--"]) {
      const res = await anyone().call("GET", `/api/public/gyms/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(res.json).toEqual({ message: "No such gym.", error: "not_found" });
    }
  });

  it("is read-only", async () => {
    const before = await env.db.select().from(gyms).orderBy(gyms.id);
    const b = anyone();
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect((await b.call(method, "/api/public/gyms", { name: "Taken" })).status, method).toBe(404);
      expect((await b.call(method, `/api/public/gyms/${uuids["Alpha East"]}`, { name: "Taken" })).status, method).toBe(404);
    }
    expect(await env.db.select().from(gyms).orderBy(gyms.id)).toEqual(before);
  });
});
