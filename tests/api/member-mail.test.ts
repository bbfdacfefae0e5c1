import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { mailSite } from "../../server/member-mail/brand";
import { billing_notices, gyms, mail_outbox, organisation_users, organisations, payment_types, subscriptions, users } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxProviders } from "../../server/core/providers/registry";
import { unsubscribeToken } from "../../server/member-mail/unsubscribe";
import { sendPaymentMail } from "../../server/member-notices/payment-mail";
import { sendSignupReminders } from "../../server/member-notices/signup-reminders";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { browser, setup, signedIn } from "./harness";

/**
 * Issue 31, "E-mails members expect": a receipt for each successful payment (an organisation setting), the welcome
 * with the first payment's receipt for a membership joined online, a change to the membership whoever made it, each
 * once, in the gym's name, with a plain-text part and the unsubscribe rules; and the unsubscribe link itself.
 */
const PASSWORD = "member mail passphrase";
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let org: { id: number };
let gym: { id: number };
let price: Awaited<ReturnType<typeof makePrice>>;
let n = 0;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW, providers: sandboxProviders(env.db) });
  org = await makeOrganisation(env.db, { name: "Mail Gyms" });
  gym = await makeGym(env.db, org.id, "Ponsonby");
  await env.db
    .update(gyms)
    .set({ price_change_notification_reply_to: "desk@ponsonby.example", logo: "/api/public/gyms/abc/logo?v=1" })
    .where(eq(gyms.id, gym.id));
  const offering = await makeOffering(env.db, org.id, { name: "Anytime" });
  price = await makePrice(env.db, offering, { amount: 2_500, billing_frequency: "weekly" });
});
afterAll(() => env.close());

async function member(opts: { joinedOnline?: boolean; emails?: boolean } = {}) {
  const user = await makeUser(env.db, {
    name: `Mia Mail${++n}`,
    email: `mia${n}@example.com`,
    email_notifications: opts.emails ?? true,
    password_hash: await hashPassword(PASSWORD),
  });
  const [card] = await env.db
    .insert(payment_types)
    .values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { type: "visa", last_four: "4242", exp_month: 1, exp_year: 2031 } })
    .returning();
  const s = await makeSubscription(env.db, price, user.id, gym.id, {
    billing_anchor: "2026-11-30",
    current_period_start: startOfLocalDay("2026-11-30"),
    current_period_end: startOfLocalDay("2026-12-07"),
    ...(opts.joinedOnline ? { signup_key: `key-${n}` } : {}),
  });
  await addMember(env.db, user.id, org.id, gym.id, { latest_subscription_id: s.id, default_payment_type_id: card.id });
  return { user, s, card };
}

const paidNow = (
  s: Awaited<ReturnType<typeof makeSubscription>>,
  card: number,
  at = new Date(NOW.getTime() - 3_600_000),
  period = ["2026-11-30", "2026-12-07"],
) =>
  makePayment(env.db, s, {
    amount: 2_500,
    surcharge: 40,
    payment_type_id: card,
    period_start_at: startOfLocalDay(period[0]),
    period_end_at: startOfLocalDay(period[1]),
    created_at: at,
  });

const run = () => sendPaymentMail(env.db, outboxMailer(env.db), sandboxProviders(env.db), NOW, mailSite(env.config));
const mailsTo = (to: string) => env.db.select().from(mail_outbox).where(eq(mail_outbox.to, to)).orderBy(desc(mail_outbox.id));

