import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay, startOfLocalDay } from "../../domain/dates";
import { hashPassword } from "../../server/core/auth/password";
import { createApi } from "../../server/api/app";
import { access_control_credentials, gyms, mail_outbox, payment_types, payments, price_changes, sandbox_door_members, subscription_events, subscription_pauses, subscriptions } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * The membership actions (issue 12) through the API, on a fixed day: Wednesday 2 December 2026, 10 am in Auckland.
 * Each previews its effect, applies it with the version the page showed, and records it; bad input changes nothing.
 */
const PASSWORD = "lifecycle test passphrase";
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let org: { id: number };
let gym: { id: number };
let weekly: Awaited<ReturnType<typeof makePrice>>;
let dearer: Awaited<ReturnType<typeof makePrice>>;
let monthly: Awaited<ReturnType<typeof makePrice>>;
let term: Awaited<ReturnType<typeof makePrice>>;
let pif: Awaited<ReturnType<typeof makePrice>>;
let foreignPrice: Awaited<ReturnType<typeof makePrice>>;
let n = 0;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW, providers: sandboxProviders(env.db) });
  org = await makeOrganisation(env.db, { name: "Lifecycle Gyms" });
  gym = await makeGym(env.db, org.id, "Ponsonby");
  await env.db.update(gyms).set({ break_fee_percentage: 50, price_change_notification_reply_to: "manager@ponsonby.example.com" }).where(eq(gyms.id, gym.id));
  const offering = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  weekly = await makePrice(env.db, offering, { amount: 2_500, billing_frequency: "weekly" });
  dearer = await makePrice(env.db, offering, { amount: 2_900, billing_frequency: "weekly" });
  monthly = await makePrice(env.db, offering, { amount: 9_900, billing_frequency: "monthly" });
  term = await makePrice(env.db, offering, { amount: 2_000, billing_frequency: "weekly", term_amount: 12, term_unit: "month" });
  pif = await makePrice(env.db, offering, { amount: 60_000, billing_frequency: "one_off", term_amount: 12, term_unit: "month" });
  const other = await makeOrganisation(env.db, { name: "Somebody Else" });
  foreignPrice = await makePrice(env.db, await makeOffering(env.db, other.id, { name: "Theirs" }), { amount: 100, billing_frequency: "weekly" });
  const hash = await hashPassword(PASSWORD);
  const a = await makeUser(env.db, { name: "life admin", email: "life.admin@example.com", password_hash: hash });
  await addStaff(env.db, a.id, org.id, "admin");
  const tr = await makeUser(env.db, { name: "life trainer", email: "life.trainer@example.com", password_hash: hash });
  await addStaff(env.db, tr.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
  admin = await signedIn(api, env.db, a.email, PASSWORD);
  trainer = await signedIn(api, env.db, tr.email, PASSWORD);
});
afterAll(() => env.close());

/** A member paying weekly by card since Monday 2 November 2026, paid up to Monday 7 December. */
async function member(price = weekly, extra: Partial<typeof subscriptions.$inferInsert> = {}, card = "pm_card_visa") {
  const user = await makeUser(env.db, { name: `life member ${++n}`, email: `life${n}@example.com` });
  const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { last_four: card.slice(-4), payment_method: card } }).returning();
  await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
  const s = await makeSubscription(env.db, price, user.id, gym.id, {
    billing_anchor: "2026-11-02",
    current_period_start: startOfLocalDay("2026-11-30"),
    current_period_end: startOfLocalDay("2026-12-07"),
    ...extra,
  });
  return { user, s };
}

