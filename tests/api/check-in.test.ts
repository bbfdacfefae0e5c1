import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { formatMemberCode } from "../../domain/member-code";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { daily_visits, organisation_users, visits } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * Issue 32, "Check-in": staff at a gym find a member by name, e-mail, mobile or code, see whether the access rule
 * lets them in and why, and check them in: a visit like a door's, counted as visits are. The kiosk takes a member's
 * own code and says only their first name and whether they are in. The clock: Wednesday 2 December 2026, 10 am.
 */
const PASSWORD = "check in passphrase";
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
const id: Record<string, number> = {};
const as: Record<string, Awaited<ReturnType<typeof signedIn>>> = {};

const codeOf = async (userId: number) =>
  (await env.db.select({ code: organisation_users.member_code }).from(organisation_users).where(eq(organisation_users.user_id, userId)))[0].code;
const visitsOf = (userId: number) => env.db.select().from(visits).where(eq(visits.user_id, userId));

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW });
  const db = env.db;
  const hash = await hashPassword(PASSWORD);
  const org = await makeOrganisation(db, { name: "Check-in Gyms", multi_gym: true });
  const north = await makeGym(db, org.id, "North");
  const south = await makeGym(db, org.id, "South");
  Object.assign(id, { org: org.id, north: north.id, south: south.id });
  const weekly = await makePrice(db, await makeOffering(db, org.id, { name: "Anytime", all_gyms_access: true }), {
    amount: 2_500,
    billing_frequency: "weekly",
  });
  const member = async (key: string, name: string, gymId: number, extra: Parameters<typeof makeSubscription>[4] = {}) => {
    const u = await makeUser(db, {
      name,
      email: `${key}@example.com`,
      mobile_number: key === "active" ? "021 555 0199" : null,
      password_hash: hash,
      current_organisation_id: org.id,
    });
    const s = await makeSubscription(db, weekly, u.id, gymId, {
      billing_anchor: "2026-11-02",
      current_period_start: startOfLocalDay("2026-11-30"),
      current_period_end: startOfLocalDay("2026-12-07"),
      ...extra,
    });
    await addMember(db, u.id, org.id, gymId, { latest_subscription_id: s.id });
    id[key] = u.id;
    return s;
  };
  await member("active", "Ava Active", north.id);
  await member("paused", "Paul Paused", north.id, { pause_start_at: startOfLocalDay("2026-11-30"), pause_end_at: startOfLocalDay("2026-12-14") });
  const owing = await member("owing", "Olive Owing", south.id, { grace_period_ends_at: startOfLocalDay("2026-12-06") });
  await makePayment(db, owing, {
    amount: 2_500,
    status: "failed",
    error_status: "insufficient_funds",
    period_start_at: startOfLocalDay("2026-11-30"),
    period_end_at: startOfLocalDay("2026-12-07"),
  });

  const staff = async (key: string, orgRole: "admin" | "personal_trainer", gyms: { gymId: number; role: "admin" | "personal_trainer" }[]) => {
    const u = await makeUser(db, {
      name: `${key} staff`,
      email: `${key}.staff@example.com`,
      password_hash: hash,
      current_organisation_id: org.id,
      current_gym_id: gyms[0]?.gymId ?? north.id,
    });
    await addStaff(db, u.id, org.id, orgRole, gyms);
    as[key] = await signedIn(api, env.db, u.email, PASSWORD);
    id[`${key}_staff`] = u.id;
  };
  await staff("admin", "admin", []);
  await staff("trainer", "personal_trainer", [{ gymId: north.id, role: "personal_trainer" }]);
  as.member = await signedIn(api, env.db, "active@example.com", PASSWORD);

  // Another organisation's member, whom nobody here may find or check in.
  const other = await makeOrganisation(db, { name: "Elsewhere" });
  const elsewhere = await makeGym(db, other.id, "Elsewhere");
  const stranger = await makeUser(db, { name: "Ava Elsewhere", email: "stranger@example.com" });
  await addMember(db, stranger.id, other.id, elsewhere.id);
  id.stranger = stranger.id;
});
afterAll(() => env.close());

const find = (who: string, q: string) => as[who].call("GET", `/api/check-in/members?q=${encodeURIComponent(q)}`);

