import { mailSite } from "../../server/member-mail/brand";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { hashPassword } from "../../server/core/auth/password";
import { createApi, localJobs } from "../../server/api/app";
import { bulk_price_change_members, bulk_price_changes, mail_outbox, price_changes, subscription_events, subscriptions } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxProviders } from "../../server/core/providers/registry";
import { runBulkPriceChanges } from "../../server/subscriptions/bulk-price-change";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * The bulk price change (issue 12, /members/change-price) through the API: previewed, confirmed once per form key,
 * run by the job member by member (the same rules as one change from the member page), reported, and harmless to
 * run again. Wednesday 2 December 2026, 10 am in Auckland.
 */
const PASSWORD = "bulk price change passphrase";
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let jobs: ReturnType<typeof localJobs>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let org: { id: number };
let gym: { id: number };
let weekly: Awaited<ReturnType<typeof makePrice>>;
let student: Awaited<ReturnType<typeof makePrice>>;
let dearer: Awaited<ReturnType<typeof makePrice>>;
let other: Awaited<ReturnType<typeof makePrice>>;
let foreignPrice: Awaited<ReturnType<typeof makePrice>>;
const subs: Record<string, typeof subscriptions.$inferSelect> = {};

beforeAll(async () => {
  env = await setup();
  const mailer = outboxMailer(env.db);
  jobs = localJobs({ db: env.db, mailer, now: () => NOW, config: env.config });
  api = createApi({ db: env.db, mailer, config: env.config, now: () => NOW, providers: sandboxProviders(env.db), jobs });
  org = await makeOrganisation(env.db, { name: "Bulk Gyms" });
  gym = await makeGym(env.db, org.id, "Grey Lynn");
  const offering = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  weekly = await makePrice(env.db, offering, { amount: 2_500, billing_frequency: "weekly" });
  student = await makePrice(env.db, offering, { amount: 2_000, billing_frequency: "weekly" });
  dearer = await makePrice(env.db, offering, { amount: 2_900, billing_frequency: "weekly" });
  other = await makePrice(env.db, offering, { amount: 3_100, billing_frequency: "weekly" });
  const elsewhere = await makeOrganisation(env.db, { name: "Not Ours" });
  foreignPrice = await makePrice(env.db, await makeOffering(env.db, elsewhere.id, { name: "Theirs" }), { amount: 100, billing_frequency: "weekly" });
  const hash = await hashPassword(PASSWORD);
  const a = await makeUser(env.db, { name: "bulk admin", email: "bulk.admin@example.com", password_hash: hash });
  await addStaff(env.db, a.id, org.id, "admin");
  const tr = await makeUser(env.db, { name: "bulk trainer", email: "bulk.trainer@example.com", password_hash: hash });
  await addStaff(env.db, tr.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
  admin = await signedIn(api, env.db, a.email, PASSWORD);
  trainer = await signedIn(api, env.db, tr.email, PASSWORD);

  // Five members on the two old prices (one cancelled, one with a change of their own), one on another price.
  const member = async (name: string, price: typeof weekly, extra: Partial<typeof subscriptions.$inferInsert> = {}) => {
    const user = await makeUser(env.db, { name, email: `${name.toLowerCase().replace(/ /g, ".")}@example.com` });
    await addMember(env.db, user.id, org.id, gym.id);
    subs[name] = await makeSubscription(env.db, price, user.id, gym.id, {
      billing_anchor: "2026-11-02",
      current_period_start: startOfLocalDay("2026-11-30"),
      current_period_end: startOfLocalDay("2026-12-07"),
      ...extra,
    });
  };
  await member("Ada Adams", weekly);
  await member("Ben Brown", weekly);
  await member("Cai Chen", student);
  await member("Dee Dunn", weekly, { cancelled_at: startOfLocalDay("2026-12-01") });
  await member("Eve Evans", weekly, { transition_to_price_id: other.id, transition_takes_effect_at: startOfLocalDay("2026-12-07") });
  await member("Fay Fox", other);
});
afterAll(() => env.close());

const body = (extra: Record<string, unknown> = {}) => ({ from_price_ids: [weekly.id, student.id], to_price_id: dearer.id, from: "period_end", notify: true, gym: "all", ...extra });
const mine = (ids: number[]) => and(eq(price_changes.organisation_id, org.id), inArray(price_changes.subscription_id, ids), isNull(price_changes.cancelled_at));

describe("the bulk price change", () => {
  it("previews the members it takes, what happens to the first few, and the e-mail", async () => {
    const res = await admin.call("POST", "/api/members/change-price/preview", body());
    expect(res.status).toBe(200);
    const { count, sample, email } = res.json.data;
    expect(count).toBe(5);
    expect(sample.map((s: { member: { name: string } }) => s.member.name)).toEqual(["Ada Adams", "Ben Brown", "Cai Chen", "Dee Dunn", "Eve Evans"]);
    expect(sample[0]).toMatchObject({ from_amount: 2_500, to_amount: 2_900, takes_effect: "2026-12-07", skip: null });
    expect(sample[2]).toMatchObject({ from_amount: 2_000, to_amount: 2_900 });
    expect(sample[3].skip).toMatch(/cancel/i);
    expect(sample[4].skip).toMatch(/Another price change is scheduled/);
    expect(email).toMatchObject({ to: "ada.adams@example.com" });
    expect(email.text).toContain("$29.00");
    expect(await env.db.select().from(bulk_price_changes)).toEqual([]);
  });

  it("answers bad input with the field's message and writes nothing", async () => {
    const none = await admin.call("POST", "/api/members/change-price/preview", body({ from_price_ids: [] }));
    expect(none.status).toBe(422);
    expect(none.json.errors.from_price_ids).toEqual(["Choose the prices members move from"]);
    const theirs = await admin.call("POST", "/api/members/change-price", body({ to_price_id: foreignPrice.id, key: "bulk-key-foreign" }));
    expect(theirs.status).toBe(422);
    expect(theirs.json.errors.to_price_id).toEqual(["Choose a price from the list"]);
    const same = await admin.call("POST", "/api/members/change-price/preview", body({ to_price_id: weekly.id }));
    expect(same.json.errors.to_price_id).toEqual(["Choose a price other than the ones members move from"]);
    const noDay = await admin.call("POST", "/api/members/change-price/preview", body({ from: "date" }));
    expect(noDay.json.errors.date).toEqual(["Enter the day the new price starts"]);
    expect((await trainer.call("POST", "/api/members/change-price/preview", body())).status).toBe(403);
    expect(await env.db.select().from(bulk_price_changes)).toEqual([]);
  });

  it("refuses a price of another billing frequency, before any member is taken (issue 28, audit finding 6)", async () => {
    const monthly = await makePrice(env.db, { id: other.offering_id, organisation_id: org.id }, { amount: 9_900, billing_frequency: "monthly" });
    const preview = await admin.call("POST", "/api/members/change-price/preview", body({ to_price_id: monthly.id }));
    expect([preview.status, preview.json.errors?.to_price_id]).toEqual([422, ["Choose a weekly price: a change keeps each member's billing rhythm"]]);
    const confirmed = await admin.call("POST", "/api/members/change-price", body({ to_price_id: monthly.id, key: "bulk-key-monthly" }));
    expect(confirmed.status).toBe(422);
    // Prices moved from of two frequencies cannot all keep their rhythm on one new price.
    const mixed = await admin.call("POST", "/api/members/change-price/preview", body({ from_price_ids: [weekly.id, monthly.id], to_price_id: dearer.id }));
    expect([mixed.status, mixed.json.errors?.from_price_ids]).toEqual([422, ["Choose prices billed weekly, as the new price is: a change keeps each member's billing rhythm"]]);
    expect(await env.db.select().from(bulk_price_changes).where(eq(bulk_price_changes.to_price_id, monthly.id))).toEqual([]);
  });

  it("takes a plain HTML form's repeated price boxes", async () => {
    const form = new URLSearchParams([
      ["from_price_ids", String(weekly.id)],
      ["from_price_ids", String(student.id)],
      ["to_price_id", String(dearer.id)],
      ["from", "period_end"],
      ["gym", "all"],
    ]);
    const res = await admin.call("POST", "/api/members/change-price/preview", form.toString(), { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(200);
    expect(res.json.data.count).toBe(5);
  });

  it("runs as a job: moves each member as the member page would, skips the ones it cannot with the reason, and reports", async () => {
    const ids = Object.values(subs).map((s) => s.id);
    const before = (await env.db.select().from(price_changes).where(mine(ids))).length;
    const res = await admin.call("POST", "/api/members/change-price", body({ key: "bulk-key-0001" }));
    expect(res.status).toBe(202);
    const { id, created } = res.json.data;
    expect(created).toBe(true);
    // The same form sent twice makes one change.
    const again = await admin.call("POST", "/api/members/change-price", body({ key: "bulk-key-0001" }));
    expect(again.json.data).toEqual({ id, created: false });
    await jobs.idle();

    const report = (await admin.call("GET", `/api/members/change-price/${id}?show=all`)).json.data;
    expect(report).toMatchObject({ status: "done", total: 5, done: 5, changed: 3, skipped: 2 });
    const byName = Object.fromEntries(report.members.map((m: { name: string; outcome: string; reason: string }) => [m.name, m]));
    expect(byName["Ada Adams"]).toMatchObject({ outcome: "changed", reason: "$25.00 to $29.00 from 7 Dec 2026" });
    expect(byName["Cai Chen"]).toMatchObject({ outcome: "changed", reason: "$20.00 to $29.00 from 7 Dec 2026" });
    expect(byName["Dee Dunn"].outcome).toBe("skipped");
    expect(byName["Eve Evans"]).toMatchObject({ outcome: "skipped", reason: expect.stringMatching(/Another price change is scheduled \(to \$31\.00\)/) });
    // Skipped first in the default view.
    const skipped = (await admin.call("GET", `/api/members/change-price/${id}`)).json.data;
    expect(skipped.members.map((m: { name: string }) => m.name)).toEqual(["Dee Dunn", "Eve Evans"]);

    const ada = (await env.db.select().from(subscriptions).where(eq(subscriptions.id, subs["Ada Adams"].id)))[0];
    expect(ada).toMatchObject({ transition_to_price_id: dearer.id, version: subs["Ada Adams"].version + 1 });
    expect((await env.db.select().from(price_changes).where(mine(ids))).length).toBe(before + 3);
    const history = await env.db.select().from(subscription_events).where(eq(subscription_events.subscription_id, subs["Ben Brown"].id));
    expect(history.map((e) => e.action)).toEqual(["price_change"]);
    const mails = await env.db.select().from(mail_outbox).where(eq(mail_outbox.to, "ben.brown@example.com"));
    expect(mails).toHaveLength(1);
    // Fay, on another price, was never taken.
    expect((await env.db.select().from(bulk_price_change_members).where(eq(bulk_price_change_members.subscription_id, subs["Fay Fox"].id))).length).toBe(0);
  });

  it("changes nothing when the same change is run again", async () => {
    const ids = Object.values(subs).map((s) => s.id);
    const before = await env.db.select().from(price_changes).where(mine(ids));
    const mailsBefore = (await env.db.select().from(mail_outbox)).length;
    const res = await admin.call("POST", "/api/members/change-price", body({ key: "bulk-key-0002" }));
    await jobs.idle();
    const report = (await admin.call("GET", `/api/members/change-price/${res.json.data.id}?show=all`)).json.data;
    expect(report).toMatchObject({ status: "done", changed: 0, skipped: 5 });
    expect(report.members.find((m: { name: string }) => m.name === "Ada Adams").reason).toBe("Already moving to this price from 7 Dec 2026");
    expect(await env.db.select().from(price_changes).where(mine(ids))).toEqual(before);
    expect((await env.db.select().from(mail_outbox)).length).toBe(mailsBefore);
  });

  it("goes on from where a stopped job was, and two workers at once move each member once", async () => {
    const third = await makePrice(env.db, { id: other.offering_id, organisation_id: org.id }, { amount: 3_300, billing_frequency: "weekly" });
    const res = await admin.call("POST", "/api/members/change-price", body({ from_price_ids: [other.id], to_price_id: third.id, key: "bulk-key-0003", notify: false }));
    const id = res.json.data.id;
    await jobs.idle();
    expect((await admin.call("GET", `/api/members/change-price/${id}`)).json.data).toMatchObject({ status: "done", total: 1, changed: 1 });
    // A change left half-done (status running, members pending), taken up by two workers at once.
    const fourth = await makePrice(env.db, { id: other.offering_id, organisation_id: org.id }, { amount: 3_500, billing_frequency: "weekly" });
    const made = await admin.call("POST", "/api/members/change-price", body({ from_price_ids: [weekly.id, student.id], to_price_id: fourth.id, from: "date", date: "2026-12-21", replace_scheduled: true, key: "bulk-key-0004" }));
    await jobs.idle();
    const bulk = made.json.data.id;
    // Replacing the changes scheduled before: Ada, Ben and Cai's (the first run's) and Eve's own; Dee has cancelled.
    expect((await admin.call("GET", `/api/members/change-price/${bulk}`)).json.data).toMatchObject({ status: "done", changed: 4, skipped: 1 });
    await env.db.update(bulk_price_change_members).set({ outcome: "pending", reason: null, processed_at: null }).where(eq(bulk_price_change_members.bulk_id, bulk));
    await env.db.update(bulk_price_changes).set({ status: "running" }).where(eq(bulk_price_changes.id, bulk));
    const mailer = outboxMailer(env.db);
    await Promise.all([runBulkPriceChanges(env.db, { mailer, site: mailSite(env.config) }, () => NOW), runBulkPriceChanges(env.db, { mailer, site: mailSite(env.config) }, () => NOW)]);
    const report = (await admin.call("GET", `/api/members/change-price/${bulk}?show=all`)).json.data;
    expect(report).toMatchObject({ status: "done", total: 5, done: 5 });
    // Those moved before are moving already: none is moved twice, and each has one change to come.
    expect(report).toMatchObject({ changed: 0, skipped: 5 });
    const live = await env.db.select().from(price_changes).where(and(eq(price_changes.organisation_id, org.id), eq(price_changes.to_price_id, fourth.id), isNull(price_changes.cancelled_at)));
    expect(live).toHaveLength(4);
    expect(new Set(live.map((c) => c.subscription_id)).size).toBe(4);
  });
});