const sub = async (id: number) => (await env.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
const view = async (id: number) => (await admin.call("GET", `/api/subscriptions/${id}`)).json.data;
const events = async (userId: number) => (await admin.call("GET", `/api/members/${userId}/events`)).json.data.data;

describe("pausing", () => {
  it("previews the pause (the next charge moves by its length), then applies it and records it", async () => {
    const { user, s } = await member();
    const body = { action: "pause", start: "2026-12-10", end: "2026-12-24", reason: "Holiday", version: s.version };
    const preview = await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { ...body, preview: true });
    expect(preview.status).toBe(200);
    expect(preview.json.data.preview).toMatchObject({
      days: 14,
      nextChargeBefore: { day: "2026-12-07", amount: 2_500 },
      // The charge of 7 December comes before the pause; the one of 14 December falls inside it and moves 14 days.
      nextChargeAfter: { day: "2026-12-07", amount: 2_500 },
      card: { label: "Paused", colour: "amber", detail: "Paused until 24 Dec 2026" },
    });
    expect(await env.db.select().from(subscription_pauses).where(eq(subscription_pauses.subscription_id, s.id))).toEqual([]);
    const applied = await admin.call("POST", `/api/subscriptions/${s.id}/pause`, body);
    expect(applied.status).toBe(200);
    const after = await sub(s.id);
    expect([localDay(after.pause_start_at!), localDay(after.pause_end_at!), after.version]).toEqual(["2026-12-10", "2026-12-24", s.version + 1]);
    const v = await view(s.id);
    expect(v.pauses).toMatchObject([{ start: "2026-12-10", end: "2026-12-24", reason: "Holiday", can_remove: true, can_end: false }]);
    expect((await events(user.id))[0]).toMatchObject({ action: "pause.pause", summary: "Paused from 10 Dec 2026 until 24 Dec 2026 (14 days): Holiday", actor: { name: "life admin" } });
    // Removed before it starts.
    const removed = await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "remove", pause_id: v.pauses[0].id, version: v.version });
    expect(removed.status).toBe(200);
    expect([(await sub(s.id)).pause_start_at, (await view(s.id)).pauses]).toEqual([null, []]);
  });

  it("ends a running pause early, and moves the next charge back", async () => {
    const { s } = await member(weekly, { current_period_end: startOfLocalDay("2026-11-30") });
    await env.db.insert(subscription_pauses).values({ organisation_id: org.id, subscription_id: s.id, start_day: "2026-11-25", end_day: "2026-12-23" });
    await env.db.update(subscriptions).set({ pause_start_at: startOfLocalDay("2026-11-25"), pause_end_at: startOfLocalDay("2026-12-23") }).where(eq(subscriptions.id, s.id));
    const v = await view(s.id);
    expect(v.state).toBe("paused");
    expect(v.next_charge).toEqual({ day: "2026-12-28", amount: 2_500 });
    const body = { action: "end", pause_id: v.pauses[0].id, end: "2026-12-02", version: v.version };
    const preview = (await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { ...body, preview: true })).json.data.preview;
    expect([preview.days, preview.nextChargeAfter, preview.card.label]).toEqual([7, { day: "2026-12-07", amount: 2_500 }, "Active"]);
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/pause`, body)).status).toBe(200);
    expect((await view(s.id)).next_charge).toEqual({ day: "2026-12-07", amount: 2_500 });
    // Over today: the subscription holds no pause now; its record keeps the day it ended.
    expect((await sub(s.id)).pause_end_at).toBeNull();
    expect((await env.db.select().from(subscription_pauses).where(eq(subscription_pauses.subscription_id, s.id)))[0]).toMatchObject({ end_day: "2026-12-02" });
  });

  it("refuses a pause that ends before it starts, starts in the past or overlaps another, and changes nothing", async () => {
    const { s } = await member();
    const bad = await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-20", end: "2026-12-10", version: s.version });
    expect([bad.status, bad.json.errors.end]).toEqual([422, ["The pause must end after it starts"]]);
    const past = await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-11-20", end: "2026-12-10", version: s.version });
    expect(past.json.errors.start).toEqual(["The pause cannot start in the past"]);
    const notADay = await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-02-30", end: "", version: s.version });
    expect(notADay.status).toBe(422);
    expect(Object.keys(notADay.json.errors).sort()).toEqual(["end", "start"]);
    expect((await sub(s.id)).version).toBe(s.version);
    await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-10", end: "2026-12-24", version: s.version });
    const overlap = await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-20", end: "2027-01-05", version: s.version + 1 });
    expect(overlap.json.errors.start[0]).toMatch(/overlaps the pause from 10 Dec 2026 to 24 Dec 2026/);
  });

  it("adjusts the pause-days credit in whole days, never below nothing", async () => {
    const { s } = await member(weekly, { pause_days_credit: 5 });
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "credit", days: "2.5", version: s.version })).json.errors.days).toEqual(["Enter a whole number of days"]);
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "credit", days: -6, version: s.version })).json.errors.days).toEqual(["The credit is 5 days: take away at most that many"]);
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { action: "credit", days: 9, version: s.version })).status).toBe(200);
    expect((await view(s.id)).pause_days_credit).toBe(14);
  });

  it("tells the second of two staff acting at once that the membership changed, and applies the first only", async () => {
    const { s } = await member();
    const body = { action: "pause", start: "2026-12-10", end: "2026-12-17", version: s.version };
    const [first, second] = [await admin.call("POST", `/api/subscriptions/${s.id}/pause`, body), await admin.call("POST", `/api/subscriptions/${s.id}/pause`, { ...body, start: "2026-12-20", end: "2026-12-27" })];
    expect(first.status).toBe(200);
    expect(second.status).toBe(409);
    expect(second.json.message).toMatch(/changed by someone else since you opened this page/);
    expect(await env.db.select().from(subscription_pauses).where(eq(subscription_pauses.subscription_id, s.id))).toHaveLength(1);
  });
});

describe("cancelling", () => {
  it("at the end of the paid period keeps access until then, and can be undone until then", async () => {
    const { s } = await member();
    const body = { when: "period_end", reasons: ["moving_away"], comments: "Off to Dunedin", version: s.version };
    const preview = (await admin.call("POST", `/api/subscriptions/${s.id}/cancel`, { ...body, preview: true })).json.data.preview;
    expect(preview).toMatchObject({ accessEnds: "2026-12-07", breakFee: 0, undoUntil: "2026-12-07", card: { label: "Cancelled", colour: "green", detail: "Cancelled: access until 7 Dec 2026" } });
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/cancel`, body)).status).toBe(200);
    const cancelled = await sub(s.id);
    expect([cancelled.cancellation_reasons, cancelled.cancellation_comments, localDay(cancelled.undo_cancellation_until!)]).toEqual([["moving_away"], "Off to Dunedin", "2026-12-07"]);
    expect((await view(s.id)).actions.undo_cancel).toBe(true);
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/undo-cancel`, { version: cancelled.version })).status).toBe(200);
    expect((await sub(s.id)).cancelled_at).toBeNull();
  });

  it("a term after its cooling-off window pays the break fee, charged at once, and cannot be undone", async () => {
    const { s } = await member(term, { term_ends_at: startOfLocalDay("2027-11-02"), cooling_period_ends_at: startOfLocalDay("2026-11-09") });
    const body = { when: "period_end", reasons: ["cost"], version: s.version };
    const preview = (await admin.call("POST", `/api/subscriptions/${s.id}/cancel`, { ...body, preview: true })).json.data.preview;
    // 48 weekly charges left in the term (7 December 2026 to 1 November 2027), half of their $960.
    expect([preview.breakFee, preview.coolingOff, preview.undoUntil]).toEqual([48_000, false, null]);
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/cancel`, body)).status).toBe(200);
    const [fee] = await env.db.select().from(payments).where(eq(payments.subscription_id, s.id));
    expect([fee.type, fee.amount, fee.status]).toEqual(["break_fee", 48_000, "sent"]);
    expect((await sub(s.id)).undo_cancellation_until).toBeNull();
  });

  it("a term inside its cooling-off window is free; cancelling now ends access today", async () => {
    const { s } = await member(term, { term_ends_at: startOfLocalDay("2027-11-30"), cooling_period_ends_at: startOfLocalDay("2026-12-07") });
    const preview = (await admin.call("POST", `/api/subscriptions/${s.id}/cancel`, { when: "now", reasons: ["injury_or_health"], version: s.version, preview: true })).json.data.preview;
    expect([preview.breakFee, preview.coolingOff, preview.accessEnds, preview.unusedDays, preview.undoUntil]).toEqual([0, true, "2026-12-02", 5, null]);
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/cancel`, { when: "now", reasons: ["injury_or_health"], version: s.version })).status).toBe(200);
    const after = await sub(s.id);
    expect([after.cancelled_during_cooling_off_period, after.current_period_end!.getTime() <= NOW.getTime()]).toEqual([true, true]);
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/cancel`, { when: "now", reasons: ["cost"], version: after.version })).json.errors._).toEqual(["This membership is cancelled already"]);
  });

  it("needs a reason", async () => {
    const { s } = await member();
    const res = await admin.call("POST", `/api/subscriptions/${s.id}/cancel`, { when: "period_end", version: s.version });
    expect([res.status, res.json.errors.reasons]).toEqual([422, ["Choose at least one reason"]]);
  });
});