describe("finding a member at the desk", () => {
  it("finds members of every gym of the organisation by name, with the access rule's answer and what is owing", async () => {
    const res = await find("trainer", "o");
    expect(res.status).toBe(200);
    const olive = res.json.data.data.find((m: { name: string }) => m.name === "Olive Owing");
    expect(olive).toMatchObject({
      code: formatMemberCode(await codeOf(id.owing)),
      membership: { state: "grace_period", label: "Grace period" },
      allowed: true,
      reason: "A payment failed; the grace period lets them in until 6 Dec 2026.",
      owing: 2_500,
      // South is not the trainer's: they check Olive in, but take no money and open no page of hers.
      can: { take_payment: false, change: false, open: false },
    });
    expect((await find("trainer", "Ava")).json.data.data.map((m: { name: string }) => m.name)).toEqual(["Ava Active"]);
  });

  it("finds one member by their code, typed any way, and by mobile; blank finds nobody", async () => {
    const code = await codeOf(id.paused);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    for (const typed of [code, formatMemberCode(code).toLowerCase(), ` ${code.slice(0, 4)} ${code.slice(4)} `]) {
      const found = (await find("admin", typed)).json.data.data;
      expect(found.map((m: { name: string; allowed: boolean; reason: string }) => [m.name, m.allowed, m.reason])).toEqual([
        ["Paul Paused", false, "The membership is paused."],
      ]);
    }
    expect((await find("admin", "0215550199")).json.data.data.map((m: { name: string }) => m.name)).toEqual(["Ava Active"]);
    expect((await find("admin", "  ")).json.data.data).toEqual([]);
  });

  it("is staff's: a member is refused", async () => {
    expect((await find("member", "Ava")).status).toBe(403);
  });
});

describe("checking in", () => {
  it("records a successful visit at the staff member's gym, once for the same form, counted as visits are", async () => {
    const body = { user_id: id.active, key: "check-in-key-001" };
    const res = await as.trainer.call("POST", "/api/check-ins", body);
    expect(res.status).toBe(201);
    expect(res.json.data.visit).toMatchObject({ gym_id: id.north, successful: true, reason: null, source: "desk" });
    expect(res.json.data.member).toMatchObject({ name: "Ava Active", allowed: true });
    const again = await as.trainer.call("POST", "/api/check-ins", body);
    expect([again.status, again.json.data.repeated, again.json.data.visit.id]).toEqual([200, true, res.json.data.visit.id]);
    const rows = await visitsOf(id.active);
    expect(rows.map((v) => [v.successful, v.source, v.checked_in_by])).toEqual([[true, "desk", id.trainer_staff]]);
    const [{ visits_count }] = await env.db
      .select({ visits_count: organisation_users.visits_count })
      .from(organisation_users)
      .where(eq(organisation_users.user_id, id.active));
    expect(visits_count).toBe(1);
    const [day] = await env.db.select().from(daily_visits).where(eq(daily_visits.gym_id, id.north));
    expect(day.visits).toBe(1);
    // The result page reads it back.
    const shown = await as.trainer.call("GET", `/api/check-ins/${res.json.data.visit.id}`);
    expect(shown.json.data.visit.successful).toBe(true);
  });

  it("records a refused check-in with the rule's reason, and does not count it as a visit", async () => {
    const res = await as.admin.call("POST", "/api/check-ins", { user_id: id.paused, key: "check-in-key-002" });
    expect(res.status).toBe(201);
    expect(res.json.data.visit).toMatchObject({ successful: false, reason: "The membership is paused." });
    const [{ visits_count }] = await env.db
      .select({ visits_count: organisation_users.visits_count })
      .from(organisation_users)
      .where(eq(organisation_users.user_id, id.paused));
    expect(visits_count).toBe(0);
  });

  it("refuses another organisation's member, nobody, and a bad form, writing nothing", async () => {
    expect((await as.admin.call("POST", "/api/check-ins", { user_id: id.stranger, key: "check-in-key-003" })).status).toBe(404);
    const bad = await as.admin.call("POST", "/api/check-ins", { user_id: "x", key: "" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.errors).sort()).toEqual(["key", "user_id"]);
    expect(await visitsOf(id.stranger)).toHaveLength(0);
  });

  it("shows a check-in only to staff of its gym", async () => {
    await as.admin.call("POST", `/api/gyms/${id.south}/switch`);
    const south = await as.admin.call("POST", "/api/check-ins", { user_id: id.owing, key: "check-in-key-004" });
    expect(south.json.data.visit.gym_id).toBe(id.south);
    expect((await as.trainer.call("GET", `/api/check-ins/${south.json.data.visit.id}`)).status).toBe(403);
    await as.admin.call("POST", `/api/gyms/${id.north}/switch`);
  });
});

