import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { createApi } from "../../server/api/app";
import { offerings, prices, private_price_links, webhook_calls } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * Offerings, prices and the organisation's settings (issue 14) through the API: every rule and message of SPEC §5
 * and §4, who may change what, and that another organisation's rows answer 404.
 */
const PASSWORD = "offerings passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let gymAdmin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let org: { id: number };
let north: { id: number };
let south: { id: number };
let heldPrice: Awaited<ReturnType<typeof makePrice>>;
let heldOffering: Awaited<ReturnType<typeof makeOffering>>;
let foreignOffering: Awaited<ReturnType<typeof makeOffering>>;
let foreignPrice: Awaited<ReturnType<typeof makePrice>>;
let foreignOrg: { id: number };

const validOffering = (over: Record<string, unknown> = {}) => ({
  name: "Off-Peak",
  description: "Weekdays",
  type: "limited_access",
  all_gyms_access: false,
  gyms: [north.id],
  hours_mandated: true,
  hours: [
    { day: 1, open_at: "09:00", close_at: "16:00" },
    { day: 2, open_at: "09:00", close_at: "16:00" },
  ],
  prices: [
    { amount: 1299, billing_frequency: "weekly", joining_fee: 2500 },
    { amount: 1199, billing_frequency: "weekly", term_amount: 6, term_unit: "month" },
  ],
  ...over,
});

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  org = await makeOrganisation(env.db, { name: "Offer Gyms", multi_gym: true });
  north = await makeGym(env.db, org.id, "North");
  south = await makeGym(env.db, org.id, "South");
  heldOffering = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  heldPrice = await makePrice(env.db, heldOffering, { amount: 2500, billing_frequency: "weekly" });
  foreignOrg = await makeOrganisation(env.db, { name: "Not Ours" });
  foreignOffering = await makeOffering(env.db, foreignOrg.id, { name: "Theirs", all_gyms_access: true });
  foreignPrice = await makePrice(env.db, foreignOffering, { amount: 100, billing_frequency: "weekly", private: true });
  const hash = await hashPassword(PASSWORD);
  const staff = async (email: string, role: "admin" | "personal_trainer", gyms: { gymId: number; role: "admin" | "personal_trainer" }[] = []) => {
    const u = await makeUser(env.db, { name: email.split("@")[0], email, password_hash: hash });
    await addStaff(env.db, u.id, org.id, role, gyms);
    return signedIn(api, env.db, email, PASSWORD);
  };
  admin = await staff("offers.admin@example.com", "admin");
  gymAdmin = await staff("offers.gymadmin@example.com", "personal_trainer", [{ gymId: north.id, role: "admin" }]);
  trainer = await staff("offers.trainer@example.com", "personal_trainer", [{ gymId: north.id, role: "personal_trainer" }]);
  const member = await makeUser(env.db, { name: "held member", email: "held@example.com" });
  await addMember(env.db, member.id, org.id, north.id);
  await makeSubscription(env.db, heldPrice, member.id, north.id, {});
});
afterAll(() => env?.close?.());

