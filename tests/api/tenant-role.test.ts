import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";
import { hideGymsFromTenants } from "./row-level-security";

/**
 * Every API request's queries run as the role gym_tenant, so PostgreSQL's row-level security is on behind them
 * (server/core/db/tenant.ts). The matrix (tenant-matrix.test.ts) cannot tell: the queries' own filters hide the other
 * organisation's rows whether or not the policies apply. Here a restrictive policy hides one of Alpha's own gyms
 * from gym_tenant alone; Alpha's admin must not see or change it through the API, while the app's own role still
 * sees it. A request that ran without the role (the switch this product no longer has) would show it.
 */
const HIDDEN = "Seen only by the app's own role";

describe("an API request runs as gym_tenant", () => {
  let env: Awaited<ReturnType<typeof setup>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  const id: Record<"seen" | "hidden", number> = { seen: 0, hidden: 0 };

  beforeAll(async () => {
    env = await setup();
    const alpha = await makeOrganisation(env.db, { name: "Alpha", multi_gym: true });
    id.seen = (await makeGym(env.db, alpha.id, "Seen by every role")).id;
    id.hidden = (await makeGym(env.db, alpha.id, HIDDEN)).id;
    const user = await makeUser(env.db, {
      name: "Alpha Admin",
      email: "admin@example.com",
      password_hash: await hashPassword("tenant role passphrase"),
      current_organisation_id: alpha.id,
    });
    await addStaff(env.db, user.id, alpha.id, "admin");
    admin = await signedIn(env.api, env.db, "admin@example.com", "tenant role passphrase");
    await hideGymsFromTenants(env.db, HIDDEN);
  });
  afterAll(() => env?.close());

  it("reads as gym_tenant: a row its policy hides is not listed, nor found by id", async () => {
    const list = await admin.call("GET", "/api/gyms");
    expect(list.status).toBe(200);
    expect(list.json.data.data.map((g: { name: string }) => g.name)).toEqual(["Seen by every role"]);
    expect((await admin.call("GET", `/api/gyms/${id.seen}`)).status).toBe(200);
    expect((await admin.call("GET", `/api/gyms/${id.hidden}`)).status).toBe(404);
  });

  it("writes as gym_tenant, in the request's transaction: a row its policy hides cannot be changed", async () => {
    expect((await admin.call("PUT", `/api/gyms/${id.seen}`, { name: "Seen by every role" })).status).toBe(200);
    expect((await admin.call("PUT", `/api/gyms/${id.hidden}`, { name: "Taken over" })).status).toBe(404);
  });

  it("leaves the app's own role (sign-in, the seed, migrations) outside the policies", async () => {
    const { gyms } = await import("../../server/core/db/schema");
    expect((await env.db.select().from(gyms)).map((g) => g.name).sort()).toEqual(["Seen by every role", HIDDEN].sort());
  });
});
