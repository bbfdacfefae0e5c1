import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { destination_accounts, gyms, organisations, payments, private_price_links, subscriptions, users } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeUser } from "../../server/seed/factories";
import { browser, itRaces, lastCode, setup, signedIn } from "./harness";

/**
 * The member's own sign-up through the API (issue 13), on a fixed day (Wednesday 2 December 2026, 10 am in
 * Auckland), with the sandbox providers: photo, a card saved on the provider's hosted page, register fields, the
 * subscription and its first payment, declines, double submissions and forged returns.
 */
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let gym: typeof gyms.$inferSelect;
let weekly: Awaited<ReturnType<typeof makePrice>>;
let hidden: Awaited<ReturnType<typeof makePrice>>;
let n = 0;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW, providers: sandboxProviders(env.db) });
  const org = await makeOrganisation(env.db, { name: "Sign-up Gyms" });
  gym = await makeGym(env.db, org.id, "Mt Eden");
  [gym] = await env.db
    .update(gyms)
    .set({ stripe_id: "acct_signup", card_surcharge_basis_points: 150, general_card_surcharge_text: "Cards carry a 1.5% surcharge." })
    .where(eq(gyms.id, gym.id))
    .returning();
  const offering = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  weekly = await makePrice(env.db, offering, { amount: 2_000, billing_frequency: "weekly", joining_fee: 5_000 });
  hidden = await makePrice(env.db, offering, { amount: 1_000, billing_frequency: "weekly", private: true });
  const staff = await makeUser(env.db, { name: "desk", email: "desk@signup.example.com", password_hash: await hashPassword("signup staff passphrase") });
  await addStaff(env.db, staff.id, org.id, "admin");
});
afterAll(() => env.close());

/** A person who registered at the gym and entered the e-mailed code. */
async function joiner() {
  const b = browser(api, { ip: `198.51.100.${++n}` });
  const email = `joiner${n}@example.com`;
  const made = await b.call("POST", "/api/register", {
    name: `Joiner ${n}`,
    email,
    mobile_number: "021 555 0100",
    password: "a long enough passphrase",
    gym: gym.uuid,
  });
  expect(made.status).toBe(201);
  expect((await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, email) })).status).toBe(200);
  return { b, email, id: made.json.data.id as number };
}

const photo = async () => {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3a6" } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new File([new Uint8Array(png)], "me.png", { type: "image/png" }));
  return form;
};

/** Opens the card page, types a card on it as the person would, and answers the id the return address carries. */
async function saveCard(b: ReturnType<typeof browser>, number: string) {
  const opened = await b.call("POST", "/api/stripe/setup-session", { nonce: `nonce-${number.replace(/\D/g, "")}-${++n}` });
  expect(opened.status).toBe(201);
  const id = opened.json.data.id as string;
  expect(opened.json.data.url).toMatch(new RegExp(`/sandbox/stripe/checkout/${id}$`));
  const entered = await b.call("POST", `/api/sandbox/stripe/checkout/${id}`, { number, expiry: "12/30", cvc: "123", name: "A Joiner" });
  return { id, entered };
}

const fields = {
  address: "1 Dominion Road",
  city: "Auckland",
  post_code: "1024",
  dob: "1990-05-01",
  emergency_contact_name: "Kim",
  emergency_contact_number: "021 555 0199",
  emergency_contact_relationship: "Sister",
  hear_about_us: "friend",
};