describe("scheduling a price change", () => {
  it("previews the member's e-mail (Reply-To the gym), schedules the change, e-mails the member, and can be removed", async () => {
    const { user, s } = await member();
    const body = { subscription_id: s.id, price_id: dearer.id, from: "period_end", notify: true, version: s.version };
    const email = (await admin.call("POST", "/api/subscriptions/change-price-email-preview", body)).json.data;
    expect(email).toMatchObject({ to: user.email, reply_to: "manager@ponsonby.example.com", subject: "Your Ponsonby membership price is changing" });
    expect(email.text).toContain("changes from $25.00 to $29.00 weekly, from 7 Dec 2026");
    const preview = (await admin.call("POST", "/api/subscriptions/schedule-price-change", { ...body, preview: true })).json.data.preview;
    expect([preview.takesEffect, preview.nextChargeAfter]).toEqual(["2026-12-07", { day: "2026-12-07", amount: 2_900 }]);
    expect((await admin.call("POST", "/api/subscriptions/schedule-price-change", body)).status).toBe(200);
    const after = await sub(s.id);
    expect([after.transition_to_price_id, localDay(after.transition_takes_effect_at!)]).toEqual([dearer.id, "2026-12-07"]);
    const [mail] = await env.db.select().from(mail_outbox).where(eq(mail_outbox.to, user.email));
    expect(mail.reply_to).toBe("manager@ponsonby.example.com");
    expect((await env.db.select().from(price_changes).where(eq(price_changes.subscription_id, s.id)))[0]).toMatchObject({ to_amount: 2_900, from_amount: 2_500 });
    expect((await view(s.id)).scheduled_price_change).toMatchObject({ amount: 2_900, takes_effect: "2026-12-07" });
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/remove-price-change`, { version: after.version })).status).toBe(200);
    expect((await sub(s.id)).transition_to_price_id).toBeNull();
  });

  it("refuses another organisation's price, another billing rhythm, and a day in the past", async () => {
    const { s } = await member();
    const base = { subscription_id: s.id, from: "period_end", version: s.version, preview: true };
    expect((await admin.call("POST", "/api/subscriptions/schedule-price-change", { ...base, price_id: foreignPrice.id })).json.errors.price_id).toEqual(["Choose a price from the list"]);
    expect((await admin.call("POST", "/api/subscriptions/schedule-price-change", { ...base, price_id: monthly.id })).json.errors.price_id[0]).toMatch(/Choose a weekly price/);
    expect((await admin.call("POST", "/api/subscriptions/schedule-price-change", { ...base, price_id: term.id })).json.errors.price_id).toEqual(["A term price is sold as a new membership, not by a price change"]);
    expect((await admin.call("POST", "/api/subscriptions/schedule-price-change", { ...base, price_id: dearer.id, from: "date", date: "2026-12-01" })).json.errors.date).toEqual(["Choose a day from tomorrow"]);
    expect((await admin.call("POST", "/api/subscriptions/schedule-price-change", { ...base, price_id: dearer.id, from: "date" })).json.errors.date).toEqual(["Enter the day the new price starts"]);
  });
});

describe("starting now", () => {
  it("starts an upcoming membership today with a pro-rata to its billing day, charged at once", async () => {
    const { s } = await member(weekly, { upcoming_state: "upcoming", current_period_start: startOfLocalDay("2026-12-14"), current_period_end: startOfLocalDay("2026-12-21"), billing_anchor: "2026-12-14" });
    await makePayment(env.db, s, { amount: 2_500, status: "upcoming", period_start_at: startOfLocalDay("2026-12-14"), period_end_at: startOfLocalDay("2026-12-21"), idempotency_key: `charge:${s.id}:2026-12-14:0` });
    const data = (await admin.call("GET", `/api/subscriptions/${s.id}/start-early-data`)).json.data;
    // Wednesday to the Monday billing day: 5 of 7 days of $25.00.
    expect(data.firstPayment).toMatchObject({ amount: 1_786, isProRata: true, covers: { start: "2026-12-02", end: "2026-12-07" } });
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/start-now`, { version: s.version })).status).toBe(200);
    const after = await sub(s.id);
    expect([after.upcoming_state, localDay(after.current_period_start!), localDay(after.current_period_end!)]).toEqual([null, "2026-12-02", "2026-12-07"]);
    const rows = await env.db.select().from(payments).where(eq(payments.subscription_id, s.id));
    expect(rows.map((p) => [p.amount, p.status, p.is_pro_rata])).toEqual([[1_786, "sent", true]]);
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/start-now`, { version: after.version })).json.errors._).toEqual(["Only a membership that has not started can be started now"]);
  });
});

describe("taking money", () => {
  async function owing(extra: Partial<typeof subscriptions.$inferInsert> = {}, card = "pm_card_visa") {
    const m = await member(weekly, { grace_period_ends_at: startOfLocalDay("2026-12-08"), ...extra }, card);
    await makePayment(env.db, m.s, { amount: 2_500, status: "failed", error_status: "insufficient_funds", period_start_at: startOfLocalDay("2026-11-30"), period_end_at: startOfLocalDay("2026-12-07"), idempotency_key: `charge:${m.s.id}:2026-11-30:0` });
    return m;
  }

  it("records EFTPOS at the desk against the balance owing: the grace period ends; the same form twice takes it once", async () => {
    const { s } = await owing();
    const body = { method: "eftpos", key: "desk-key-0001", version: s.version };
    const preview = (await admin.call("POST", `/api/subscriptions/${s.id}/manual-payment`, { ...body, preview: true })).json.data.preview;
    expect([preview.total, preview.periods.length, preview.endsGrace]).toEqual([2_500, 1, true]);
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/manual-payment`, body)).status).toBe(200);
    const again = await admin.call("POST", `/api/subscriptions/${s.id}/manual-payment`, body);
    expect([again.status, again.json.data.repeated]).toEqual([200, true]);
    const rows = (await env.db.select().from(payments).where(eq(payments.subscription_id, s.id))).sort((a, b) => a.attempt - b.attempt);
    expect(rows.map((p) => [p.attempt, p.status, p.pif_payment])).toEqual([
      [0, "failed", null],
      [1, "sent", "eftpos"],
    ]);
    expect((await sub(s.id)).grace_period_ends_at).toBeNull();
    expect((await view(s.id)).owing).toEqual({ total: 0, periods: 0 });
  });

  it("charges a stopped member's card now and lets them back in, from the period running today", async () => {
    const { user, s } = await owing({ grace_period_ends_at: null, upcoming_state: "failed", current_period_end: startOfLocalDay("2026-11-30") });
    await env.db.insert(access_control_credentials).values({ organisation_id: org.id, user_id: user.id, gym_id: gym.id, provider: "kisi", kind: "card", status: "suspended" });
    const res = await admin.call("POST", `/api/subscriptions/${s.id}/manual-payment`, { method: "charge", key: "charge-key-0001", version: s.version });
    expect(res.status).toBe(200);
    const after = await sub(s.id);
    // Charged after the commit: paid, the membership runs again, and the period from Monday 30 November is due.
    expect([after.upcoming_state, localDay(after.current_period_end!)]).toEqual([null, "2026-11-30"]);
    const [credential] = await env.db.select().from(access_control_credentials).where(eq(access_control_credentials.user_id, user.id));
    expect(credential.status).toBe("active");
    expect((await env.db.select().from(sandbox_door_members).where(eq(sandbox_door_members.email, user.email)))[0].access_enabled).toBe(true);
  });

  it("waits for a bank transfer until it is marked received", async () => {
    const { s } = await owing();
    const res = await admin.call("POST", `/api/subscriptions/${s.id}/manual-payment`, { method: "bank_transfer", key: "bank-key-00001", version: s.version });
    const [id] = res.json.data.payment_ids;
    expect((await env.db.select().from(payments).where(eq(payments.id, id)))[0].status).toBe("awaiting_payment");
    expect((await sub(s.id)).grace_period_ends_at).not.toBeNull();
    expect((await admin.call("POST", `/api/payments/${id}/received`)).status).toBe(200);
    expect((await env.db.select().from(payments).where(eq(payments.id, id)))[0].status).toBe("sent");
    expect((await sub(s.id)).grace_period_ends_at).toBeNull();
    expect((await admin.call("POST", `/api/payments/${id}/received`)).json.errors.payment).toEqual(["This payment is received already"]);
  });

  it("says when nothing is owed", async () => {
    const { s } = await member();
    expect((await admin.call("POST", `/api/subscriptions/${s.id}/manual-payment`, { method: "cash", key: "nothing-owed-1", version: s.version, preview: true })).json.errors.method).toEqual(["Nothing is owed on this membership"]);
  });
});

