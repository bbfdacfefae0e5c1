import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { hashPassword } from "../../server/core/auth/password";
import { organisation_users, payment_types } from "../../server/core/db/schema";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/** Issue 31, "My membership": a member reads their own membership, payments and receipts, and nobody else's. */
let env: Awaited<ReturnType<typeof setup>>;
const PASSWORD = "a member passphrase";
let paid: number;
let failed: number;
let othersPaid: number;

beforeAll(async () => {
  env = await setup();
  const org = await makeOrganisation(env.db, { name: "Self Gyms" });
  const gym = await makeGym(env.db, org.id, "Kingsland");
  const offering = await makeOffering(env.db, org.id, { name: "Anytime" });
  const price = await makePrice(env.db, offering, { amount: 1999, billing_frequency: "weekly" });
  const day = 24 * 3600 * 1000;
  const now = Date.now();

  const me = await makeUser(env.db, {
    name: "Sasha Self",
    email: "sasha@example.com",
    password_hash: await hashPassword(PASSWORD),
    current_organisation_id: org.id,
  });
  const s = await makeSubscription(env.db, price, me.id, gym.id, {
    current_period_start: new Date(now - 3 * day),
    current_period_end: new Date(now + 4 * day),
  });
  await addMember(env.db, me.id, org.id, gym.id, { latest_subscription_id: s.id });
  const [card] = await env.db
    .insert(payment_types)
    .values({ organisation_id: org.id, user_id: me.id, type: "stripe_card", details: { type: "visa", last_four: "4242", exp_month: 12, exp_year: 2030 } })
    .returning();
  await env.db.update(organisation_users).set({ default_payment_type_id: card.id }).where(eq(organisation_users.user_id, me.id));
  paid = (
    await makePayment(env.db, s, {
      amount: 1999,
      surcharge: 30,
      payment_type_id: card.id,
      period_start_at: new Date(now - 10 * day),
      period_end_at: new Date(now - 3 * day),
    })
  ).id;
  failed = (
    await makePayment(env.db, s, {
      amount: 1999,
      status: "failed",
      error_description: "Card declined",
      payment_type_id: card.id,
      period_start_at: new Date(now - 3 * day),
      period_end_at: new Date(now + 4 * day),
    })
  ).id;

  const other = await makeUser(env.db, {
    name: "Olly Other",
    email: "olly@example.com",
    password_hash: await hashPassword(PASSWORD),
    current_organisation_id: org.id,
  });
  const os = await makeSubscription(env.db, price, other.id, gym.id);
  await addMember(env.db, other.id, org.id, gym.id, { latest_subscription_id: os.id });
  othersPaid = (await makePayment(env.db, os, { amount: 1999 })).id;

  const staff = await makeUser(env.db, {
    name: "Stef Staff",
    email: "stef@example.com",
    password_hash: await hashPassword(PASSWORD),
    current_organisation_id: org.id,
  });
  await addStaff(env.db, staff.id, org.id, "admin");
});
afterAll(() => env.close());

describe("GET /api/me/membership", () => {
  it("is the status card staff see, what is owed and why, the door and the way to pay", async () => {
    const b = await signedIn(env.api, env.db, "sasha@example.com", PASSWORD);
    const res = await b.call("GET", "/api/me/membership");
    expect(res.status).toBe(200);
    const m = res.json.data;
    expect(m.gym.name).toBe("Kingsland");
    expect(m.membership).toMatchObject({ state: expect.any(String), label: expect.any(String), amount: 1999, price: { offering: { name: "Anytime" } } });
    expect(m.owing).toEqual({ total: 1999, periods: [expect.objectContaining({ payment_id: failed, amount: 1999, why: "Card declined" })] });
    expect(m.payment_method).toMatchObject({ kind: "card", text: "VISA ending 4242, expires 12/2030" });
    expect(m.door).toHaveProperty("allowed");
  });

  it("refuses staff, and anyone not signed in", async () => {
    const staff = await signedIn(env.api, env.db, "stef@example.com", PASSWORD);
    expect((await staff.call("GET", "/api/me/membership")).status).toBe(403);
  });
});

describe("payments and receipts", () => {
  it("lists the member's own payments only", async () => {
    const b = await signedIn(env.api, env.db, "sasha@example.com", PASSWORD);
    const res = await b.call("GET", "/api/me/payments");
    expect(res.json.data.data.map((p: { id: number }) => p.id).sort()).toEqual([paid, failed].sort());
    expect(res.json.data.data.every((p: { can_refund: boolean }) => !p.can_refund)).toBe(true);
  });

  it("gives a receipt for a payment that went through, and none for a failed one or another member's", async () => {
    const b = await signedIn(env.api, env.db, "sasha@example.com", PASSWORD);
    const receipt = await b.call("GET", `/api/me/payments/${paid}/receipt`);
    expect(receipt.status).toBe(200);
    expect(receipt.json.data).toMatchObject({
      id: paid,
      total: 2029,
      surcharge: 30,
      gym: "Kingsland",
      organisation: "Self Gyms",
      method: "VISA ending 4242, expires 12/2030",
    });
    expect((await b.call("GET", `/api/me/payments/${failed}/receipt`)).status).toBe(404);
    expect((await b.call("GET", `/api/me/payments/${othersPaid}/receipt`)).status).toBe(404);
  });
});

describe("the member's own details", () => {
  it("are changed by the member with staff's rules, and bad input keeps the record as it was", async () => {
    const b = await signedIn(env.api, env.db, "sasha@example.com", PASSWORD);
    const bad = await b.call("PUT", "/api/me/details", { name: "", mobile_number: "not a phone", email_notifications: "on" });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.name).toBeDefined();
    expect(bad.json.errors.mobile_number).toBeDefined();
    expect((await b.call("GET", "/api/me/details")).json.data.name).toBe("Sasha Self");

    const ok = await b.call("PUT", "/api/me/details", {
      name: "Sasha Selfridge",
      mobile_number: "021 555 0177",
      emergency_contact_name: "Kim",
      emergency_contact_number: "021 555 0199",
      emergency_contact_relationship: "Sister",
      email_notifications: "on",
    });
    expect(ok.status).toBe(200);
    expect(ok.json.data).toMatchObject({
      name: "Sasha Selfridge",
      email: "sasha@example.com",
      emergency_contact_relationship: "Sister",
      email_notifications: true,
      payment_reminders: false,
    });
  });

  it("cannot change the e-mail address (their sign-in) from here", async () => {
    const b = await signedIn(env.api, env.db, "sasha@example.com", PASSWORD);
    await b.call("PUT", "/api/me/details", { name: "Sasha Self", email: "taken.over@example.com" });
    expect((await b.call("GET", "/api/me/details")).json.data.email).toBe("sasha@example.com");
  });

  it("are refused to staff", async () => {
    const staff = await signedIn(env.api, env.db, "stef@example.com", PASSWORD);
    expect((await staff.call("PUT", "/api/me/details", { name: "Changed" })).status).toBe(403);
  });
});
