import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { outboxMailer } from "../../server/core/mail/mailer";
import { eq } from "drizzle-orm";
import { gyms } from "../../server/core/db/schema";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn } from "./harness";

const PASSWORD = "pro-rata test passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
const ids: Record<string, number> = {};

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  const hash = await hashPassword(PASSWORD);
  const org = await makeOrganisation(env.db, { name: "Pro Rata Gyms" });
  const gym = await makeGym(env.db, org.id, "Central");
  ids.gym = gym.id;
  await env.db.update(gyms).set({ card_surcharge_basis_points: 175, card_surcharge_fixed: 30, general_card_surcharge_text: "Cards carry a 1.75% + 30c surcharge" }).where(eq(gyms.id, gym.id));
  ids.plainGym = (await makeGym(env.db, org.id, "No Surcharge")).id;
  const admin = await makeUser(env.db, { name: "pat admin", email: "pat@example.com", password_hash: hash });
  await addStaff(env.db, admin.id, org.id, "admin");
  const member = await makeUser(env.db, { name: "mo member", email: "mo@example.com", password_hash: hash });
  await addMember(env.db, member.id, org.id, gym.id);
  const offering = await makeOffering(env.db, org.id, { name: "Unlimited", all_gyms_access: true });
  ids.monthly = (await makePrice(env.db, offering, { amount: 10_000, billing_frequency: "monthly" })).id;
  ids.weekly = (await makePrice(env.db, offering, { amount: 2_500, billing_frequency: "weekly", joining_fee: 4_900 })).id;
  ids.pif = (await makePrice(env.db, offering, { amount: 50_000, billing_frequency: "one_off" })).id;
  const other = await makeOrganisation(env.db, { name: "Elsewhere" });
  const otherOffering = await makeOffering(env.db, other.id, { name: "Theirs" });
  ids.theirs = (await makePrice(env.db, otherOffering, { amount: 9_900, billing_frequency: "monthly" })).id;
});
afterAll(() => env.close());

const admin = () => signedIn(api, env.db, "pat@example.com", PASSWORD);

describe("POST /api/prices/{id}/pro-rata", () => {
  it("charges the days up to the usual billing day: the 1st for a monthly price", async () => {
    const res = await (await admin()).call("POST", `/api/prices/${ids.monthly}/pro-rata`, { start_date: "2026-02-15" });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      price: { id: ids.monthly, amount: 10_000, billing_frequency: "monthly", offering: "Unlimited" },
      start_date: "2026-02-15",
      amount: 5_000,
      formatted_amount: "$50.00",
      days: 14,
      days_in_period: 28,
      period: { start: "2026-02-01", end: "2026-03-01" },
      first_full_charge_date: "2026-03-01",
      first_full_charge_amount: 10_000,
    });
  });

  it("takes the member's billing date when one is given, and Mondays for a weekly price", async () => {
    const a = await admin();
    const chosen = await a.call("POST", `/api/prices/${ids.monthly}/pro-rata`, { start_date: "2026-01-10", billing_date: "2026-01-31" });
    expect(chosen.json.data).toMatchObject({ amount: 6_774, days: 21, days_in_period: 31, period: { start: "2025-12-31", end: "2026-01-31" } });
    // Friday 3 April 2026 to Monday 6 April, across the end of daylight saving: 3 of 7 days.
    const weekly = await a.call("POST", `/api/prices/${ids.weekly}/pro-rata`, { start_date: "2026-04-03" });
    expect(weekly.json.data).toMatchObject({ amount: 1_071, days: 3, days_in_period: 7, first_full_charge_date: "2026-04-06" });
    // A plain HTML form posts the same.
    const form = await a.call("POST", `/api/prices/${ids.weekly}/pro-rata`, "start_date=2026-04-06&billing_date=", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(form.json.data).toMatchObject({ amount: 0, days: 0, first_full_charge_date: "2026-04-06" });
  });

  it("answers 422 with the field's message for bad dates, a billing date out of reach, and a paid-in-full price", async () => {
    const a = await admin();
    const refused = async (price: number, body: unknown) => {
      const res = await a.call("POST", `/api/prices/${price}/pro-rata`, body);
      expect(res.status).toBe(422);
      return res.json.errors;
    };
    expect(await refused(ids.monthly, {})).toEqual({ start_date: ["Enter the start date as a date"] });
    expect(await refused(ids.monthly, { start_date: "2026-02-30" })).toEqual({ start_date: ["Enter the start date as a date"] });
    expect(await refused(ids.monthly, { start_date: "15/02/2026" })).toEqual({ start_date: ["Enter the start date as a date"] });
    expect(await refused(ids.monthly, { start_date: "2026-02-15", billing_date: "2026-02-14" })).toEqual({ billing_date: ["The billing date must be on or after the start date"] });
    expect(await refused(ids.monthly, { start_date: "2026-02-15", billing_date: "2026-03-15" })).toEqual({
      billing_date: ["The billing date must be less than one billing period after the start date"],
    });
    expect(await refused(ids.pif, { start_date: "2026-02-15" })).toEqual({ price: ["A paid-in-full price is paid once, in full: it has no pro-rata"] });
  });

  it("is 404 for another organisation's price and ids that name no row, 401 signed out", async () => {
    const a = await admin();
    for (const id of [ids.theirs, 2147483647, 99999999999]) expect((await a.call("POST", `/api/prices/${id}/pro-rata`, { start_date: "2026-02-15" })).status).toBe(404);
    expect((await browser(api).call("POST", `/api/prices/${ids.monthly}/pro-rata`, { start_date: "2026-02-15" })).status).toBe(401);
  });

  it("answers a member joining online for the prices on sale to them, and no others (the sign-up's quote, SPEC §7)", async () => {
    const member = await signedIn(api, env.db, "mo@example.com", PASSWORD);
    const mine = await member.call("POST", `/api/prices/${ids.monthly}/pro-rata`, { start_date: "2026-02-15" });
    expect(mine.status).toBe(200);
    expect(mine.json.data).toMatchObject({ amount: expect.any(Number) });
    expect((await member.call("POST", `/api/prices/${ids.theirs}/pro-rata`, { start_date: "2026-02-15" })).status).toBe(404);
    const surcharge = await member.call("GET", `/api/surcharge-total?price_id=${ids.weekly}&payment_type=stripe_card&gym_id=${ids.plainGym}`);
    // Their own gym's surcharge, whichever gym they name.
    expect(surcharge.json.data).toMatchObject({ gym_id: ids.gym, first: { amount: 7_400, surcharge: 160 } });
    expect((await member.call("GET", `/api/surcharge-total?price_id=${ids.theirs}&payment_type=stripe_card`)).status).toBe(404);
  });
});