describe("paid in full", () => {
  it("sells a paid-in-full membership at the desk to a member without one", async () => {
    const user = await makeUser(env.db, { name: "pif person", email: "pif.person@example.com" });
    await addMember(env.db, user.id, org.id, gym.id);
    const body = { price_id: pif.id, start: "2026-12-02", method: "cash", key: "pif-key-000001" };
    expect((await admin.call("POST", `/api/members/${user.id}/pif`, { ...body, preview: true })).json.data.preview).toMatchObject({ amount: 60_000, ends: "2027-12-02", endsCurrent: null });
    const res = await admin.call("POST", `/api/members/${user.id}/pif`, body);
    expect(res.status).toBe(200);
    const s = await sub(res.json.data.subscription_id);
    expect([localDay(s.pif_ends_at!), s.upcoming_state]).toEqual(["2027-12-02", null]);
    expect((await env.db.select().from(payments).where(eq(payments.subscription_id, s.id))).map((p) => [p.amount, p.status, p.pif_payment])).toEqual([[60_000, "sent", "cash"]]);
  });

  it("follows a running membership (cancelled at its period end), and is refused while a price change is scheduled", async () => {
    const { user, s } = await member();
    const early = await admin.call("POST", `/api/members/${user.id}/pif`, { price_id: pif.id, start: "2026-12-03", method: "eftpos", key: "pif-key-000002", preview: true });
    expect(early.json.errors.start).toEqual(["Their current membership is paid until 7 Dec 2026: start on or after then"]);
    expect((await admin.call("POST", `/api/members/${user.id}/pif`, { price_id: weekly.id, start: "2026-12-07", method: "eftpos", key: "pif-key-000002" })).json.errors.price_id).toEqual(["Choose a paid-in-full price from the list"]);
    expect((await admin.call("POST", `/api/members/${user.id}/pif`, { price_id: pif.id, start: "2026-12-07", method: "eftpos", key: "pif-key-000002" })).status).toBe(200);
    expect((await sub(s.id)).cancellation_comments).toBe("Changed to paid in full");
    const changing = await member();
    await env.db.update(subscriptions).set({ transition_to_price_id: dearer.id }).where(eq(subscriptions.id, changing.s.id));
    expect((await admin.call("POST", `/api/members/${changing.user.id}/pif`, { price_id: pif.id, start: "2026-12-07", method: "cash", key: "pif-key-000003", preview: true })).json.errors._).toEqual(["The member has a price change scheduled: remove it first"]);
  });
});