describe("creating an offering", () => {
  it("creates a Limited Hours offering with two days and two prices, one with a term", async () => {
    const res = await admin.call("POST", "/api/offerings", validOffering());
    expect(res.status).toBe(201);
    const o = res.json.data;
    expect(o).toMatchObject({ name: "Off-Peak", type: "limited_access", all_gyms_access: false, hours_mandated: true, prices_count: 2 });
    expect(o.hours).toEqual([
      expect.objectContaining({ day: 1, open_at: "09:00", close_at: "16:00" }),
      expect.objectContaining({ day: 2, open_at: "09:00", close_at: "16:00" }),
    ]);
    expect(o.gyms.map((g: { name: string }) => g.name)).toEqual(["North"]);
    expect(o.prices.map((p: { amount: number; formatted_term: string | null; joining_fee: number }) => [p.amount, p.formatted_term, p.joining_fee])).toEqual([
      [1199, "6m Term", 0],
      [1299, null, 2500],
    ]);
  });

  it.each([
    ["no days for limited hours with hours mandated", { hours: [] }, "hours", "Add at least one day"],
    ["no gym when not open to all gyms", { gyms: [] }, "gyms", "Select at least one gym"],
    ["no name", { name: "" }, "name", "Value is required"],
    ["no type", { type: "" }, "type", "The value is required"],
    ["a term amount without a unit", { prices: [{ amount: 1000, billing_frequency: "weekly", term_amount: 6 }] }, "prices[0].term_unit", "Please select a term unit"],
    ["a term unit without an amount", { prices: [{ amount: 1000, billing_frequency: "weekly", term_unit: "month" }] }, "prices[0].term_amount", "Please enter a term amount"],
    ["a price without an amount", { prices: [{ billing_frequency: "weekly" }] }, "prices[0].amount", "Value is required"],
    ["a price without a frequency", { prices: [{ amount: 1000 }] }, "prices[0].billing_frequency", "The value is required"],
    ["an hour without a day", { hours: [{ open_at: "09:00", close_at: "10:00" }] }, "hours[0].day", "The value is required"],
    ["an hour without an opening time", { hours: [{ day: 1, close_at: "10:00" }] }, "hours[0].open_at", "Value is required"],
  ])("refuses %s with SPEC §5's message", async (_what, over, field, message) => {
    const before = await env.db.select().from(offerings);
    const res = await admin.call("POST", "/api/offerings", validOffering(over));
    expect(res.status).toBe(422);
    expect(res.json.errors[field]).toEqual([message]);
    expect(await env.db.select().from(offerings)).toHaveLength(before.length);
  });

  it("says every message at once when the form is left empty", async () => {
    const res = await admin.call("POST", "/api/offerings", { type: "limited_access", hours_mandated: true });
    expect(res.json.errors).toEqual({ name: ["Value is required"], hours: ["Add at least one day"], gyms: ["Select at least one gym"] });
  });

  it("needs no day when hours are not mandated, and keeps no hours for a 24/7 offering", async () => {
    expect((await admin.call("POST", "/api/offerings", validOffering({ name: "Flexible", hours_mandated: false, hours: [] }))).status).toBe(201);
    const res = await admin.call("POST", "/api/offerings", validOffering({ name: "Always", type: "24_7", all_gyms_access: true, gyms: [] }));
    expect(res.status).toBe(201);
    expect(res.json.data.hours).toEqual([]);
    expect(res.json.data.gyms.map((g: { name: string }) => g.name)).toEqual(["North", "South"]);
  });

  it("reads numeric strings as numbers and drops nulls (SPEC §5)", async () => {
    const res = await admin.call("POST", "/api/offerings", validOffering({ name: "Strings", description: null, prices: [{ amount: "1500", billing_frequency: "monthly", joining_fee: null }] }));
    expect(res.status).toBe(201);
    expect(res.json.data.prices[0]).toMatchObject({ amount: 1500, joining_fee: 0 });
  });

  it("refuses a gym of another organisation, and a type or frequency the organisation has off", async () => {
    const [theirs] = await env.db.select().from(offerings).where(eq(offerings.organisation_id, foreignOrg.id));
    expect(theirs).toBeDefined();
    const foreignGym = await makeGym(env.db, foreignOrg.id, "Theirs");
    expect((await admin.call("POST", "/api/offerings", validOffering({ gyms: [foreignGym.id] }))).json.errors.gyms).toEqual(["Choose gyms from the list"]);
    const quarterly = await admin.call("POST", "/api/offerings", validOffering({ prices: [{ amount: 9000, billing_frequency: "quarterly" }] }));
    expect(quarterly.json.errors["prices[0].billing_frequency"]).toEqual(["Quarterly billing is switched off in the organisation's settings."]);
  });
});

describe("who may change offerings", () => {
  it("lets a gym admin create one for their gym, but not for every gym or with the organisation's flags", async () => {
    const res = await gymAdmin.call("POST", "/api/offerings", validOffering({ name: "North special", mandated: true, prices: [] }));
    expect(res.status).toBe(201);
    expect(res.json.data.mandated).toBe(false);
    expect((await gymAdmin.call("POST", "/api/offerings", validOffering({ gyms: [south.id] }))).status).toBe(403);
    expect((await gymAdmin.call("POST", "/api/offerings", validOffering({ all_gyms_access: true, gyms: [] }))).status).toBe(403);
  });

  it("refuses a personal trainer, and refuses a gym admin an offering the organisation set", async () => {
    expect((await trainer.call("POST", "/api/offerings", validOffering())).status).toBe(403);
    expect((await trainer.call("GET", "/api/offerings")).status).toBe(200);
    const set = await admin.call("POST", "/api/offerings", validOffering({ name: "Mandated", mandated: true }));
    expect(set.json.data.mandated).toBe(true);
    const res = await gymAdmin.call("PUT", `/api/offerings/${set.json.data.id}`, validOffering({ name: "Renamed" }));
    expect(res.status).toBe(403);
    expect(res.json.message).toBe("This offering is set by the organisation: only organisation admins can change it.");
  });
});

