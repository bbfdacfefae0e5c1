import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { billingRun } from "../../server/billing/run";
import { hashPassword } from "../../server/core/auth/password";
import { gyms, mail_outbox, organisations, payment_types, payments, subscription_events, subscriptions } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxProviders } from "../../server/core/providers/registry";
import { systemClock } from "../../server/core/providers/clock";
import { applyDueCancellations } from "../../server/subscriptions/scheduled-cancel";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * Issue 31, "Pause and cancel where the organisation allows members to" (decision 0058): off by default; with the
 * organisation's limits; the same previews and writes as staff's, the member named in the history; notice that runs
 * past the paid period makes a cancellation that waits for its day, with the payments before it still taken.
 * The clock: Wednesday 2 December 2026, 10 am in Auckland.
 */
const PASSWORD = "member actions passphrase";
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let org: { id: number };
let gym: { id: number };
let weekly: Awaited<ReturnType<typeof makePrice>>;
let n = 0;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW, providers: sandboxProviders(env.db) });
  org = await makeOrganisation(env.db, { name: "Member Action Gyms" });
  gym = await makeGym(env.db, org.id, "Kingsland");
  const offering = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  weekly = await makePrice(env.db, offering, { amount: 2_500, billing_frequency: "weekly" });
});
afterAll(() => env.close());

const rules = (values: Partial<typeof organisations.$inferInsert>) => env.db.update(organisations).set(values).where(eq(organisations.id, org.id));

/** A weekly card member since Monday 2 November 2026, paid up to Monday 7 December, signed in as themselves. */
async function member(extra: Partial<typeof subscriptions.$inferInsert> = {}) {
  const user = await makeUser(env.db, {
    name: `Max Member${++n}`,
    email: `max${n}@example.com`,
    password_hash: await hashPassword(PASSWORD),
    current_organisation_id: org.id,
  });
  const [pt] = await env.db
    .insert(payment_types)
    .values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { last_four: "4242", payment_method: "pm_card_visa" } })
    .returning();
  const s = await makeSubscription(env.db, weekly, user.id, gym.id, {
    billing_anchor: "2026-11-02",
    current_period_start: startOfLocalDay("2026-11-30"),
    current_period_end: startOfLocalDay("2026-12-07"),
    ...extra,
  });
  await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id, latest_subscription_id: s.id });
  const b = await signedIn(api, env.db, user.email, PASSWORD);
  const version = async () => (await env.db.select({ v: subscriptions.version }).from(subscriptions).where(eq(subscriptions.id, s.id)))[0].v;
  return { user, s, b, version };
}

const lastEvent = async (subscriptionId: number) =>
  (
    await env.db
      .select()
      .from(subscription_events)
      .where(eq(subscription_events.subscription_id, subscriptionId))
      .orderBy(desc(subscription_events.id))
      .limit(1)
  )[0];
const mailsTo = (to: string) => env.db.select().from(mail_outbox).where(eq(mail_outbox.to, to)).orderBy(desc(mail_outbox.id));

describe("off by default", () => {
  it("refuses a pause and a cancellation, and the membership page says to ask the gym", async () => {
    const { b, version } = await member();
    const actions = (await b.call("GET", "/api/me/membership/actions")).json.data;
    expect(actions).toMatchObject({ pause: { offered: false, allowed: false }, cancel: { offered: false, allowed: false }, undo: { allowed: false } });
    const pause = await b.call("POST", "/api/me/membership/pause", { start: "2026-12-10", end: "2026-12-17", version: await version(), preview: true });
    expect([pause.status, pause.json.errors._]).toEqual([422, ["Your gym does not let members pause their own membership here: ask the gym"]]);
    const cancel = await b.call("POST", "/api/me/membership/cancel", { reasons: ["cost"], version: await version() });
    expect([cancel.status, cancel.json.errors._]).toEqual([422, ["Your gym does not let members cancel their own membership here: ask the gym"]]);
  });
});