describe("the kiosk", () => {
  it("checks a member in by their own code and answers only their first name and whether they are in", async () => {
    const res = await as.trainer.call("POST", "/api/check-ins/kiosk", { code: formatMemberCode(await codeOf(id.active)), key: "kiosk-key-0001" });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({ first_name: "Ava", allowed: true, reason: null, repeated: false });
    const refused = await as.trainer.call("POST", "/api/check-ins/kiosk", { code: await codeOf(id.paused), key: "kiosk-key-0002" });
    expect(refused.json.data).toEqual({ first_name: "Paul", allowed: false, reason: "Please see the front desk.", repeated: false });
    expect((await visitsOf(id.active)).filter((v) => v.source === "kiosk").map((v) => v.checked_in_by)).toEqual([null]);
  });

  it("refuses a code that is not one of ours, or another organisation's", async () => {
    const strangerCode = await codeOf(id.stranger);
    for (const code of ["ZZZZZZZZ", strangerCode, "not a code"]) {
      const res = await as.trainer.call("POST", "/api/check-ins/kiosk", { code, key: "kiosk-key-0003" });
      expect([res.status, res.json.errors.code]).toEqual([422, ["That code is not one of ours: check it, or ask at the desk"]]);
    }
  });
});

describe("kiosk mode", () => {
  it("turns a staff session into the entrance's kiosk, which answers nothing but the kiosk until it signs out", async () => {
    const kiosk = await signedIn(api, env.db, "trainer.staff@example.com", PASSWORD);
    const started = await kiosk.call("POST", "/api/kiosk");
    expect([started.status, started.json.data.gym]).toEqual([200, { id: id.north, name: "North" }]);
    expect((await kiosk.call("GET", "/api/me")).json.data.kiosk).toBe(true);
    expect((await kiosk.call("GET", "/api/kiosk")).json.data).toEqual({ gym: { id: id.north, name: "North" }, kiosk: true });
    // The back-office's data is out of reach: members, the desk's search and check-in, the dashboard.
    for (const [method, path] of [
      ["GET", "/api/members"],
      ["GET", `/api/members/${id.active}`],
      ["GET", "/api/check-in/members?q=Ava"],
      ["GET", "/api/stats"],
    ] as const) {
      const res = await kiosk.call(method, path);
      expect([res.status, res.json.error], path).toEqual([403, "kiosk_mode"]);
    }
    expect((await kiosk.call("POST", "/api/check-ins", { user_id: id.active, key: "kiosk-desk-001" })).json.error).toBe("kiosk_mode");
    const res = await kiosk.call("POST", "/api/check-ins/kiosk", { code: await codeOf(id.active), key: "kiosk-key-0009" });
    expect([res.status, res.json.data.first_name]).toEqual([201, "Ava"]);
    // The trainer's other sessions are not kiosks.
    expect((await as.trainer.call("GET", "/api/members")).status).toBe(200);
    expect((await as.trainer.call("GET", "/api/me")).json.data.kiosk).toBe(false);
    // Signing out ends it: the back-office comes back only with a staff member signing in again.
    expect((await kiosk.call("POST", "/api/logout")).status).toBeLessThan(300);
    expect((await kiosk.call("POST", "/api/check-ins/kiosk", { code: await codeOf(id.active), key: "kiosk-key-0010" })).status).toBe(401);
  });

  it("is started by staff only", async () => {
    expect((await as.member.call("POST", "/api/kiosk")).status).toBe(403);
  });
});

describe("member codes", () => {
  it("are unique in an organisation: the index refuses a second member with the same code", async () => {
    const u = await makeUser(env.db, { name: "Copy Cat", email: "copy.cat@example.com" });
    await expect(addMember(env.db, u.id, id.org, id.north, { member_code: await codeOf(id.active) })).rejects.toThrow();
  });
});