describe("editing, archiving and deleting", () => {
  it("refuses a new amount, frequency or term for a price members pay, and explains", async () => {
    const res = await admin.call("PUT", `/api/prices/${heldPrice.id}`, { amount: 2600, billing_frequency: "weekly" });
    expect(res.status).toBe(422);
    expect(res.json.errors.amount[0]).toMatch(/^Members pay this price, so its amount cannot change here\. Use the bulk price change/);
    const fee = await admin.call("PUT", `/api/prices/${heldPrice.id}`, { amount: 2500, billing_frequency: "weekly", joining_fee: 1000 });
    expect(fee.status).toBe(200);
    expect(fee.json.data).toMatchObject({ amount: 2500, joining_fee: 1000, subscriptions_count: 1 });
  });

  it("changes an unused price's amount in place", async () => {
    const created = await admin.call("POST", `/api/offerings/${heldOffering.id}/prices`, { amount: 3000, billing_frequency: "monthly" });
    expect(created.status).toBe(201);
    const res = await admin.call("PUT", `/api/prices/${created.json.data.id}`, { amount: 3100, billing_frequency: "monthly", term_amount: 12, term_unit: "month" });
    expect(res.json.data).toMatchObject({ amount: 3100, formatted_term: "12m Term", is_term_membership: true });
  });

  it("will not delete a price or offering members hold, and offers archiving; archives and restores", async () => {
    const del = await admin.call("DELETE", `/api/prices/${heldPrice.id}`);
    expect(del.status).toBe(409);
    expect(del.json).toMatchObject({ error: "price_in_use", message: expect.stringContaining("Archive it instead") });
    expect((await admin.call("DELETE", `/api/offerings/${heldOffering.id}`)).json.error).toBe("offering_in_use");
    const archived = await admin.call("DELETE", `/api/prices/${heldPrice.id}/archive`);
    expect(archived.json.data.archived_at).not.toBeNull();
    const restored = await admin.call("POST", `/api/prices/${heldPrice.id}/restore`);
    expect(restored.json.data.archived_at).toBeNull();
  });

  it("deletes an unused price and an unused offering with its prices and hours", async () => {
    const created = await admin.call("POST", "/api/offerings", validOffering({ name: "Short-lived" }));
    const o = created.json.data;
    expect((await admin.call("DELETE", `/api/prices/${o.prices[0].id}`)).status).toBe(200);
    expect((await admin.call("DELETE", `/api/offerings/${o.id}`)).status).toBe(200);
    expect((await admin.call("GET", `/api/offerings/${o.id}`)).status).toBe(404);
    expect(await env.db.select().from(prices).where(eq(prices.offering_id, o.id))).toEqual([]);
  });

  it("lists live and archived offerings apart, with gyms, prices and members", async () => {
    const created = await admin.call("POST", "/api/offerings", validOffering({ name: "Retired" }));
    await admin.call("DELETE", `/api/offerings/${created.json.data.id}/archive`);
    const live = (await admin.call("GET", "/api/offerings?status=active")).json.data.data;
    const gone = (await admin.call("GET", "/api/offerings?status=archived")).json.data.data;
    expect(live.map((o: { name: string }) => o.name)).not.toContain("Retired");
    expect(gone.map((o: { name: string }) => o.name)).toEqual(["Retired"]);
    expect(live.find((o: { name: string }) => o.name === "Anytime")).toMatchObject({ members_count: 1, all_gyms_access: true });
    expect((await admin.call("GET", `/api/gyms/${north.id}/offerings/${heldOffering.id}/unique-memberships`)).json.data.unique_memberships).toBe(1);
    expect((await admin.call("GET", `/api/gyms/${south.id}/offerings/${heldOffering.id}/unique-memberships`)).json.data.unique_memberships).toBe(0);
  });
});