describe("GET /api/surcharge-total", () => {
  const total = async (query: string) => (await admin()).call("GET", `/api/surcharge-total?${query}`);

  it("adds the gym's card surcharge to each charge and to the first, which carries the joining fee", async () => {
    const res = await total(`price_id=${ids.weekly}&payment_type=stripe_card&gym_id=${ids.gym}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      price_id: ids.weekly,
      gym_id: ids.gym,
      payment_type: "stripe_card",
      // 2500 × 1.75 % = 43.75 → 44, + 30
      each: { amount: 2_500, surcharge: 74, total: 2_574, formatted_total: "$25.74" },
      // 7400 × 1.75 % = 129.5 → 130 (half up), + 30
      first: { amount: 7_400, surcharge: 160, total: 7_560, formatted_total: "$75.60" },
      formatted_surcharge: "1.75% + $0.30",
      general_card_surcharge_text: "Cards carry a 1.75% + 30c surcharge",
    });
  });

  it("adds nothing for direct debit or a gym without a surcharge", async () => {
    const debit = (await total(`price_id=${ids.weekly}&payment_type=gocardless_bank_account&gym_id=${ids.gym}`)).json.data;
    expect([debit.each, debit.formatted_surcharge]).toEqual([{ amount: 2_500, surcharge: 0, total: 2_500, formatted_total: "$25.00" }, null]);
    const plain = (await total(`price_id=${ids.weekly}&payment_type=stripe_card&gym_id=${ids.plainGym}`)).json.data;
    expect([plain.each.total, plain.formatted_surcharge]).toEqual([2_500, null]);
  });

  it("answers 422 on its fields for a missing, unknown or other organisation's price or gym, or a wrong payment type", async () => {
    const errors = async (query: string) => {
      const res = await total(query);
      expect(res.status, query).toBe(422);
      return res.json.errors;
    };
    expect(await errors("payment_type=stripe_card")).toEqual({ price_id: ["Choose a price from the list"] });
    expect(await errors(`price_id=${ids.theirs}&payment_type=stripe_card&gym_id=${ids.gym}`)).toEqual({ price_id: ["Choose a price from the list"] });
    expect(await errors(`price_id=99999999999&payment_type=stripe_card`)).toEqual({ price_id: ["Choose a price from the list"] });
    expect(await errors(`price_id=${ids.weekly}&payment_type=cash`)).toEqual({ payment_type: ["Choose card, direct debit or bank account"] });
    expect(await errors(`price_id=${ids.weekly}&payment_type=stripe_card&gym_id=2147483647`)).toEqual({ gym_id: ["Choose a gym from the list"] });
  });

  it("takes the current gym when the price has none and none is named", async () => {
    const res = await total(`price_id=${ids.weekly}&payment_type=stripe_card`);
    expect([res.status, res.json.data.gym_id, res.json.data.each.total]).toEqual([200, ids.gym, 2_574]);
  });
});