describe("pausing", () => {
  it("within the organisation's days a year, from tomorrow, with the preview staff see; the history names the member and they are e-mailed", async () => {
    await rules({ members_may_pause: true, member_pause_days_per_year: 14 });
    const { user, s, b, version } = await member();
    const today = await b.call("POST", "/api/me/membership/pause", { start: "2026-12-02", end: "2026-12-09", version: await version(), preview: true });
    expect(today.json.errors.start).toEqual(["Choose a day from tomorrow"]);
    const preview = await b.call("POST", "/api/me/membership/pause", { start: "2026-12-07", end: "2026-12-17", version: await version(), preview: true });
    expect(preview.status).toBe(200);
    expect(preview.json.data.preview).toMatchObject({
      days: 10,
      daysLeftAfter: 4,
      nextChargeBefore: { day: "2026-12-07", amount: 2_500 },
      nextChargeAfter: { day: "2026-12-17", amount: 2_500 },
    });
    const done = await b.call("POST", "/api/me/membership/pause", { start: "2026-12-07", end: "2026-12-17", version: await version() });
    expect(done.status).toBe(200);
    const event = await lastEvent(s.id);
    expect([event.action, event.actor_id]).toEqual(["pause.pause", user.id]);
    const [mail] = await mailsTo(user.email);
    expect(mail.subject).toBe("Your membership is paused");
    expect(mail.text).toContain("You paused your membership from 7 Dec 2026 until 17 Dec 2026.");

    const more = await b.call("POST", "/api/me/membership/pause", { start: "2027-01-04", end: "2027-01-11", version: await version(), preview: true });
    expect(more.json.errors.end).toEqual(["You can pause for at most 4 more days in this twelve months (14 a year)"]);
    expect((await b.call("GET", "/api/me/membership/actions")).json.data.pause).toMatchObject({ allowed: true, days_left: 4 });
  });
});

