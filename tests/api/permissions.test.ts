import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { can, CAPABILITIES, PERMISSIONS, type Capability, type Role } from "../../server/core/permissions";
import { currentUser } from "../../server/core/current-user";
import { hashPassword } from "../../server/core/auth/password";
import type { Membership } from "../../server/core/db/memberships";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * The permission table (server/core/permissions.ts), a test per cell: first the table's own rule for each
 * role in its own gym and in another gym, then each cell that has an API route today, exercised through it.
 */

const ROLES: Role[] = ["organisation_admin", "gym_admin", "personal_trainer"];
const NORTH = 1;
const SOUTH = 2;

/** A user as the session read would make them: `role` at North only (or every gym for an organisation admin). */
function userOf(role: Role) {
  const orgRole = role === "organisation_admin" ? "admin" : "personal_trainer";
  const gymRole = role === "personal_trainer" ? "personal_trainer" : "admin";
  const gyms = role === "organisation_admin" ? [NORTH, SOUTH].map((id) => ({ id, name: `Gym ${id}`, role: "admin" as const })) : [{ id: NORTH, name: "North", role: gymRole }];
  const membership = { id: 7, name: "Alpha", multi_gym: true, calendar_and_messaging: false, role: orgRole, home_gym_id: null, default_payment_type_id: null, gyms, payment_types: [], unread_messages: 0 } as unknown as Membership;
  return currentUser({ id: 1, current_organisation_id: 7, current_gym_id: NORTH } as never, [membership]);
}

describe("the permission table, cell by cell", () => {
  for (const capability of CAPABILITIES) {
    for (const role of ROLES) {
      const granted = (PERMISSIONS[capability] as readonly Role[]).includes(role);
      it(`${capability} × ${role}: ${granted ? "allowed" : "refused"} in their gym${role === "organisation_admin" ? " and every other" : ", refused elsewhere"}`, () => {
        const user = userOf(role);
        expect(can(user, capability, NORTH)).toBe(granted);
        expect(can(user, capability, SOUTH)).toBe(granted && role === "organisation_admin");
        // A record of no gym belongs to the organisation as a whole.
        expect(can(user, capability, null)).toBe(granted && role === "organisation_admin");
      });
    }
  }

  it("writes down the table the decision note shows", () => {
    expect(PERMISSIONS).toEqual({
      "members.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
      "memberships.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
      "visits.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
      "visits.write": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
      "members.write": ["organisation_admin", "gym_admin", "api_key"],
      "members.delete": ["organisation_admin", "gym_admin", "api_key"],
      "members.export": ["organisation_admin", "gym_admin"],
      "money.read": ["organisation_admin", "gym_admin", "api_key"],
      "money.write": ["organisation_admin", "gym_admin", "api_key"],
      "subscriptions.write": ["organisation_admin", "gym_admin", "api_key"],
      "offerings.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
      "offerings.write": ["organisation_admin", "gym_admin", "api_key"],
      "calendar.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
      "calendar.write": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
      "classes.read": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
      "classes.write": ["organisation_admin", "gym_admin", "api_key"],
      "classes.book": ["organisation_admin", "gym_admin", "personal_trainer", "api_key"],
      "gyms.read": ["organisation_admin", "gym_admin", "api_key"],
      "gyms.write": ["organisation_admin", "gym_admin"],
      "gyms.create": ["organisation_admin"],
      "settings.write": ["organisation_admin"],
      "staff.read": ["organisation_admin", "gym_admin"],
      "staff.write": ["organisation_admin", "gym_admin"],
      "integrations.write": ["organisation_admin"],
    } satisfies Record<Capability, Role[]>);
  });
});