describe("the sign-up through the API", () => {
  it("takes a photo, a card on the hosted page, the details, then starts the membership and charges its first payment once", async () => {
    const { b, id } = await joiner();
    const me = async () => (await b.call("GET", "/api/me")).json.data;
    expect(await me()).toMatchObject({ profile_picture: null, payment_types: [], membership_confirmed: false });

    const signup = (await b.call("GET", "/api/me/signup")).json.data;
    expect(signup.methods.map((m: { kind: string }) => m.kind)).toEqual(["stripe_card"]);
    expect(signup.methods[0]).toMatchObject({ surcharge: "1.5%", surcharge_text: "Cards carry a 1.5% surcharge." });
    expect(signup.prices.map((p: { id: number }) => p.id)).toEqual([weekly.id]);

    expect((await b.call("POST", "/api/profile-picture", await photo())).status).toBe(201);
    expect((await me()).profile_picture).toBeTruthy();

    const declined = await saveCard(b, "4000 0000 0000 0002");
    expect(declined.entered.status).toBe(422);
    expect(declined.entered.json.errors.number).toEqual(["Your card was declined."]);
    const bad = await b.call("POST", `/api/sandbox/stripe/checkout/${declined.id}`, { number: "4242 4242 4242 4241", expiry: "13/30", cvc: "1", name: "" });
    expect(Object.keys(bad.json.errors).sort()).toEqual(["cvc", "expiry", "name", "number"]);
    const good = await b.call("POST", `/api/sandbox/stripe/checkout/${declined.id}`, {
      number: "4242424242424242",
      expiry: "12/30",
      cvc: "123",
      name: "A Joiner",
    });
    expect(good.json.data.redirect).toBe(`http://signup.localhost:3000/card-connected?session_id=${declined.id}`);
    const synced = await b.call("POST", "/api/stripe/sync-payment-method", { session_id: declined.id });
    expect(synced.json.data).toMatchObject({ type: "stripe_card", last_four: "4242", brand: "visa" });
    // The return page loaded again saves nothing new.
    expect((await b.call("POST", "/api/stripe/sync-payment-method", { session_id: declined.id })).json.data.id).toBe(synced.json.data.id);
    expect((await me()).payment_types).toHaveLength(1);

    const young = await b.call("PUT", "/api/me/register-fields", { ...fields, dob: "2015-01-01" });
    expect(young.status).toBe(422);
    expect(young.json.errors.dob[0]).toMatch(/16 or older/);
    // Each organisation sets its own (its settings page): at 10, an 11-year-old may join online.
    await env.db.update(organisations).set({ minimum_age: 10 }).where(eq(organisations.id, gym.organisation_id));
    expect((await b.call("PUT", "/api/me/register-fields", { ...fields, dob: "2015-01-01" })).status).toBe(200);
    await env.db.update(organisations).set({ minimum_age: 12 }).where(eq(organisations.id, gym.organisation_id));
    expect((await b.call("PUT", "/api/me/register-fields", { ...fields, dob: "2015-01-01" })).json.errors.dob[0]).toMatch(/^You need to be 12 or older/);
    await env.db.update(organisations).set({ minimum_age: 16 }).where(eq(organisations.id, gym.organisation_id));
    const missing = await b.call("PUT", "/api/me/register-fields", { ...fields, hear_about_us: "other", city: "" });
    expect(Object.keys(missing.json.errors).sort()).toEqual(["city", "hear_about_us_other"]);
    expect((await b.call("PUT", "/api/me/register-fields", fields)).status).toBe(200);

    const key = "confirm-key-0001-abcdef";
    const noTerms = await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", idempotency_key: key });
    expect(noTerms.json.errors.terms).toEqual(["Accept the terms to join"]);
    const past = await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-01", terms: "on", idempotency_key: key });
    expect(past.json.errors.start_date).toEqual(["Choose today or a day after it"]);
    const privatePrice = await b.call("POST", "/api/subscriptions", { price_id: hidden.id, start_date: "2026-12-02", terms: "on", idempotency_key: key });
    expect(privatePrice.json.errors.price_id).toEqual(["Choose a membership from the list"]);
    expect(await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, id))).toEqual([]);

    // The terms the person accepts are the organisation's of that moment, kept with the membership (issue 31).
    await env.db.update(organisations).set({ membership_terms_text: "Fourteen days' notice to cancel.", membership_terms_url: "https://gym.example/terms" }).where(eq(organisations.id, gym.organisation_id));
    // Sent twice (a double tap; the two at once: the race below): the first is made (201), the second answers it (200).
    const made = await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: key });
    const again = await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: key });
    expect([made.status, again.status]).toEqual([201, 200]);
    expect(again.json.data.id).toBe(made.json.data.id);
    expect(await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, id))).toHaveLength(1);
    expect(await env.db.select().from(payments).where(eq(payments.user_id, id))).toHaveLength(1);
    await env.db.update(organisations).set({ membership_terms_text: "Changed later.", membership_terms_url: null }).where(eq(organisations.id, gym.organisation_id));
    const [joined] = await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, id));
    expect(joined.terms_accepted).toEqual({ text: "Fourteen days' notice to cancel.", url: "https://gym.example/terms" });
    expect(joined.terms_accepted_at).not.toBeNull();

    const active = (await b.call("GET", "/api/me/active-subscription")).json.data;
    // Wednesday to Monday is 5 of 7 days of $20 (pro-rata $14.29), plus the $50 joining fee, plus 1.5% by card.
    expect(active).toMatchObject({
      state: "active",
      failed: false,
      first_payment: { amount: 6_429, surcharge: 96, total: 6_525, status: "sent", joining_fee: 5_000, is_pro_rata: true, last_four: "4242" },
    });
    expect(active.next_charge).toEqual({ date: "2026-12-07", amount: 2_030 });
    expect(active.access.allowed).toBe(true);
    expect((await me()).membership_confirmed).toBe(true);
    const second = await b.call("POST", "/api/subscriptions", {
      price_id: weekly.id,
      start_date: "2026-12-02",
      terms: "on",
      idempotency_key: "confirm-key-0002-abcdef",
    });
    expect(second.status).toBe(409);
  });

  itRaces("sent twice at once (from two devices), makes one membership and charges its first payment once", async () => {
    const { b, id, email } = await joiner();
    await b.call("POST", "/api/profile-picture", await photo());
    const card = await saveCard(b, "4242424242424242");
    await b.call("POST", "/api/stripe/sync-payment-method", { session_id: card.id });
    expect((await b.call("PUT", "/api/me/register-fields", fields)).status).toBe(200);
    const confirm = { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: "race-key-0001-abcdef" };
    // Two devices: one browser's requests wait for each other on its session's row, two sessions' do not.
    const other = await signedIn(api, env.db, email, "a long enough passphrase");
    const [made, again] = (await Promise.all([b, other].map((d) => d.call("POST", "/api/subscriptions", confirm)))).sort((x, y) => y.status - x.status);
    expect([made.status, again.status]).toEqual([201, 200]);
    expect(again.json.data.id).toBe(made.json.data.id);
    expect(await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, id))).toHaveLength(1);
    expect(await env.db.select().from(payments).where(eq(payments.user_id, id))).toHaveLength(1);
  });

  it("a card that is saved but declined at the first payment leaves no membership standing; another card then joins", async () => {
    const { b, id } = await joiner();
    await b.call("POST", "/api/profile-picture", await photo());
    const poor = await saveCard(b, "4000000000009995");
    expect((await b.call("POST", "/api/stripe/sync-payment-method", { session_id: poor.id })).status).toBe(200);
    await b.call("PUT", "/api/me/register-fields", fields);
    expect(
      (await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: "declined-key-0001-abc" }))
        .status,
    ).toBe(201);
    const failed = (await b.call("GET", "/api/me/active-subscription")).json.data;
    expect(failed).toMatchObject({ failed: true, first_payment: { status: "failed", error: "Your card has insufficient funds." } });
    expect(failed.access.allowed).toBe(false);
    expect((await b.call("GET", "/api/me")).json.data.membership_confirmed).toBe(false);

    const good = await saveCard(b, "5555555555554444");
    const synced = await b.call("POST", "/api/stripe/sync-payment-method", { session_id: good.id });
    expect(synced.json.data).toMatchObject({ brand: "mastercard", last_four: "4444" });
    // The newest card pays; the member may switch between their own connected methods.
    const mine = (await b.call("GET", "/api/me")).json.data;
    expect(mine.default_payment_type.id).toBe(synced.json.data.id);
    const poorId = mine.payment_types.find((p: { id: number }) => p.id !== synced.json.data.id).id;
    expect((await b.call("POST", `/api/me/payment-types/${poorId}/switch`)).json.data.default_payment_type_id).toBe(poorId);
    expect((await b.call("POST", `/api/me/payment-types/${synced.json.data.id}/switch`)).status).toBe(200);
    expect((await b.call("GET", "/api/me")).json.data.default_payment_type.id).toBe(synced.json.data.id);
    expect(
      (await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: "declined-key-0002-abc" }))
        .status,
    ).toBe(201);
    expect((await b.call("GET", "/api/me/active-subscription")).json.data).toMatchObject({
      state: "active",
      first_payment: { status: "sent", last_four: "4444" },
    });
    const all = await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, id));
    expect(all.filter((s) => !s.cancelled_at)).toHaveLength(1);
    expect(all.find((s) => s.cancelled_at)?.cancellation_reasons).toEqual(["first_payment_failed"]);
  });

  it("holds the pages' step guards in the API: no membership or payment without a photo (issue 29 L5)", async () => {
    const { b, id } = await joiner();
    const card = await saveCard(b, "4242424242424242");
    expect((await b.call("POST", "/api/stripe/sync-payment-method", { session_id: card.id })).status).toBe(200);
    expect((await b.call("PUT", "/api/me/register-fields", fields)).status).toBe(200);
    const refused = await b.call("POST", "/api/subscriptions", {
      price_id: weekly.id,
      start_date: "2026-12-02",
      terms: "on",
      idempotency_key: "no-photo-key-0001-abc",
    });
    expect(refused.status).toBe(422);
    expect(refused.json.errors).toEqual({ profile_picture: ["Take your photo first"] });
    expect(await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, id))).toEqual([]);
    expect(await env.db.select().from(payments).where(eq(payments.user_id, id))).toEqual([]);
    expect((await b.call("POST", "/api/profile-picture", await photo())).status).toBe(201);
    expect(
      (await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: "no-photo-key-0001-abc" }))
        .status,
    ).toBe(201);
  });

  it("answers 422 to an idempotency key sent again with a different body, and the first answer to the same body (issue 29)", async () => {
    const { b, id } = await joiner();
    await b.call("POST", "/api/profile-picture", await photo());
    const card = await saveCard(b, "4242424242424242");
    await b.call("POST", "/api/stripe/sync-payment-method", { session_id: card.id });
    await b.call("PUT", "/api/me/register-fields", fields);
    const key = "reused-key-0001-abcdef";
    const made = await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: key });
    expect(made.status).toBe(201);
    const otherDay = await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-09", terms: "on", idempotency_key: key });
    expect(otherDay.status).toBe(422);
    expect(otherDay.json.errors.idempotency_key).toEqual(["This key was already used for a different membership or start day"]);
    expect(otherDay.json.message).toMatch(/already used for a different request/);
    const otherPrice = await b.call("POST", "/api/subscriptions", { price_id: hidden.id, start_date: "2026-12-02", terms: "on", idempotency_key: key });
    expect(otherPrice.status).toBe(422);
    const same = await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: key });
    expect([same.status, same.json.data.id]).toEqual([200, made.json.data.id]);
    expect(await env.db.select().from(subscriptions).where(eq(subscriptions.user_id, id))).toHaveLength(1);
  });

  it("refuses a card page that is someone else's, and a made-up one", async () => {
    const first = await joiner();
    const other = await joiner();
    const theirs = await saveCard(first.b, "4242424242424242");
    const forged = await other.b.call("POST", "/api/stripe/sync-payment-method", { session_id: theirs.id });
    expect(forged.status).toBe(422);
    expect(forged.json.message).toMatch(/not yours/);
    expect((await other.b.call("POST", "/api/stripe/sync-payment-method", { session_id: "cs_sandbox_madeup" })).status).toBe(422);
    expect((await other.b.call("GET", "/api/me")).json.data.payment_types).toEqual([]);
    // Given up on the page: back to choosing a method, nothing saved.
    const opened = await other.b.call("POST", "/api/stripe/setup-session", { nonce: "nonce-cancelled-1" });
    const cancelled = await other.b.call("POST", `/api/sandbox/stripe/checkout/${opened.json.data.id}/cancel`);
    expect(cancelled.json.data.redirect).toBe("http://signup.localhost:3000/choose-payment-method?cancelled=card");
    expect((await other.b.call("POST", "/api/stripe/sync-payment-method", { session_id: opened.json.data.id })).status).toBe(409);
  });

  it("shows a private price, and lets a younger person join, only through its link", async () => {
    const { b, id } = await joiner();
    const [link] = await env.db.insert(private_price_links).values({ organisation_id: gym.organisation_id, price_id: hidden.id, age_bypass: true }).returning();
    await env.db.execute(`update organisation_users set signup_link_id = ${link.id}, signup_price_id = ${hidden.id} where user_id = ${id}`);
    const signup = (await b.call("GET", "/api/me/signup")).json.data;
    expect(signup.prices.map((p: { id: number }) => p.id).sort()).toEqual([weekly.id, hidden.id].sort());
    expect(signup.chosen_price_id).toBe(hidden.id);
    const yf = await b.call("PUT", "/api/me/register-fields", { ...fields, dob: "2012-03-04" });
    expect(yf.status).toBe(200);
    expect((await env.db.select({ dob: users.dob }).from(users).where(eq(users.id, id)))[0].dob).toBe("2012-03-04");
  });

  it("keeps the price an integrator's link named through registration; a price not on sale there is dropped", async () => {
    const b = browser(api, { ip: "198.51.100.200" });
    const email = "integrated@example.com";
    const form = new URLSearchParams({
      name: "Ivy Integrated",
      email,
      mobile_number: "021 555 0100",
      password: "a long enough passphrase",
      gym: gym.uuid,
      price: String(weekly.id),
    });
    expect((await b.call("POST", "/api/register", form.toString(), { "content-type": "application/x-www-form-urlencoded" })).status).toBe(201);
    await b.call("POST", "/api/email/verify", { code: await lastCode(env.db, email) });
    expect((await b.call("GET", "/api/me")).json.data.price_id).toBe(weekly.id);
    expect((await b.call("GET", "/api/me/signup")).json.data.chosen_price_id).toBe(weekly.id);
    // The private price is not on sale without its link: named by id, it is dropped.
    const other = browser(api, { ip: "198.51.100.201" });
    expect(
      (
        await other.call("POST", "/api/register", {
          name: "Nosy Parker",
          email: "nosy@example.com",
          mobile_number: "021 555 0100",
          password: "a long enough passphrase",
          gym: gym.uuid,
          price: hidden.id,
        })
      ).status,
    ).toBe(201);
    await other.call("POST", "/api/email/verify", { code: await lastCode(env.db, "nosy@example.com") });
    expect((await other.call("GET", "/api/me")).json.data.price_id).toBeNull();
    expect((await api.request(`/api/public/gyms/${gym.uuid}?price=${weekly.id}`)).status).toBe(200);
    const named = (await (await api.request(`/api/public/gyms/${gym.uuid}?price=${weekly.id}`)).json()).data;
    expect(named.price).toMatchObject({ id: weekly.id, amount: 2_000, frequency_label: "Weekly", offering: "Anytime" });
    // What an integrator builds links from: the public prices only.
    expect(named.prices.map((p: { id: number }) => p.id)).toEqual([weekly.id]);
  });

  it("sets up a direct debit: the account checked first, the mandate confirmed on the provider's page, then joins", async () => {
    await env.db.update(gyms).set({ gocardless_organisation_id: "OR_signup" }).where(eq(gyms.id, gym.id));
    try {
      const { b } = await joiner();
      await b.call("POST", "/api/profile-picture", await photo());
      expect((await b.call("GET", "/api/me/signup")).json.data.methods.map((m: { kind: string }) => m.kind)).toEqual([
        "stripe_card",
        "gocardless_bank_account",
      ]);
      const bad = await b.call("GET", "/api/gocardless/mandate-url?account_holder=Kim&account_number=12-3140-0071235-00&nonce=mandate-nonce-1");
      expect(bad.status).toBe(422);
      expect(bad.json.errors.account_number[0]).toMatch(/not a valid New Zealand bank account number/);
      const opened = await b.call("GET", "/api/gocardless/mandate-url?account_holder=Kim%20Joiner&account_number=12-3140-0071234-00&nonce=mandate-nonce-1");
      expect(opened.status).toBe(200);
      const id = opened.json.data.id as string;
      expect(opened.json.data.url).toBe(`http://signup.localhost:3000/sandbox/gocardless/flow/${id}`);
      expect((await b.call("GET", `/api/sandbox/gocardless/flow/${id}`)).json.data).toMatchObject({
        account_holder: "Kim Joiner",
        account_number: "12-3140-0071234-00",
        status: "open",
      });
      // Not yet confirmed: nothing to save.
      expect((await b.call("POST", "/api/gocardless/sync-payment-method", { billing_request: id })).status).toBe(409);
      expect((await b.call("POST", `/api/sandbox/gocardless/flow/${id}`, { authorised: false })).status).toBe(422);
      const done = await b.call("POST", `/api/sandbox/gocardless/flow/${id}`, { authorised: true });
      expect(done.json.data.redirect).toBe(`http://signup.localhost:3000/direct-debit?billing_request=${id}`);
      const saved = await b.call("POST", "/api/gocardless/sync-payment-method", { billing_request: id });
      expect(saved.json.data).toMatchObject({ type: "gocardless_bank_account", account_number: "12-3140-0071234-00", name: "Kim Joiner" });
      await b.call("PUT", "/api/me/register-fields", fields);
      expect(
        (await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: "direct-debit-key-0001" }))
          .status,
      ).toBe(201);
      const joined = (await b.call("GET", "/api/me/active-subscription")).json.data;
      // A direct debit takes days to clear: on its way, not failed, and no card surcharge.
      expect(joined).toMatchObject({ failed: false, first_payment: { method: "gocardless_bank_account", surcharge: 0, outcome: "not_failed" } });
      expect((await b.call("GET", "/api/me")).json.data.membership_confirmed).toBe(true);
    } finally {
      await env.db.update(gyms).set({ gocardless_organisation_id: null }).where(eq(gyms.id, gym.id));
    }
  });

  it("connects a bank through the open-banking consent: state checked, code good once, an account that can pay chosen", async () => {
    const [account] = await env.db
      .insert(destination_accounts)
      .values({ organisation_id: gym.organisation_id, gym_id: gym.id, name: "Mt Eden", bank_account_number: "12-3140-0712345-00" })
      .returning();
    try {
      const { b } = await joiner();
      const other = await joiner();
      await b.call("POST", "/api/profile-picture", await photo());
      expect((await b.call("GET", "/api/me/signup")).json.data.methods.map((m: { kind: string }) => m.kind)).toEqual(["stripe_card", "bank_account"]);
      const { url } = (await b.call("GET", "/api/akahu/auth-url")).json.data;
      const id = new URL(url).pathname.split("/").pop()!;
      expect(url).toBe(`http://signup.localhost:3000/sandbox/akahu/authorize/${id}`);
      expect((await b.call("POST", `/api/sandbox/akahu/authorize/${id}`, { accounts: [] })).status).toBe(422);
      const allowed = await b.call("POST", `/api/sandbox/akahu/authorize/${id}`, { accounts: ["acc_sandbox_everyday", "acc_sandbox_savings"] });
      const back = new URL(allowed.json.data.redirect);
      expect(back.pathname).toBe("/bank-account-connected");
      const code = back.searchParams.get("code")!;
      const state = back.searchParams.get("state")!;
      // Someone else's return, or a state altered, connects nothing.
      expect((await other.b.call("POST", "/api/akahu/exchange", { code, state })).status).toBe(422);
      expect((await b.call("POST", "/api/akahu/exchange", { code, state: state.replace(/.$/, (ch) => (ch === "A" ? "B" : "A")) })).status).toBe(422);
      expect((await b.call("POST", "/api/akahu/sync-accounts", {})).status).toBe(409);
      expect((await b.call("POST", "/api/akahu/exchange", { code, state })).status).toBe(200);
      // A code is good once.
      expect((await b.call("POST", "/api/akahu/exchange", { code, state })).status).toBe(422);
      const listed = (await b.call("POST", "/api/akahu/sync-accounts", {})).json.data.accounts;
      expect(listed.map((a: { id: string; can_pay: boolean }) => [a.id, a.can_pay])).toEqual([
        ["acc_sandbox_everyday", true],
        ["acc_sandbox_savings", false],
      ]);
      expect((await b.call("POST", "/api/akahu/sync-accounts", { account_id: "acc_sandbox_savings" })).status).toBe(422);
      const chosen = await b.call("POST", "/api/akahu/sync-accounts", { account_id: "acc_sandbox_everyday" });
      expect(chosen.json.data.payment_type).toMatchObject({ type: "bank_account", account_number: "12-3140-0071234-00" });
      expect(JSON.stringify((await b.call("GET", "/api/me")).json)).not.toContain("user_token");
      await b.call("PUT", "/api/me/register-fields", fields);
      expect(
        (await b.call("POST", "/api/subscriptions", { price_id: weekly.id, start_date: "2026-12-02", terms: "on", idempotency_key: "bank-account-key-0001" }))
          .status,
      ).toBe(201);
      expect((await b.call("GET", "/api/me/active-subscription")).json.data).toMatchObject({
        failed: false,
        first_payment: { method: "bank_account", surcharge: 0 },
      });
    } finally {
      await env.db.delete(destination_accounts).where(eq(destination_accounts.id, account.id));
    }
  });

  it("is the member's own: staff and people not signed in are refused", async () => {
    const staff = await signedIn(api, env.db, "desk@signup.example.com", "signup staff passphrase");
    expect((await staff.call("GET", "/api/me/signup")).status).toBe(403);
    expect((await staff.call("POST", "/api/subscriptions", {})).status).toBe(403);
    const nobody = browser(api);
    expect((await nobody.call("GET", "/api/me/active-subscription")).status).toBe(401);
    expect((await nobody.call("POST", "/api/profile-picture", await photo())).status).toBe(401);
    const { b } = await joiner();
    const [theirs] = await env.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.organisation_id, gym.organisation_id)));
    expect((await b.call("POST", `/api/me/payment-types/${theirs?.id ?? 1}/switch`)).status).toBe(404);
  });
});