describe("receipts", () => {
  it("a successful payment sends one receipt in the gym's name, with the receipt's lines in both parts and the unsubscribe rules", async () => {
    const { user, s, card } = await member();
    const p = await paidNow(s, card.id);
    await run();
    await run();
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe(`Your Ponsonby receipt R-${String(p.id).padStart(6, "0")}`);
    expect(mail.reply_to).toBe("desk@ponsonby.example");
    expect(mail.text).toMatch(/Total paid:\s+\$25\.40/);
    expect(mail.text).toMatch(/Card surcharge:\s+\$0\.40/);
    expect(mail.text).toContain("VISA ending 4242");
    expect(mail.text).toContain(`/membership/receipts/${p.id}`);
    expect(mail.html).toContain('src="http://');
    expect(mail.html).toContain("/api/public/gyms/abc/logo?v=1");
    expect(mail.html).toContain("Total paid");
    expect(mail.text).toMatch(/Unsubscribe from Ponsonby's e-mails: http:\/\/\S+\/unsubscribe\?token=/);
    expect(mail.headers?.["List-Unsubscribe"]).toMatch(/^<http:\/\/\S+\/api\/public\/unsubscribe\?token=\S+>$/);
    expect(mail.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("a member with e-mails off gets none, and turning them on later does not send the old one", async () => {
    const { user, s, card } = await member({ emails: false });
    await paidNow(s, card.id);
    await run();
    await env.db.update(users).set({ email_notifications: true }).where(eq(users.id, user.id));
    await run();
    expect(await mailsTo(user.email)).toHaveLength(0);
  });

  it("a payment paid days ago is history, not news", async () => {
    const { user, s, card } = await member();
    await paidNow(s, card.id, new Date(NOW.getTime() - 3 * 86_400_000));
    await run();
    expect(await mailsTo(user.email)).toHaveLength(0);
  });

  it("an organisation that turned receipts off sends none", async () => {
    const { user, s, card } = await member();
    await env.db.update(organisations).set({ payment_receipts: false }).where(eq(organisations.id, org.id));
    try {
      await paidNow(s, card.id);
      await run();
      expect(await mailsTo(user.email)).toHaveLength(0);
    } finally {
      await env.db.update(organisations).set({ payment_receipts: true }).where(eq(organisations.id, org.id));
    }
  });

  it("a payment that becomes successful later is told from then (the trigger keeps when it was paid)", async () => {
    const { user, s, card } = await member();
    const p = await makePayment(env.db, s, {
      amount: 2_500,
      status: "pending",
      payment_type_id: card.id,
      created_at: new Date(NOW.getTime() - 10 * 86_400_000),
    });
    await run();
    expect(await mailsTo(user.email)).toHaveLength(0);
    const { payments } = await import("../../server/core/db/schema");
    const [row] = await env.db.update(payments).set({ status: "sent" }).where(eq(payments.id, p.id)).returning();
    expect(row.paid_at).not.toBeNull();
    // Paid by the database's clock (now); the run looks from the test's NOW, so it is run with the real time here.
    await sendPaymentMail(env.db, outboxMailer(env.db), sandboxProviders(env.db), new Date(), mailSite(env.config));
    expect((await mailsTo(user.email)).map((m) => m.subject)).toEqual([`Your Ponsonby receipt R-${String(p.id).padStart(6, "0")}`]);
  });
});

describe("the welcome", () => {
  it("a membership joined online gets the welcome with its first receipt, then receipts", async () => {
    const { user, s, card } = await member({ joinedOnline: true });
    await paidNow(s, card.id);
    await run();
    const [welcome] = await mailsTo(user.email);
    expect(welcome.subject).toBe("Welcome to Ponsonby");
    expect(welcome.text).toContain("Your membership: Anytime: $25.00 weekly");
    expect(welcome.text).toMatch(/Total paid:\s+\$25\.40/);
    expect(welcome.text).toContain("Getting in:");
    expect(welcome.text).toContain("Get the app:");
    const notices = await env.db.select({ key: billing_notices.key }).from(billing_notices).where(eq(billing_notices.user_id, user.id));
    expect(notices.map((x) => x.key).sort()).toEqual([expect.stringMatching(/^receipt:/), `welcome:${s.id}`]);

    await paidNow(s, card.id, new Date(NOW.getTime() - 60_000), ["2026-12-07", "2026-12-14"]);
    await run();
    expect((await mailsTo(user.email)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Your Ponsonby receipt R-/), "Welcome to Ponsonby"]);
  });
});

describe("changes to the membership", () => {
  it("a pause staff made is told to the member, naming who made it, with the next payment", async () => {
    const staffUser = await makeUser(env.db, { name: "Sam Staff", email: `sam${++n}@example.com`, password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, staffUser.id, org.id, "admin");
    const staff = await signedIn(api, env.db, staffUser.email, PASSWORD);
    const { user, s } = await member();
    const [{ v }] = await env.db.select({ v: subscriptions.version }).from(subscriptions).where(eq(subscriptions.id, s.id));
    const res = await staff.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-14", end: "2026-12-28", version: v });
    expect(res.status).toBe(200);
    const [mail] = await mailsTo(user.email);
    expect(mail.subject).toBe("Your membership is paused");
    expect(mail.text).toContain("Sam Staff at Ponsonby paused your membership from 14 Dec 2026 until 28 Dec 2026.");
    expect(mail.text).toMatch(/Your next payment: \$25\.00 on/);
  });

  it("a member with e-mails off is not told", async () => {
    const staffUser = await makeUser(env.db, { name: "Sal Staff", email: `sal${++n}@example.com`, password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, staffUser.id, org.id, "admin");
    const staff = await signedIn(api, env.db, staffUser.email, PASSWORD);
    const { user, s } = await member({ emails: false });
    const [{ v }] = await env.db.select({ v: subscriptions.version }).from(subscriptions).where(eq(subscriptions.id, s.id));
    const res = await staff.call("POST", `/api/subscriptions/${s.id}/cancel`, { when: "period_end", reasons: ["moving_away"], version: v });
    expect(res.status).toBe(200);
    expect(await mailsTo(user.email)).toHaveLength(0);
  });
});

describe("unsubscribe", () => {
  it("the page's read shows the address partly hidden; a token we did not sign is refused", async () => {
    const { user } = await member();
    const token = unsubscribeToken(env.config.SESSION_SECRET, user.id);
    const b = browser(api);
    const ok = await b.call("GET", `/api/public/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(ok.status).toBe(200);
    expect(ok.json.data).toEqual({ email: expect.stringMatching(/^mi•+@example\.com$/), email_notifications: true });
    for (const bad of ["", `${user.id}.forged`, `${user.id + 1}.${token.split(".")[1]}`, "x.y"]) {
      const res = await b.call("GET", `/api/public/unsubscribe?token=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(404);
      expect(res.json.message).toMatch(/not one of ours/);
    }
  });

  it("a mail app's one-click POST (no cookie, no Origin, form-encoded) turns the member's e-mails off", async () => {
    const { user } = await member();
    const token = unsubscribeToken(env.config.SESSION_SECRET, user.id);
    const res = await api.fetch(
      new Request(`http://localhost:3000/api/public/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }),
      { clientIp: "198.51.100.4" },
    );
    expect(res.status).toBe(200);
    const [u] = await env.db.select({ on: users.email_notifications }).from(users).where(eq(users.id, user.id));
    expect(u.on).toBe(false);
  });

  it("our page's POST carries the token in its body; a forged one changes nothing", async () => {
    const { user } = await member();
    const token = unsubscribeToken(env.config.SESSION_SECRET, user.id);
    const b = browser(api);
    expect((await b.call("POST", "/api/public/unsubscribe", { token: `${user.id}.forged` })).status).toBe(404);
    const [still] = await env.db
      .select({ on: users.email_notifications })
      .from(users)
      .where(and(eq(users.id, user.id)));
    expect(still.on).toBe(true);
    expect((await b.call("POST", "/api/public/unsubscribe", { token })).status).toBe(200);
    const [off] = await env.db.select({ on: users.email_notifications }).from(users).where(eq(users.id, user.id));
    expect(off.on).toBe(false);
  });
});

describe("membership terms", () => {
  it("organisation admins set them (https links only); anyone reads them by the gym's uuid", async () => {
    const adminUser = await makeUser(env.db, { name: "Ada Admin", email: `ada${++n}@example.com`, password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, adminUser.id, org.id, "admin");
    const admin = await signedIn(api, env.db, adminUser.email, PASSWORD);
    const bad = await admin.call("PUT", `/api/organisations/${org.id}/membership-terms`, { text: "Be kind.", url: "javascript:alert(1)" });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.url).toEqual(["Enter a web address starting with https://"]);
    const ok = await admin.call("PUT", `/api/organisations/${org.id}/membership-terms`, { text: "Be kind.\nGive 14 days' notice.", url: "" });
    expect(ok.status).toBe(200);
    expect(ok.json.data.membership_terms).toEqual({ text: "Be kind.\nGive 14 days' notice.", url: null });
    const [g] = await env.db.select({ uuid: gyms.uuid }).from(gyms).where(eq(gyms.id, gym.id));
    const read = await browser(api).call("GET", `/api/public/gyms/${g.uuid}/membership-terms`);
    expect(read.json.data).toEqual({ gym: "Ponsonby", organisation: "Mail Gyms", text: "Be kind.\nGive 14 days' notice.", url: null });
    const mail = await admin.call("PUT", `/api/organisations/${org.id}/member-mail`, { payment_receipts: false, signup_reminders: true });
    expect(mail.json.data).toMatchObject({ payment_receipts: false, signup_reminders: true });
    await admin.call("PUT", `/api/organisations/${org.id}/member-mail`, { payment_receipts: true, signup_reminders: false });
  });
});

describe("the reminder to finish joining", () => {
  async function stopped(hoursAgo: number, extra: Partial<typeof users.$inferInsert> = {}) {
    const at = new Date(NOW.getTime() - hoursAgo * 3_600_000);
    const user = await makeUser(env.db, { name: `Sol Stopped${++n}`, email: `sol${n}@example.com`, email_verified_at: at, ...extra });
    await addMember(env.db, user.id, org.id, gym.id);
    await env.db.update(users).set({ updated_at: at }).where(eq(users.id, user.id));
    await env.db.update(organisation_users).set({ updated_at: at }).where(eq(organisation_users.user_id, user.id));
    return user;
  }
  const remind = () => sendSignupReminders(env.db, outboxMailer(env.db), NOW, mailSite(env.config));

  it("is off by default; once on, a person who stopped a day ago is reminded once, with the step they reached and a link to sign in", async () => {
    const user = await stopped(30);
    const fresh = await stopped(2);
    const old = await stopped(24 * 5);
    const emailsOff = await stopped(30, { email_notifications: false });
    await remind();
    expect(await mailsTo(user.email)).toHaveLength(0);
    await env.db.update(organisations).set({ signup_reminders: true }).where(eq(organisations.id, org.id));
    try {
      await remind();
      await remind();
      const mails = await mailsTo(user.email);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe("Finish joining Ponsonby");
      expect(mails[0].text).toContain("stopped at taking your photo");
      expect(mails[0].text).toContain(`/sign-in?email=${encodeURIComponent(user.email)}`);
      for (const u of [fresh, old, emailsOff]) expect(await mailsTo(u.email), u.email).toHaveLength(0);
    } finally {
      await env.db.update(organisations).set({ signup_reminders: false }).where(eq(organisations.id, org.id));
    }
  });
});

describe("a reply from the gym in Messages", () => {
  it("reaches the member by e-mail with a link to read and answer; not one who turned e-mails off", async () => {
    await env.db.update(organisations).set({ calendar_and_messaging: true }).where(eq(organisations.id, org.id));
    const staffUser = await makeUser(env.db, { name: "Rua Reply", email: `rua${++n}@example.com`, password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, staffUser.id, org.id, "admin");
    const staff = await signedIn(api, env.db, staffUser.email, PASSWORD);
    const { user } = await member();
    const quiet = await member({ emails: false });
    expect((await staff.call("POST", "/api/messaging/send", { member_id: user.id, body: "Your towel is at the desk." })).status).toBe(201);
    expect((await staff.call("POST", "/api/messaging/send", { member_id: quiet.user.id, body: "Your towel is at the desk." })).status).toBe(201);
    const [mail] = await mailsTo(user.email);
    expect(mail.subject).toBe("Rua at Ponsonby replied to you");
    expect(mail.text).toContain("Your towel is at the desk.");
    expect(mail.text).toMatch(/Read and answer: http:\/\/\S+\/membership\/messages/);
    expect(await mailsTo(quiet.user.email)).toHaveLength(0);
  });
});