describe("cancelling", () => {
  it("with no notice: at the end of the paid period; the member may undo their own cancellation", async () => {
    await rules({ members_may_cancel: true, member_cancel_notice_days: 0 });
    const { user, s, b, version } = await member();
    const preview = (await b.call("POST", "/api/me/membership/cancel", { reasons: ["moving_away"], version: await version(), preview: true })).json.data
      .preview;
    expect(preview).toMatchObject({ scheduled: false, accessEnds: "2026-12-07", undoUntil: "2026-12-07", paymentsBefore: [], breakFee: 0 });
    expect((await b.call("POST", "/api/me/membership/cancel", { reasons: ["moving_away"], version: await version() })).status).toBe(200);
    const [after] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect(after.cancelled_at).not.toBeNull();
    expect([(await lastEvent(s.id)).action, (await lastEvent(s.id)).actor_id]).toEqual(["cancel", user.id]);
    expect((await mailsTo(user.email))[0].text).toContain("You cancelled your membership at the end of the period you have paid for.");

    expect((await b.call("GET", "/api/me/membership/actions")).json.data.undo).toEqual({ allowed: true, scheduled: false });
    expect((await b.call("POST", "/api/me/membership/undo-cancel", { version: await version() })).status).toBe(200);
    const [undone] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect(undone.cancelled_at).toBeNull();
  });

  it("a cancellation staff made is not the member's to undo", async () => {
    await rules({ members_may_cancel: true, member_cancel_notice_days: 0 });
    const staffUser = await makeUser(env.db, { name: "Stel Staff", email: `stel${++n}@example.com`, password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, staffUser.id, org.id, "admin");
    const staff = await signedIn(api, env.db, staffUser.email, PASSWORD);
    const { s, b, version } = await member();
    expect((await staff.call("POST", `/api/subscriptions/${s.id}/cancel`, { when: "period_end", reasons: ["other"], version: await version() })).status).toBe(
      200,
    );
    expect((await b.call("GET", "/api/me/membership/actions")).json.data.undo.allowed).toBe(false);
    const refused = await b.call("POST", "/api/me/membership/undo-cancel", { version: await version() });
    expect([refused.status, refused.json.errors._]).toEqual([422, ["The gym cancelled your membership: ask them to undo it"]]);
  });

  it("a term that costs a break fee to leave is the gym's to cancel", async () => {
    await rules({ members_may_cancel: true, member_cancel_notice_days: 0 });
    await env.db.update(gyms).set({ break_fee_percentage: 50 }).where(eq(gyms.id, gym.id));
    try {
      const { b, version } = await member({ term_ends_at: startOfLocalDay("2027-11-02"), cooling_period_ends_at: startOfLocalDay("2026-11-09") });
      const refused = await b.call("POST", "/api/me/membership/cancel", { reasons: ["cost"], version: await version(), preview: true });
      expect(refused.status).toBe(422);
      expect(refused.json.errors._[0]).toMatch(/^Your membership is in its term, and leaving early costs a break fee/);
    } finally {
      await env.db.update(gyms).set({ break_fee_percentage: null }).where(eq(gyms.id, gym.id));
    }
  });

  it("with notice past the paid period: it waits for its day, the payments before it are taken, then the billing job cancels it", async () => {
    await rules({ members_may_cancel: true, member_cancel_notice_days: 14 });
    const { user, s, b, version } = await member();
    const preview = (await b.call("POST", "/api/me/membership/cancel", { reasons: ["cost"], version: await version(), preview: true })).json.data.preview;
    // Notice runs to Wednesday 16 December: the weeks from 7 and 14 December are still paid; access until 21 December.
    expect(preview).toMatchObject({
      scheduled: true,
      accessEnds: "2026-12-21",
      paymentsBefore: [
        { day: "2026-12-07", amount: 2_500 },
        { day: "2026-12-14", amount: 2_500 },
      ],
    });
    expect((await b.call("POST", "/api/me/membership/cancel", { reasons: ["cost"], version: await version() })).status).toBe(200);
    const [waiting] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect([waiting.cancelled_at, waiting.cancel_at?.toISOString()]).toEqual([null, startOfLocalDay("2026-12-21").toISOString()]);
    expect((await lastEvent(s.id)).action).toBe("cancel.scheduled");
    expect((await mailsTo(user.email))[0].text).toContain("these payments are still taken: $25.00 on 7 Dec 2026, $25.00 on 14 Dec 2026.");
    // Staff see it on the status card, with no next billing date past it.
    const staffUser = await makeUser(env.db, { name: "Sid Staff", email: `sid${++n}@example.com`, password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, staffUser.id, org.id, "admin");
    const staff = await signedIn(api, env.db, staffUser.email, PASSWORD);
    const card = (await staff.call("GET", `/api/members/${user.id}`)).json.data.latest_subscription;
    expect(card.scheduled_cancellation).toMatchObject({ access_until: startOfLocalDay("2026-12-21").toISOString(), reasons: ["cost"] });

    const providers = sandboxProviders(env.db, systemClock);
    const at = (day: string) => new Date(startOfLocalDay(day).getTime() + 10 * 3_600_000);
    await billingRun(env.db, providers, at("2026-12-07"));
    expect(await applyDueCancellations(env.db, at("2026-12-08"))).toBe(0);
    await billingRun(env.db, providers, at("2026-12-14"));
    expect(await applyDueCancellations(env.db, at("2026-12-15"))).toBe(1);
    const [cancelled] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect([cancelled.cancelled_at?.toISOString(), cancelled.current_period_end?.toISOString(), cancelled.cancel_at]).toEqual([
      at("2026-12-15").toISOString(),
      startOfLocalDay("2026-12-21").toISOString(),
      null,
    ]);
    expect([(await lastEvent(s.id)).action, (await lastEvent(s.id)).actor_id]).toEqual(["cancel", user.id]);
    await billingRun(env.db, providers, at("2026-12-21"));
    const charged = await env.db
      .select({ start: payments.period_start_at })
      .from(payments)
      .where(and(eq(payments.subscription_id, s.id)));
    expect(charged.map((p) => p.start?.toISOString()).sort()).toEqual([
      startOfLocalDay("2026-12-07").toISOString(),
      startOfLocalDay("2026-12-14").toISOString(),
    ]);
  });

  it("a waiting cancellation can be withdrawn by the member who asked, and nothing is then held back", async () => {
    await rules({ members_may_cancel: true, member_cancel_notice_days: 14 });
    const { s, b, version } = await member();
    expect((await b.call("POST", "/api/me/membership/cancel", { reasons: ["cost"], version: await version() })).status).toBe(200);
    expect((await b.call("GET", "/api/me/membership/actions")).json.data.undo).toEqual({ allowed: true, scheduled: true });
    expect((await b.call("POST", "/api/me/membership/undo-cancel", { version: await version() })).status).toBe(200);
    const [after] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect([after.cancel_at, after.cancel_request, after.cancelled_at]).toEqual([null, null, null]);
    expect((await lastEvent(s.id)).action).toBe("cancel.withdrawn");
  });

  it("staff may withdraw a member's waiting cancellation; the member is told", async () => {
    await rules({ members_may_cancel: true, member_cancel_notice_days: 14 });
    const { user, s, b, version } = await member();
    expect((await b.call("POST", "/api/me/membership/cancel", { reasons: ["cost"], version: await version() })).status).toBe(200);
    const staffUser = await makeUser(env.db, { name: "Wren Withdraw", email: `wren${++n}@example.com`, password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, staffUser.id, org.id, "admin");
    const staff = await signedIn(api, env.db, staffUser.email, PASSWORD);
    const view = (await staff.call("GET", `/api/subscriptions/${s.id}`)).json.data;
    expect([view.actions.withdraw_cancel, view.scheduled_cancellation.access_until]).toEqual([true, "2026-12-21"]);
    expect((await staff.call("POST", `/api/subscriptions/${s.id}/withdraw-cancel`, { version: await version() })).status).toBe(200);
    const [after] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect(after.cancel_at).toBeNull();
    expect([(await lastEvent(s.id)).action, (await lastEvent(s.id)).actor_id]).toEqual(["cancel.withdrawn", staffUser.id]);
    expect((await mailsTo(user.email))[0].text).toContain("Wren Withdraw at Kingsland undid the cancellation");
    const again = await staff.call("POST", `/api/subscriptions/${s.id}/withdraw-cancel`, { version: await version() });
    expect([again.status, again.json.errors._]).toEqual([422, ["No cancellation is waiting on this membership"]]);
  });
});
