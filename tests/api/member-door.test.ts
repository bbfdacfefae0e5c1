import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { access_control_credentials, access_control_integrations, access_control_places } from "../../server/core/db/schema";
import { addMember, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * Issue 32: a member's own pages said "Your door access is on." whenever the membership's rule let them in, though
 * they held no door credential and their gym had no door system. GET /api/me/membership's `door` and
 * GET /api/me/active-subscription's `access` now say whether a door can let them in too.
 */
let env: Awaited<ReturnType<typeof setup>>;
const PASSWORD = "a door passphrase";
let org: { id: number };
let gym: { id: number };
let member: { id: number };
const day = 24 * 3600 * 1000;

beforeAll(async () => {
  env = await setup();
  org = await makeOrganisation(env.db, { name: "Door Facts Gyms" });
  gym = await makeGym(env.db, org.id, "Grey Lynn");
  const price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 1999, billing_frequency: "weekly" });
  const now = Date.now();
  const make = async (name: string, email: string, start: number, extra: { pause_start_at?: Date; pause_end_at?: Date } = {}) => {
    const u = await makeUser(env.db, { name, email, password_hash: await hashPassword(PASSWORD), current_organisation_id: org.id });
    const s = await makeSubscription(env.db, price, u.id, gym.id, {
      current_period_start: new Date(start),
      current_period_end: new Date(start + 7 * day),
      ...extra,
    });
    await addMember(env.db, u.id, org.id, gym.id, { latest_subscription_id: s.id });
    return u;
  };
  member = await make("Dora Door", "dora@example.com", now - 3 * day);
  await make("Paula Paused", "paula@example.com", now - 3 * day, { pause_start_at: new Date(now - day), pause_end_at: new Date(now + 20 * day) });
  // Another organisation's member, with a credential and a door system: none of it is Dora's.
  const other = await makeOrganisation(env.db, { name: "Elsewhere" });
  const otherGym = await makeGym(env.db, other.id, "Elsewhere Central");
  const stranger = await makeUser(env.db, { name: "Sam Stranger", email: "sam.stranger@example.com" });
  await addMember(env.db, stranger.id, other.id, otherGym.id);
  await env.db.insert(access_control_credentials).values({ organisation_id: other.id, user_id: member.id, provider: "kisi", kind: "card", status: "active" });
  await env.db.insert(access_control_integrations).values({ organisation_id: other.id, integration_type: "kisi" });
});
afterAll(() => env.close());

async function doorFacts(email: string) {
  const b = await signedIn(env.api, env.db, email, PASSWORD);
  const mine = await b.call("GET", "/api/me/membership");
  const active = await b.call("GET", "/api/me/active-subscription");
  expect(mine.status).toBe(200);
  expect(active.status).toBe(200);
  // The membership page and the welcome say the same.
  expect(active.json.data.access).toEqual(mine.json.data.door);
  return mine.json.data.door;
}

describe("a member's door facts", () => {
  it("say the rule lets them in, with no credential and no door system yet", async () => {
    expect(await doorFacts("dora@example.com")).toEqual({
      allowed: true,
      reason: "The membership is active and paid up.",
      has_credentials: false,
      door_system: false,
    });
  });

  it("count only their active credentials here, and a door system only once their gym is linked to a place", async () => {
    await env.db
      .insert(access_control_credentials)
      .values({ organisation_id: org.id, user_id: member.id, gym_id: gym.id, provider: "kisi", kind: "card", status: "suspended" });
    expect(await doorFacts("dora@example.com")).toMatchObject({ has_credentials: false, door_system: false });
    await env.db
      .update(access_control_credentials)
      .set({ status: "active" })
      .where(and(eq(access_control_credentials.organisation_id, org.id), eq(access_control_credentials.user_id, member.id)));
    expect(await doorFacts("dora@example.com")).toMatchObject({ has_credentials: true, door_system: false });
    // Connected, but Grey Lynn's doors are not in it yet.
    await env.db.insert(access_control_integrations).values({ organisation_id: org.id, integration_type: "kisi" });
    expect(await doorFacts("dora@example.com")).toMatchObject({ has_credentials: true, door_system: false });
    await env.db.insert(access_control_places).values({ organisation_id: org.id, gym_id: gym.id, place_id: "4242", name: "Grey Lynn" });
    expect(await doorFacts("dora@example.com")).toEqual({
      allowed: true,
      reason: "The membership is active and paid up.",
      has_credentials: true,
      door_system: true,
    });
  });

  it("keep the rule's reason when it keeps them out", async () => {
    expect(await doorFacts("paula@example.com")).toEqual({
      allowed: false,
      reason: "The membership is paused.",
      has_credentials: false,
      door_system: true,
    });
  });
});
