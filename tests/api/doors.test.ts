import { eq } from "drizzle-orm";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { syncDoorAccess } from "../../server/billing/doors";
import { access_control_credentials, access_control_integrations, gyms, sandbox_door_members, visits } from "../../server/core/db/schema";
import { sealSecret } from "../../server/core/crypto/secrets";
import { sandboxProviders } from "../../server/core/providers/registry";
import { kisiSignature } from "../../server/doors/events";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxDoors } from "../../server/core/providers/doors/sandbox";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn, signingSecrets } from "./harness";

/**
 * The door system (issue 15): connected for the organisation, a place linked to each gym, the doors that count visits,
 * and door events from the door system recording visits (refused ones too), once each.
 */
const PASSWORD = "doors passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let gymAdmin: Awaited<ReturnType<typeof signedIn>>;
let org: { id: number };
let north: { id: number };
let south: { id: number };
let inside: { id: number };
let outside: { id: number };

const base = () => `/api/organisations/${org.id}/access-control`;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  org = await makeOrganisation(env.db, { name: "Doors Ltd", multi_gym: true });
  north = await makeGym(env.db, org.id, "North");
  south = await makeGym(env.db, org.id, "South");
  await env.db.update(gyms).set({ tracks_visits: true }).where(eq(gyms.id, north.id));
  const hash = await hashPassword(PASSWORD);
  const a = await makeUser(env.db, { name: "Door Admin", email: "doors.admin@example.com", password_hash: hash });
  await addStaff(env.db, a.id, org.id, "admin");
  const g = await makeUser(env.db, { name: "Door Gym Admin", email: "doors.gymadmin@example.com", password_hash: hash });
  await addStaff(env.db, g.id, org.id, "personal_trainer", [{ gymId: north.id, role: "admin" }]);
  inside = await makeUser(env.db, { name: "Ina Inside", email: "ina@example.com" });
  await addMember(env.db, inside.id, org.id, north.id);
  outside = await makeUser(env.db, { name: "Otto Outside", email: "otto@example.com" });
  await addMember(env.db, outside.id, org.id, north.id);
  // Ina's access is on at the door system; Otto's is off (a lapsed membership).
  await sandboxDoors(env.db).setAccess({ organisationId: org.id, email: "ina@example.com", name: "Ina Inside" }, true);
  await sandboxDoors(env.db).setAccess({ organisationId: org.id, email: "otto@example.com", name: "Otto Outside" }, true);
  await sandboxDoors(env.db).setAccess({ organisationId: org.id, email: "otto@example.com", name: "Otto Outside" }, false);
  admin = await signedIn(api, env.db, "doors.admin@example.com", PASSWORD);
  gymAdmin = await signedIn(api, env.db, "doors.gymadmin@example.com", PASSWORD);
});
afterAll(() => env?.close?.());