describe("door access", () => {
  it("shows what the membership allows and what the door system holds, and recreates the member's door login", async () => {
    const { user } = await member();
    await env.db.insert(access_control_credentials).values({ organisation_id: org.id, user_id: user.id, gym_id: gym.id, provider: "kisi", kind: "fob", identifier_hint: "0042" });
    const before = (await admin.call("GET", `/api/members/${user.id}/access-control`)).json.data;
    expect(before).toMatchObject({ allowed: true, door: { provider: "kisi", mode: "sandbox", known: false }, agrees: false });
    expect((await admin.call("POST", `/api/users/${user.id}/recreate-kisi-login`)).json.data).toMatchObject({ allowed: true, door: { known: true, access_enabled: true }, agrees: true });
    expect((await events(user.id))[0].action).toBe("door.recreate");
  });
});

describe("who may", () => {
  it("refuses a personal trainer every change (decision 0022), and lets them read", async () => {
    const { user, s } = await member();
    expect((await trainer.call("GET", `/api/subscriptions/${s.id}`)).json.data.actions).toMatchObject({ pause: false, cancel: false, manual_payment: false });
    for (const [path, body] of [
      [`/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-10", end: "2026-12-17", version: s.version }],
      [`/api/subscriptions/${s.id}/cancel`, { when: "now", reasons: ["cost"], version: s.version }],
      [`/api/subscriptions/${s.id}/manual-payment`, { method: "cash", key: "trainer-key-01", version: s.version }],
      [`/api/members/${user.id}/pif`, { price_id: pif.id, start: "2026-12-07", method: "cash", key: "trainer-key-02" }],
    ] as const) {
      expect((await trainer.call("POST", path, body)).status).toBe(403);
    }
    expect((await sub(s.id)).version).toBe(s.version);
    expect(await env.db.select().from(subscription_events).where(eq(subscription_events.user_id, user.id))).toEqual([]);
  });
});

describe("a new member who paid in full at the desk", () => {
  it("is created with their membership and payment, and invited by e-mail to set a password; the invitation can be sent again", async () => {
    const body = { name: "Desk Joiner", email: "desk.joiner@example.com", gym_id: gym.id, price_id: pif.id, start: "2026-12-02", method: "eftpos", key: "onboard-key-001" };
    const preview = await admin.call("POST", `/api/organisations/${org.id}/members/onboard-pif`, { ...body, preview: true });
    expect(preview.json.data.preview).toMatchObject({ amount: 60_000, ends: "2027-12-02", gym: "Ponsonby", member: { name: "Desk Joiner" } });
    const res = await admin.call("POST", `/api/organisations/${org.id}/members/onboard-pif`, body);
    expect(res.status).toBe(200);
    const { user_id, subscription_id } = res.json.data;
    const member = (await admin.call("GET", `/api/members/${user_id}`)).json.data;
    expect([member.should_onboard, member.invited_at !== null, member.latest_subscription.id]).toEqual([true, true, subscription_id]);
    const mail = (await env.db.select().from(mail_outbox).where(eq(mail_outbox.to, "desk.joiner@example.com"))).find((m) => m.subject === "Welcome to Ponsonby: set your password")!;
    expect(mail).toBeDefined();
    expect(mail.text).toContain("paid in full, from 2 Dec 2026 until 2 Dec 2027");
    expect(mail.text).toMatch(/\/set-password\?token=[\w-]{43}/); // base64url: may hold - and _
    expect((await admin.call("POST", `/api/members/${user_id}/resend-pif-invite`)).status).toBe(200);
    const mails = (await env.db.select().from(mail_outbox).where(eq(mail_outbox.to, "desk.joiner@example.com"))).map((m) => m.subject);
    // Two invitations, and the receipt for what was paid at the desk (issue 31).
    expect(mails.filter((m) => m === "Welcome to Ponsonby: set your password")).toHaveLength(2);
    expect(mails.filter((m) => /^Your Ponsonby receipt R-\d{6}$/.test(m))).toHaveLength(1);
  });

  it("refuses an address that already has an account, another organisation, and a missing name, and writes nothing", async () => {
    const base = { name: "Someone", email: "life.admin@example.com", gym_id: gym.id, price_id: pif.id, start: "2026-12-02", method: "cash", key: "onboard-key-002" };
    const taken = await admin.call("POST", `/api/organisations/${org.id}/members/onboard-pif`, base);
    expect(taken.json.errors.email[0]).toMatch(/can.t be used for a new member here/);
    expect((await admin.call("POST", `/api/organisations/${org.id + 1000}/members/onboard-pif`, { ...base, email: "new.one@example.com" })).status).toBe(404);
    const unnamed = await admin.call("POST", `/api/organisations/${org.id}/members/onboard-pif`, { ...base, name: " ", email: "new.one@example.com" });
    expect(unnamed.json.errors.name).toEqual(["Value is required"]);
    expect((await admin.call("POST", `/api/organisations/${org.id}/members/onboard-pif`, { ...base, email: "new.two@example.com", price_id: weekly.id })).json.errors.price_id).toEqual(["Choose a paid-in-full price from the list"]);
    expect((await env.db.select().from(mail_outbox).where(eq(mail_outbox.to, "new.two@example.com")))).toEqual([]);
  });
});
