import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { PERMISSIONS, type Role } from "../../server/core/permissions";
import { hashPassword } from "../../server/core/auth/password";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * The per-gym record check, for every action on one member's record: a member, their memberships, their payments.
 * The actions are not listed by hand: every route the API registers whose path names such a record by id is one
 * (a route added tomorrow is checked the day it is added), and the few that name it in their body or query are
 * below. The roles are the permission table's roles that hold their capabilities in their own gyms only
 * (server/core/permissions.ts): each, at North, acting on South's member of the same organisation, is refused
 * (403) by every one of them, whether the route's capability is one the role holds or not. A gym admin acting on
 * North's member is not refused (the control: the refusal is the gym's, not the request's).
 */

/** A path that names one member's record by id: `/api/members/:id…`, `/api/users/:id…`, `/api/subscriptions/:id…`, `/api/payments/:id…`. */
const RECORD = /^\/api\/(members|users|subscriptions|payments)\/:id(\/|$)/;

type Record_ = { member: number; subscription: number; payment: number; transfer: number; gym: number; price: number };

/** The record an id path names: payments by a payment, memberships by a membership, the rest by the member. */
function idFor(path: string, r: Record_) {
  if (path.startsWith("/api/subscriptions/")) return r.subscription;
  if (path === "/api/payments/:id/received") return r.transfer;
  if (path.startsWith("/api/payments/")) return r.payment;
  return r.member;
}

/** Bodies for actions that read theirs before they look the record up (an empty one is refused as invalid first). */
const BODIES: Record<string, (r: Record_) => unknown> = {
  "POST /api/payments/:id/refunds": () => ({ amount: 100, reason: "requested_by_customer", key: "gym-record-check-refund" }),
};

/** Actions naming the record in their body or query rather than their path. */
const NAMED_ELSEWHERE: Record<string, { path: (r: Record_) => string; body?: (r: Record_) => unknown }> = {
  "POST /api/subscriptions/change-price-email-preview": {
    path: () => "/api/subscriptions/change-price-email-preview",
    body: (r) => ({ subscription_id: r.subscription, price_id: r.price, from: "period_end" }),
  },
  "POST /api/subscriptions/schedule-price-change": {
    path: () => "/api/subscriptions/schedule-price-change",
    body: (r) => ({ subscription_id: r.subscription, price_id: r.price, from: "period_end", version: 1, preview: true }),
  },
  "POST /api/organisations/:id/members/onboard-pif": {
    path: () => "/api/organisations/ORG/members/onboard-pif",
    body: (r) => ({
      name: "New Joiner",
      email: `joiner.${r.gym}@example.com`,
      gym_id: r.gym,
      price_id: r.price,
      start: new Date().toISOString().slice(0, 10),
      method: "cash",
      key: `onboard-${r.gym}`,
      preview: true,
    }),
  },
  "GET /api/active-user-debugging": { path: (r) => `/api/active-user-debugging?member=${r.member}&day=${new Date().toISOString().slice(0, 10)}` },
};

/** Routes of the record families that are not gym-bound, each with why. */
const ACROSS_GYMS: Record<string, string> = {
  "GET /api/users/:id/recurring-schedule":
    "the calendar's, not a membership's: any trainer may book any member of the organisation, and the series listed are those the user may see, row by row (server/calendar/series.ts visibleTo; tests/api/recurring-schedules.test.ts)",
};

/** The permission table's roles whose capabilities hold in their own gyms only. */
const GYM_ROLES = [...new Set(Object.values(PERMISSIONS).flat())].filter((r): r is Exclude<Role, "organisation_admin"> => r !== "organisation_admin");

const keyOf = (method: string, path: string) => `${method} ${path.replace(/\{[^}]*\}/g, "")}`;