describe("private links", () => {
  it("makes a link to a private price at each gym, with the age bypass, and revokes it", async () => {
    const price = await makePrice(env.db, heldOffering, { amount: 900, billing_frequency: "weekly", private: true });
    const res = await admin.call("POST", `/api/prices/${price.id}/private-links`, { age_bypass: true });
    expect(res.status).toBe(201);
    expect(res.json.data.age_bypass).toBe(true);
    expect(res.json.data.urls.map((u: { gym: string }) => u.gym)).toEqual(["North", "South"]);
    expect(res.json.data.urls[0].url).toMatch(new RegExp(`[?&]link=${res.json.data.token}`));
    const listed = (await admin.call("GET", `/api/offerings/${heldOffering.id}`)).json.data.prices.find((p: { id: number }) => p.id === price.id);
    expect(listed.private_links).toHaveLength(1);
    expect((await admin.call("DELETE", `/api/prices/${price.id}/private-links/${res.json.data.id}`)).status).toBe(200);
    const [row] = await env.db.select().from(private_price_links).where(eq(private_price_links.id, res.json.data.id));
    expect(row.revoked_at).not.toBeNull();
    expect((await admin.call("DELETE", `/api/prices/${price.id}/private-links/${res.json.data.id}`)).status).toBe(404);
  });

  it("refuses a link to a public price", async () => {
    const res = await admin.call("POST", `/api/prices/${heldPrice.id}/private-links`, {});
    expect(res.status).toBe(422);
    expect(res.json.errors.price[0]).toMatch(/Only a private price has links/);
  });
});

describe("another organisation's offerings and prices", () => {
  it.each([
    ["GET", () => `/api/offerings/${foreignOffering.id}`],
    ["PUT", () => `/api/offerings/${foreignOffering.id}`],
    ["DELETE", () => `/api/offerings/${foreignOffering.id}`],
    ["DELETE", () => `/api/offerings/${foreignOffering.id}/archive`],
    ["POST", () => `/api/offerings/${foreignOffering.id}/prices`],
    ["PUT", () => `/api/prices/${foreignPrice.id}`],
    ["DELETE", () => `/api/prices/${foreignPrice.id}`],
    ["DELETE", () => `/api/prices/${foreignPrice.id}/archive`],
    ["POST", () => `/api/prices/${foreignPrice.id}/restore`],
    ["POST", () => `/api/prices/${foreignPrice.id}/private-links`],
    ["GET", () => `/api/organisations/${foreignOrg.id}`],
    ["PUT", () => `/api/organisations/${foreignOrg.id}`],
    ["GET", () => `/api/organisations/${foreignOrg.id}/prices`],
  ])("%s %s is 404", async (method, path) => {
    const body = method === "PUT" && path().includes("/prices/") ? { amount: 1, billing_frequency: "weekly" } : method === "PUT" && path().includes("/offerings/") ? validOffering() : method === "PUT" ? { name: "Mine now" } : method === "POST" && path().endsWith("/prices") ? { amount: 1, billing_frequency: "weekly" } : undefined;
    const res = await admin.call(method, path(), body);
    expect(res.status).toBe(404);
    const [theirs] = await env.db.select().from(prices).where(eq(prices.id, foreignPrice.id));
    expect(theirs).toMatchObject({ amount: 100, archived_at: null });
  });
});