describe("the permission table through the API", () => {
  let env: Awaited<ReturnType<typeof setup>>;
  let api: ReturnType<typeof createApi>;
  const id: Record<string, number> = {};
  const PASSWORD = "permission table passphrase";
  const signIn = (email: string) => signedIn(api, env.db, email, PASSWORD);
  const as: Record<string, Awaited<ReturnType<typeof signIn>>> = {};

  beforeAll(async () => {
    env = await setup();
    api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
    const db = env.db;
    const hash = await hashPassword(PASSWORD);
    const alpha = await makeOrganisation(db, { name: "Alpha", multi_gym: true });
    const north = await makeGym(db, alpha.id, "North");
    const south = await makeGym(db, alpha.id, "South");
    Object.assign(id, { north: north.id, south: south.id });
    const price = await makePrice(db, await makeOffering(db, alpha.id, { name: "Anytime" }), { amount: 2500 });
    const member = async (key: string, gymId: number) => {
      const u = await makeUser(db, { name: `Member ${key}`, email: `${key}@example.com` });
      await addMember(db, u.id, alpha.id, gymId);
      await makePayment(db, await makeSubscription(db, price, u.id, gymId), { amount: 2500 });
      id[key] = u.id;
    };
    for (const key of ["north", "south"]) await member(`${key}_member`, id[key]);
    for (const who of ["org_admin", "gym_admin", "trainer", "mixed"]) for (const g of ["north", "south"]) await member(`${g}_deletable_by_${who}`, id[g]);

    const staff = async (email: string, orgRole: "admin" | "personal_trainer", gyms: { gymId: number; role: "admin" | "personal_trainer" }[]) => {
      const u = await makeUser(db, { name: email, email, password_hash: hash, current_organisation_id: alpha.id, current_gym_id: north.id });
      await addStaff(db, u.id, alpha.id, orgRole, gyms);
    };
    await staff("org_admin@example.com", "admin", []);
    await staff("gym_admin@example.com", "personal_trainer", [{ gymId: north.id, role: "admin" }]);
    await staff("trainer@example.com", "personal_trainer", [{ gymId: north.id, role: "personal_trainer" }]);
    // Gym admin at North, trainer at South: each gym's rights, not the best of both.
    await staff("mixed@example.com", "personal_trainer", [
      { gymId: north.id, role: "admin" },
      { gymId: south.id, role: "personal_trainer" },
    ]);
    for (const who of ["org_admin", "gym_admin", "trainer", "mixed"]) as[who] = await signIn(`${who}@example.com`);
  });
  afterAll(() => env?.close());

  const profile = (name: string) => ({ name, email: `${name.toLowerCase().replace(/\W/g, ".")}@example.com`, email_notifications: "on" });

  /** [who, gym of the member, expected status] for each cell, in the user's gym and the other gym. */
  const WHO = ["org_admin", "gym_admin", "trainer", "mixed"] as const;
  const expected: Record<string, Record<(typeof WHO)[number], [north: number, south: number]>> = {
    "members.read": { org_admin: [200, 200], gym_admin: [200, 403], trainer: [200, 403], mixed: [200, 200] },
    "members.write": { org_admin: [200, 200], gym_admin: [200, 403], trainer: [403, 403], mixed: [200, 403] },
    "members.delete": { org_admin: [200, 200], gym_admin: [200, 403], trainer: [403, 403], mixed: [200, 403] },
    "money.read": { org_admin: [200, 200], gym_admin: [200, 403], trainer: [403, 403], mixed: [200, 403] },
  };

  for (const who of WHO) {
    it(`members.read × ${who}: a member's profile, visits and door credentials`, async () => {
      const [n, s] = expected["members.read"][who];
      // A member's classes need classes.read too, which every member reader holds (issue 34).
      for (const path of ["/api/members/:id", "/api/users/:id/visits", "/api/members/:id/access-control-credentials", "/api/members/:id/weekly-visits", "/api/members/:id/classes"]) {
        expect((await as[who].call("GET", path.replace(":id", String(id.north_member)))).status, path).toBe(n);
        expect((await as[who].call("GET", path.replace(":id", String(id.south_member)))).status, path).toBe(s);
      }
    });

    it(`members.write × ${who}: edit a member and upload a photo`, async () => {
      const [n, s] = expected["members.write"][who];
      expect((await as[who].call("PUT", `/api/members/${id.north_member}`, profile(`North ${who}`))).status).toBe(n);
      expect((await as[who].call("PUT", `/api/members/${id.south_member}`, profile(`South ${who}`))).status).toBe(s);
      const photo = new FormData();
      photo.set("file", new Blob(["not an image"], { type: "image/png" }), "x.png");
      // Allowed: the file is then judged (422, not an image); refused: 403 before it is read.
      expect((await as[who].call("POST", `/api/members/${id.north_member}/profile-picture`, photo)).status).toBe(n === 200 ? 422 : 403);
    });

    it(`members.delete × ${who}`, async () => {
      const [n, s] = expected["members.delete"][who];
      expect((await as[who].call("DELETE", `/api/members/${id[`north_deletable_by_${who}`]}`)).status).toBe(n);
      expect((await as[who].call("DELETE", `/api/members/${id[`south_deletable_by_${who}`]}`)).status).toBe(s);
    });

    it(`money.read × ${who}: payments, price changes, cost per visit, revenue`, async () => {
      const [n, s] = expected["money.read"][who];
      for (const path of ["/api/users/:id/payments", "/api/users/:id/price-change-history", "/api/members/:id/weekly-cost-per-visit", "/api/members/:id/subscription-periods"]) {
        expect((await as[who].call("GET", path.replace(":id", String(id.north_member)))).status, path).toBe(n);
        expect((await as[who].call("GET", path.replace(":id", String(id.south_member)))).status, path).toBe(s);
      }
      // The dashboard, for the current gym (North): revenue figures only for those who may see money there.
      expect((await as[who].call("GET", "/api/cost-and-visit-breakdown")).status).toBe(n);
      const stats = await as[who].call("GET", "/api/stats");
      expect(stats.status).toBe(200);
      expect(stats.json.data.revenue_this_month === null).toBe(n === 403);
      const dashboard = await as[who].call("GET", "/api/dashboard");
      expect(dashboard.status).toBe(200);
      expect(dashboard.json.data.costs === null).toBe(n === 403);
      expect(dashboard.json.data.stats.revenue_this_month === null).toBe(n === 403);
    });
  }

  it("webhook calls and endpoints: the organisation's, so only those who see money in every gym", async () => {
    for (const [who, status] of [["org_admin", 200], ["gym_admin", 403], ["trainer", 403], ["mixed", 403]] as const) {
      expect((await as[who].call("GET", "/api/webhook-calls")).status, who).toBe(status);
      expect((await as[who].call("GET", "/api/webhooks")).status, who).toBe(status);
      expect((await as[who].call("POST", "/api/webhook-calls/2147483647/replay")).status, who).toBe(status === 200 ? 404 : 403);
    }
  });

  it("members.export: admins of the gym only", async () => {
    expect((await as.org_admin.call("POST", "/api/members/export", { gym: "all" })).status).toBe(200);
    expect((await as.gym_admin.call("POST", "/api/members/export", {})).status).toBe(200);
    expect((await as.trainer.call("POST", "/api/members/export", {})).status).toBe(403);
    expect((await as.mixed.call("POST", "/api/members/export", { gym: id.north })).status).toBe(200);
    expect((await as.mixed.call("POST", "/api/members/export", { gym: id.south })).status).toBe(403);
  });

  it("search finds only members of the gyms the user may read", async () => {
    const names = async (who: string) => (await as[who].call("POST", "/api/search", { query: "member" })).json.data.data.map((h: { name: string }) => h.name);
    expect((await names("org_admin")).some((n: string) => n.startsWith("Member south"))).toBe(true);
    expect((await names("trainer")).every((n: string) => n.startsWith("Member north"))).toBe(true);
    expect((await names("trainer")).length).toBeGreaterThan(0);
  });

  it("tells the pages what the user may do: /me's permissions and a member's `can`", async () => {
    const me = async (who: string) => (await as[who].call("GET", "/api/me")).json.data.permissions;
    expect(await me("org_admin")).toEqual(CAPABILITIES);
    expect(await me("trainer")).toEqual(["members.read", "memberships.read", "visits.read", "visits.write", "offerings.read", "calendar.read", "calendar.write", "classes.read", "classes.book"]);
    const member = (await as.mixed.call("GET", `/api/members/${id.south_member}`)).json.data;
    expect(member.can).toEqual({ edit: false, delete: false, see_money: false, change_membership: false, take_money: false });
  });
});