describe("the per-gym record check, for every action on a member's record", () => {
  let env: Awaited<ReturnType<typeof setup>>;
  let api: ReturnType<typeof createApi>;
  let organisationId = 0;
  const records = {} as Record<"north" | "south", Record_>;
  const as = {} as Record<(typeof GYM_ROLES)[number], Awaited<ReturnType<typeof signedIn>>>;
  const PASSWORD = "gym record check passphrase";

  beforeAll(async () => {
    env = await setup();
    api = env.api;
    const db = env.db;
    const alpha = await makeOrganisation(db, { name: "Alpha", multi_gym: true });
    organisationId = alpha.id;
    const price = await makePrice(db, await makeOffering(db, alpha.id, { name: "Anytime", all_gyms_access: true }), { amount: 2500 });
    for (const side of ["north", "south"] as const) {
      const gym = await makeGym(db, alpha.id, side);
      const u = await makeUser(db, { name: `Member ${side}`, email: `${side}@example.com` });
      await addMember(db, u.id, alpha.id, gym.id);
      const s = await makeSubscription(db, price, u.id, gym.id, {
        current_period_start: new Date(Date.now() - 3 * 864e5),
        current_period_end: new Date(Date.now() + 4 * 864e5),
      });
      const paid = await makePayment(db, s, {
        amount: 2500,
        pif_payment: "cash",
        period_start_at: new Date(Date.now() - 3 * 864e5),
        period_end_at: new Date(Date.now() + 4 * 864e5),
      });
      const transfer = await makePayment(db, s, { amount: 2500, status: "awaiting_payment", pif_payment: "bank_transfer" });
      records[side] = { member: u.id, subscription: s.id, payment: paid.id, transfer: transfer.id, gym: gym.id, price: price.id };
    }
    const hash = await hashPassword(PASSWORD);
    for (const role of GYM_ROLES) {
      const email = `${role}@example.com`;
      const u = await makeUser(db, { name: role, email, password_hash: hash, current_organisation_id: alpha.id, current_gym_id: records.north.gym });
      await addStaff(db, u.id, alpha.id, "personal_trainer", [{ gymId: records.north.gym, role: role === "gym_admin" ? "admin" : "personal_trainer" }]);
      as[role] = await signedIn(api, db, email, PASSWORD);
    }
  });
  afterAll(() => env?.close());

  /** Every action, as [key, method, path for a record, body for a record]; deletions last (North's goes through). */
  function actions() {
    const seen = new Map<string, { method: string; path: (r: Record_) => string; body?: (r: Record_) => unknown }>();
    for (const r of api.routes) {
      if (r.method === "ALL") continue;
      const path = r.path.replace(/\{[^}]*\}/g, "");
      const key = keyOf(r.method, r.path);
      if (!RECORD.test(path) || key in ACROSS_GYMS) continue;
      seen.set(key, {
        method: r.method,
        path: (rec) => path.replace(":id", String(idFor(path, rec))),
        body: BODIES[key] ?? (r.method === "GET" ? undefined : () => ({})),
      });
    }
    for (const [key, plan] of Object.entries(NAMED_ELSEWHERE)) seen.set(key, { method: key.split(" ")[0], ...plan });
    return [...seen.entries()].sort(([a], [b]) => Number(a.startsWith("DELETE")) - Number(b.startsWith("DELETE")));
  }

  it("finds the actions in the API's own route list", () => {
    const keys = actions().map(([k]) => k);
    // The membership actions of the lifecycle (decision 0022), money, the door, the photo, the profile.
    for (const k of [
      "POST /api/subscriptions/:id/pause",
      "POST /api/subscriptions/:id/cancel",
      "POST /api/subscriptions/:id/start-now",
      "POST /api/subscriptions/:id/manual-payment",
      "POST /api/payments/:id/refunds",
      "POST /api/payments/:id/received",
      "POST /api/members/:id/pif",
      "DELETE /api/members/:id",
      "POST /api/members/:id/resend-pif-invite",
      "POST /api/users/:id/recreate-kisi-login",
      "POST /api/members/:id/profile-picture",
      "PUT /api/members/:id",
    ])
      expect(keys).toContain(k);
    expect(keys.length).toBeGreaterThan(30);
  });

  for (const role of GYM_ROLES) {
    it(`refuses a ${role} of North every action on South's member (403)${role === "gym_admin" ? ", and lets them act on North's" : ""}`, async () => {
      const refused: string[] = [];
      const control: string[] = [];
      for (const [key, a] of actions()) {
        const call = (r: Record_) => as[role].call(a.method, a.path(r).replace("ORG", String(organisationId)), a.body?.(r));
        const south = await call(records.south);
        if (south.status !== 403) refused.push(`${key}: ${south.status} ${JSON.stringify(south.json).slice(0, 120)}`);
        if (role === "gym_admin") {
          const north = await call(records.north);
          if (north.status === 403) control.push(`${key}: ${north.status} ${JSON.stringify(north.json).slice(0, 120)}`);
        }
      }
      expect(refused, "actions on South's member that were not refused").toEqual([]);
      expect(control, "actions on North's member a gym admin of North was refused").toEqual([]);
    });
  }
});