describe("organisation settings", () => {
  const path = (p = "") => `/api/organisations/${org.id}${p}`;

  it("renames, and requires a name", async () => {
    expect((await admin.call("PUT", path(), { name: "" })).json.errors.name).toEqual(["Value is required"]);
    expect((await admin.call("PUT", path(), { name: "Offer Gyms Ltd" })).json.data.name).toBe("Offer Gyms Ltd");
  });

  it("takes grace periods as { period, unit }, flat or nested, and answers one shape", async () => {
    const a = await admin.call("PUT", path("/grace-period"), { period: 10, unit: "day" });
    expect(a.json.data.grace_period).toEqual({ failed_payment_grace_period: 10, failed_payment_grace_period_unit: "day" });
    const b = await admin.call("PUT", path("/grace-period"), { failed_payment_grace_period: "2", failed_payment_grace_period_unit: "week" });
    expect(b.json.data.grace_period).toEqual({ failed_payment_grace_period: 2, failed_payment_grace_period_unit: "week" });
    const c = await admin.call("PUT", path("/term-membership-grace-period"), { term_grace_period: { term_membership_grace_period: 1, term_membership_grace_period_unit: "month" } });
    expect(c.json.data.term_grace_period).toEqual({ term_membership_grace_period: 1, term_membership_grace_period_unit: "month" });
  });

  it("requires both parts of a grace period", async () => {
    const res = await admin.call("PUT", path("/grace-period"), { period: "", unit: "" });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ period: ["Value is required"], unit: ["The value is required"] });
    expect((await admin.call("PUT", path("/term-membership-grace-period"), { period: 3 })).json.errors).toEqual({ unit: ["The value is required"] });
  });

  it("switches frequencies, refusing to switch off one live prices use (archived ones left out)", async () => {
    const on = await admin.call("PUT", path("/price-frequencies"), { weekly: true, fortnightly: true, monthly: true, quarterly: true, six_monthly: false, yearly: false });
    expect(on.json.data.price_frequencies.quarterly).toBe(true);
    const form = (await admin.call("GET", "/api/offerings/form-options")).json.data;
    expect(form.frequencies).toEqual(["weekly", "fortnightly", "monthly", "quarterly", "one_off"]);
    const off = await admin.call("PUT", path("/price-frequencies"), { weekly: false, fortnightly: true, monthly: true, quarterly: true });
    expect(off.status).toBe(422);
    expect(off.json.errors.weekly[0]).toMatch(/^\d+ live prices bill weekly\. Archive them first, or leave weekly on\.$/);
  });

  it("switches offering types, and the form offers only those allowed", async () => {
    const res = await admin.call("PUT", path("/offering-permissions"), { enable_offerings: true, non_stop: true, limited_access: false });
    expect(res.status).toBe(422);
    expect(res.json.errors.limited_access[0]).toMatch(/live offerings are Limited Hours\. Archive them first/);
    const ok = await admin.call("PUT", path("/offering-permissions"), { enable_offerings: true, non_stop: true, limited_access: true });
    expect(ok.json.data.offering_permissions).toEqual({ enable_offerings: true, non_stop: true, limited_access: true });
  });

  it("sets the minimum age to join online, a whole number from 0 to 99", async () => {
    expect((await admin.call("PUT", path("/minimum-age"), { minimum_age: "" })).json.errors.minimum_age).toEqual(["Value is required"]);
    expect((await admin.call("PUT", path("/minimum-age"), { minimum_age: 120 })).json.errors.minimum_age).toEqual(["The maximum value allowed is 99"]);
    expect((await admin.call("PUT", path("/minimum-age"), { minimum_age: "18" })).json.data.minimum_age).toBe(18);
    expect((await gymAdmin.call("PUT", path("/minimum-age"), { minimum_age: 10 })).status).toBe(403);
  });

  it("is for organisation admins only", async () => {
    expect((await gymAdmin.call("PUT", path(), { name: "Mine" })).status).toBe(403);
    expect((await gymAdmin.call("PUT", path("/grace-period"), { period: 1, unit: "day" })).status).toBe(403);
    expect((await gymAdmin.call("GET", path())).status).toBe(200);
  });

  it("makes and revokes age-bypass links, and lists the Akahu deliveries and every price", async () => {
    const link = await admin.call("POST", path("/age-bypass-links"));
    expect(link.status).toBe(201);
    expect(link.json.data).toMatchObject({ age_bypass: true, price_id: null });
    expect((await admin.call("GET", path("/age-bypass-links"))).json.data.data).toHaveLength(1);
    expect((await admin.call("DELETE", path(`/age-bypass-links/${link.json.data.id}`))).status).toBe(200);
    expect((await admin.call("GET", path("/age-bypass-links"))).json.data.data).toHaveLength(0);
    await env.db.insert(webhook_calls).values([
      { organisation_id: org.id, provider: "akahu", event_id: "a1", status: "processed", headers: {}, body: "{}" },
      { organisation_id: org.id, provider: "stripe", event_id: "s1", status: "processed", headers: {}, body: "{}" },
      { organisation_id: foreignOrg.id, provider: "akahu", event_id: "a2", status: "processed", headers: {}, body: "{}" },
    ]);
    const hooks = (await admin.call("GET", path("/akahu-webhooks"))).json.data;
    expect(hooks.data.map((h: { event_id: string }) => h.event_id)).toEqual(["a1"]);
    const all = (await admin.call("GET", path("/prices"))).json.data.data;
    expect(all.every((p: { offering: { name: string } }) => p.offering.name)).toBe(true);
    expect(all.some((p: { id: number }) => p.id === foreignPrice.id)).toBe(false);
  });
});

describe("an age-bypass link at sign-up", () => {
  it("lets the person choose any public price and bypass the minimum age", async () => {
    const { signupChoice } = await import("../../server/signup/catalogue");
    const link = await admin.call("POST", `/api/organisations/${org.id}/age-bypass-links`);
    const choice = await signupChoice(env.db, { id: north.id, organisation_id: org.id }, { price: heldPrice.id, link: link.json.data.token });
    expect(choice).toMatchObject({ ageBypass: true, linkId: link.json.data.id });
    expect(choice.price?.id).toBe(heldPrice.id);
  });
});