describe("the door system", () => {
  let frontDoor: { id: number; door_id: string };
  let staffDoor: { id: number; door_id: string };

  it("is connected by an organisation admin, and answers nothing before", async () => {
    expect((await admin.call("GET", `${base()}/integration`)).json.data).toMatchObject({ connected: false, doors: [] });
    expect((await admin.call("GET", `${base()}/places`)).status).toBe(409);
    expect((await gymAdmin.call("POST", `${base()}/integration`, { integration_type: "kisi" })).status).toBe(403);
    expect((await admin.call("POST", `${base()}/integration`, { integration_type: "other" })).status).toBe(422);
    const res = await admin.call("POST", `${base()}/integration`, { integration_type: "kisi" });
    expect(res.json.data).toMatchObject({ connected: true, integration_type: "kisi", mode: "sandbox" });
  });

  it("links a place to a gym, once, and lists its doors", async () => {
    const places = (await admin.call("GET", `${base()}/places`)).json.data.data;
    expect(places.map((p: { name: string; gym_id: number | null }) => [p.name, p.gym_id])).toEqual([
      ["North", null],
      ["South", null],
    ]);
    const northPlace = places[0].place_id;
    expect((await admin.call("POST", `/api/gyms/${north.id}/access-control/places`, { place_id: "999999" })).json.errors).toEqual({ place_id: ["Choose one of the door system's places"] });
    expect((await admin.call("POST", `/api/gyms/${north.id}/access-control/places`, { place_id: northPlace })).status).toBe(201);
    expect((await admin.call("POST", `/api/gyms/${south.id}/access-control/places`, { place_id: northPlace })).json.errors).toEqual({ place_id: ["North is linked to North already"] });
    expect((await gymAdmin.call("POST", `/api/gyms/${south.id}/access-control/places`, { place_id: places[1].place_id })).status).toBe(403);
    const doors = (await admin.call("GET", `${base()}/places/${northPlace}/doors`)).json.data.data;
    expect(doors.map((d: { name: string; tracks_visits: boolean }) => [d.name, d.tracks_visits])).toEqual([
      ["Front door", false],
      ["Staff entrance", false],
    ]);
    [frontDoor, staffDoor] = doors;
  });

  it("lets a gym admin choose which door counts visits", async () => {
    const res = await gymAdmin.call("POST", `${base()}/integration`, { id: frontDoor.id, tracks_visits: true });
    expect(res.status).toBe(200);
    expect(res.json.data.doors).toEqual(
      expect.arrayContaining([{ id: frontDoor.id, integration_type: "kisi", gym_id: north.id, place_id: expect.any(String), integration: { id: frontDoor.id, name: "Front door", door_id: frontDoor.door_id, tracks_visits: true } }]),
    );
  });

  it("records a visit when a member opens a door that counts, a refused one when the door stays shut, and nothing for other doors", async () => {
    const door = admin;
    const ina = await door.call("POST", `/api/sandbox/kisi/locks/${frontDoor.door_id}/unlock`, { email: "ina@example.com" });
    expect(ina.json.data).toMatchObject({ door: "Front door", opened: true, recorded: true, reason: "visit" });
    const otto = await door.call("POST", `/api/sandbox/kisi/locks/${frontDoor.door_id}/unlock`, { email: "otto@example.com" });
    expect(otto.json.data).toMatchObject({ opened: false, recorded: true, reason: "refused visit" });
    const staffOnly = await door.call("POST", `/api/sandbox/kisi/locks/${staffDoor.door_id}/unlock`, { email: "ina@example.com" });
    expect(staffOnly.json.data).toMatchObject({ opened: true, recorded: false, reason: "this door does not count visits" });
    const rows = await env.db.select({ user_id: visits.user_id, successful: visits.successful, gym_id: visits.gym_id }).from(visits).where(eq(visits.organisation_id, org.id));
    expect(rows).toEqual(expect.arrayContaining([{ user_id: inside.id, successful: true, gym_id: north.id }, { user_id: outside.id, successful: false, gym_id: north.id }]));
    expect(rows).toHaveLength(2);
    const list = (await admin.call("GET", `/api/users/${outside.id}/visits`)).json;
    expect(JSON.stringify(list)).toContain('"successful":false');
  });

  it("opens its test panel only to staff with gym rights at the lock's own gym (issue 29 L6)", async () => {
    const s = await makeUser(env.db, { name: "South Gym Admin", email: "doors.south@example.com", password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, s.id, org.id, "personal_trainer", [{ gymId: south.id, role: "admin" }]);
    const southAdmin = await signedIn(api, env.db, "doors.south@example.com", PASSWORD);
    const places = (await admin.call("GET", `${base()}/places`)).json.data.data as { place_id: string; gym_id: number | null }[];
    const northPlace = places.find((p) => p.gym_id === north.id)!.place_id;
    const unlinked = places.find((p) => p.gym_id === null)!.place_id;
    const before = (await env.db.select().from(visits).where(eq(visits.organisation_id, org.id))).length;
    expect((await southAdmin.call("GET", `/api/sandbox/kisi/places/${northPlace}`)).status).toBe(403);
    expect((await southAdmin.call("POST", `/api/sandbox/kisi/locks/${frontDoor.door_id}/unlock`, { email: "ina@example.com" })).status).toBe(403);
    expect((await env.db.select().from(visits).where(eq(visits.organisation_id, org.id))).length).toBe(before);
    // North's gym admin at North's doors; a place no gym has is the organisation's, for its admins.
    expect((await gymAdmin.call("GET", `/api/sandbox/kisi/places/${northPlace}`)).status).toBe(200);
    expect((await gymAdmin.call("GET", `/api/sandbox/kisi/places/${unlinked}`)).status).toBe(403);
    expect((await admin.call("GET", `/api/sandbox/kisi/places/${unlinked}`)).status).toBe(200);
  });

  it("takes the door system's webhook only signed, and an event delivered twice once", async () => {
    const event = JSON.stringify({ id: "evt_twice", action: "unlock", object_type: "Lock", object_id: frontDoor.door_id, success: true, actor_email: "ina@example.com", created_at: "2026-11-20T06:00:00Z" });
    const hook = browser(api);
    expect((await hook.call("POST", "/api/webhooks/kisi", event, { "x-kisi-signature": "0".repeat(64) })).status).toBe(400);
    const signed = { "x-kisi-signature": kisiSignature(event, (await signingSecrets(env)).kisi), "content-type": "application/json" };
    expect((await hook.call("POST", "/api/webhooks/kisi", event, signed)).json.data).toEqual({ recorded: true, reason: "visit" });
    expect((await hook.call("POST", "/api/webhooks/kisi", event, signed)).json.data).toEqual({ recorded: false, reason: "already recorded" });
  });

  it("answers another organisation's paths as not found", async () => {
    expect((await gymAdmin.call("POST", `/api/sandbox/kisi/locks/999999/unlock`, { email: "ina@example.com" })).status).toBe(404);
    // Ids past PostgreSQL's integer are simply not there (found by the fuzz: they were a 500).
    expect((await admin.call("GET", "/api/sandbox/kisi/places/99999999999999999999")).status).toBe(404);
    expect((await admin.call("POST", "/api/sandbox/kisi/locks/99999999999999999999/unlock", { email: "ina@example.com" })).status).toBe(404);
    const other = await makeOrganisation(env.db, { name: "Other Doors" });
    const theirGym = await makeGym(env.db, other.id, "Theirs");
    expect((await admin.call("GET", `/api/organisations/${other.id}/access-control/integration`)).status).toBe(404);
    expect((await admin.call("POST", `/api/gyms/${theirGym.id}/access-control/places`, { place_id: "1" })).status).toBe(404);
  });
});

describe("an organisation with its own Kisi account", () => {
  const KISI = "https://api.kisi.io";
  const ownKey = { reqheaders: { authorization: "KISI-LOGIN own-kisi-key" } };
  let own: { id: number };
  let kim: { id: number; email: string };
  let ownAdmin: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    nock.disableNetConnect();
    own = await makeOrganisation(env.db, { name: "Own Kisi Ltd" });
    const gym = await makeGym(env.db, own.id, "Own Gym");
    const a = await makeUser(env.db, { name: "Own Admin", email: "own.admin@example.com", password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, a.id, own.id, "admin");
    kim = await makeUser(env.db, { name: "Kim Kisi", email: "kim.kisi@example.com" });
    const price = await makePrice(env.db, await makeOffering(env.db, own.id, { name: "Anytime" }), { amount: 2500 });
    const s = await makeSubscription(env.db, price, kim.id, gym.id);
    await addMember(env.db, kim.id, own.id, gym.id, { latest_subscription_id: s.id });
    await env.db.insert(access_control_integrations).values({ organisation_id: own.id, integration_type: "kisi", api_key: sealSecret("own-kisi-key") });
    ownAdmin = await signedIn(api, env.db, "own.admin@example.com", PASSWORD);
  });
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it("reads and recreates a member's door login at that account, not the server's", async () => {
    nock(KISI, ownKey).get("/members").query({ query: kim.email }).reply(200, [{ id: 41, access_enabled: false, user: { email: kim.email } }]);
    const read = (await ownAdmin.call("GET", `/api/members/${kim.id}/access-control`)).json.data;
    expect(read.door).toEqual({ provider: "kisi", mode: "live", known: true, access_enabled: false, error: null });
    nock(KISI, ownKey).get("/members").query(true).times(2).reply(200, [{ id: 41, access_enabled: false, user: { email: kim.email } }]);
    const patched = nock(KISI, ownKey).patch("/members/41", { member: { access_enabled: true } }).reply(200, { id: 41, access_enabled: true });
    expect((await ownAdmin.call("POST", `/api/users/${kim.id}/recreate-kisi-login`)).status).toBe(200);
    expect(patched.isDone()).toBe(true);
    expect(await env.db.select().from(sandbox_door_members).where(eq(sandbox_door_members.email, kim.email))).toEqual([]);
  });

  it("has the billing run's door sync let a settled member back in at that account", async () => {
    await env.db.insert(access_control_credentials).values({ organisation_id: own.id, user_id: kim.id, provider: "kisi", kind: "card", status: "suspended" });
    nock(KISI, ownKey).get("/members").query(true).reply(200, []);
    const added = nock(KISI, ownKey).post("/members", { member: { name: "Kim Kisi", email: kim.email, access_enabled: true } }).reply(201, { id: 42, access_enabled: true });
    const report = await syncDoorAccess(env.db, sandboxProviders(env.db), new Date());
    expect(report).toMatchObject({ restored: 1, failed: 0 });
    expect(added.isDone()).toBe(true);
    const [credential] = await env.db.select().from(access_control_credentials).where(eq(access_control_credentials.user_id, kim.id));
    expect(credential.status).toBe("active");
    expect(await env.db.select().from(sandbox_door_members).where(eq(sandbox_door_members.email, kim.email))).toEqual([]);
  });
});
