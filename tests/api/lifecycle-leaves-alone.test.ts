import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay, startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { payment_types, payments, price_changes, subscription_pauses, subscriptions } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * Issue 28 (audit finding 2): each membership action changes what it is meant to and leaves every other fact of the
 * subscription alone: its pauses, scheduled price change, billing anchor, periods, grace and payments. Undoing a
 * cancellation puts back exactly what the cancellation took (decision 0040).
 * The clock: Wednesday 2 December 2026, 10 am in Auckland, unless a test moves it.
 */
const PASSWORD = "leaves alone passphrase";
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
let clock = NOW;
let env: Awaited<ReturnType<typeof setup>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let org: { id: number };
let gym: { id: number };
let weekly: Awaited<ReturnType<typeof makePrice>>;
let dearer: Awaited<ReturnType<typeof makePrice>>;
let n = 0;
let api: ReturnType<typeof createApi>;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => clock, providers: sandboxProviders(env.db) });
  org = await makeOrganisation(env.db, { name: "Leave Alone Gyms" });
  gym = await makeGym(env.db, org.id, "Kingsland");
  const offering = await makeOffering(env.db, org.id, { name: "Anytime", all_gyms_access: true });
  weekly = await makePrice(env.db, offering, { amount: 2_500, billing_frequency: "weekly" });
  dearer = await makePrice(env.db, offering, { amount: 2_900, billing_frequency: "weekly" });
  const a = await makeUser(env.db, { name: "alone admin", email: "alone.admin@example.com", password_hash: await hashPassword(PASSWORD) });
  await addStaff(env.db, a.id, org.id, "admin");
  admin = await signedIn(api, env.db, a.email, PASSWORD);
});
afterAll(() => env.close());

/** A weekly card member since Monday 2 November 2026, paid up to Monday 7 December. */
async function member(extra: Partial<typeof subscriptions.$inferInsert> = {}) {
  const user = await makeUser(env.db, { name: `alone member ${++n}`, email: `alone${n}@example.com` });
  const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { last_four: "4242", payment_method: "pm_card_visa" } }).returning();
  await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
  const s = await makeSubscription(env.db, weekly, user.id, gym.id, {
    billing_anchor: "2026-11-02",
    current_period_start: startOfLocalDay("2026-11-30"),
    current_period_end: startOfLocalDay("2026-12-07"),
    ...extra,
  });
  return { user, s };
}

const version = async (id: number) => (await env.db.select({ v: subscriptions.version }).from(subscriptions).where(eq(subscriptions.id, id)))[0].v;
const post = async (path: string, body: Record<string, unknown>) => {
  const res = await admin.call("POST", path, body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data;
};

/**
 * Every fact of a subscription, flat: `subscription.<column>`, `pause.<id>.<column>`, `price_change.<id>.<column>`,
 * `payment.<id>.<column>`. What moves on every change (version, updated_at) is left out.
 */
async function facts(id: number): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const put = (prefix: string, row: Record<string, unknown>, skip: string[] = []) => {
    for (const [k, v] of Object.entries(row)) if (!skip.includes(k)) out[`${prefix}.${k}`] = v instanceof Date ? v.toISOString() : v;
  };
  const [s] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  put("subscription", s, ["version", "updated_at"]);
  for (const p of await env.db.select().from(subscription_pauses).where(eq(subscription_pauses.subscription_id, id)).orderBy(asc(subscription_pauses.id))) put(`pause.${p.id}`, p);
  for (const c of await env.db.select().from(price_changes).where(eq(price_changes.subscription_id, id)).orderBy(asc(price_changes.id))) put(`price_change.${c.id}`, c);
  for (const p of await env.db.select().from(payments).where(eq(payments.subscription_id, id)).orderBy(asc(payments.id))) put(`payment.${p.id}`, p);
  return out;
}

/** The keys whose values differ, or that came or went. */
function changed(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

/** A member with everything an action could wrongly touch: a pause to come, a scheduled price change, an upcoming payment. */
async function fullMember(extra: Partial<typeof subscriptions.$inferInsert> = {}) {
  const m = await member(extra);
  await post(`/api/subscriptions/${m.s.id}/pause`, { action: "pause", start: "2026-12-14", end: "2026-12-28", reason: "Holiday", version: await version(m.s.id) });
  await post("/api/subscriptions/schedule-price-change", { subscription_id: m.s.id, price_id: dearer.id, from: "date", date: "2027-01-04", version: await version(m.s.id) });
  // The next period's charge, shown to staff before it is due.
  await makePayment(env.db, m.s, { amount: 2_500, status: "upcoming", period_start_at: startOfLocalDay("2026-12-07"), period_end_at: startOfLocalDay("2026-12-14"), idempotency_key: `charge:${m.s.id}:2026-12-07:0` });
  await makePayment(env.db, m.s, { amount: 2_500, status: "sent", period_start_at: startOfLocalDay("2026-11-30"), period_end_at: startOfLocalDay("2026-12-07"), idempotency_key: `charge:${m.s.id}:2026-11-30:0` });
  return m;
}

const SUB = (...cols: string[]) => cols.map((c) => new RegExp(`^subscription\\.${c}$`));
const PAUSE_FIELDS = SUB("pause_start_at", "pause_end_at");
const CANCEL_FIELDS = SUB("cancelled_at", "cancellation_reasons", "cancellation_comments", "cancelled_during_cooling_off_period", "undo_cancellation_until");
const TRANSITION = SUB("transition_to_price_id", "transition_takes_effect_at");

interface Case {
  name: string;
  /** Makes the member and answers the id, with anything the action needs. */
  arrange: () => Promise<{ id: number; pauseId?: number }>;
  act: (id: number, ctx: { pauseId?: number }) => Promise<void>;
  /** The facts the action may change; everything else must be as it was. */
  may: RegExp[];
  /** At least these must have changed (so a test of nothing cannot pass). */
  must: RegExp[];
}

const pauseRowId = async (id: number) => (await env.db.select().from(subscription_pauses).where(eq(subscription_pauses.subscription_id, id)))[0].id;

const CASES: Case[] = [
  {
    name: "scheduling a pause",
    arrange: async () => ({ id: (await fullMember()).s.id }),
    act: async (id) => void (await post(`/api/subscriptions/${id}/pause`, { action: "pause", start: "2027-02-01", end: "2027-02-08", version: await version(id) })),
    may: [...PAUSE_FIELDS, /^pause\.\d+\./],
    must: [/^pause\.\d+\.start_day$/],
  },
  {
    name: "ending a running pause early",
    arrange: async () => {
      const { s } = await member({ current_period_end: startOfLocalDay("2026-11-30") });
      await env.db.insert(subscription_pauses).values({ organisation_id: org.id, subscription_id: s.id, start_day: "2026-11-25", end_day: "2026-12-23" });
      await env.db.update(subscriptions).set({ pause_start_at: startOfLocalDay("2026-11-25"), pause_end_at: startOfLocalDay("2026-12-23") }).where(eq(subscriptions.id, s.id));
      await post("/api/subscriptions/schedule-price-change", { subscription_id: s.id, price_id: dearer.id, from: "date", date: "2027-01-04", version: await version(s.id) });
      return { id: s.id, pauseId: await pauseRowId(s.id) };
    },
    act: async (id, { pauseId }) => void (await post(`/api/subscriptions/${id}/pause`, { action: "end", pause_id: pauseId, end: "2026-12-02", version: await version(id) })),
    may: [...PAUSE_FIELDS, /^pause\.\d+\.(end_day|ended_early_at)$/],
    must: [/^pause\.\d+\.end_day$/],
  },
  {
    name: "removing a scheduled pause",
    arrange: async () => {
      const { s } = await fullMember();
      return { id: s.id, pauseId: await pauseRowId(s.id) };
    },
    act: async (id, { pauseId }) => void (await post(`/api/subscriptions/${id}/pause`, { action: "remove", pause_id: pauseId, version: await version(id) })),
    may: [...PAUSE_FIELDS, /^pause\.\d+\.removed_at$/],
    must: [/^pause\.\d+\.removed_at$/],
  },
  {
    name: "changing the pause-days credit",
    arrange: async () => ({ id: (await fullMember()).s.id }),
    act: async (id) => void (await post(`/api/subscriptions/${id}/pause`, { action: "credit", days: 3, version: await version(id) })),
    may: SUB("pause_days_credit"),
    must: SUB("pause_days_credit"),
  },
  {
    name: "cancelling at the period end",
    arrange: async () => ({ id: (await fullMember()).s.id }),
    act: async (id) => void (await post(`/api/subscriptions/${id}/cancel`, { when: "period_end", reasons: ["cost"], version: await version(id) })),
    // What a cancellation takes: pauses to come, the scheduled change, the upcoming charges. Not the paid period.
    may: [...CANCEL_FIELDS, ...PAUSE_FIELDS, ...TRANSITION, /^pause\.\d+\.removed_at$/, /^price_change\.\d+\.cancelled_at$/, /^payment\.\d+\./],
    must: SUB("cancelled_at"),
  },
  {
    name: "cancelling now",
    arrange: async () => ({ id: (await fullMember()).s.id }),
    act: async (id) => void (await post(`/api/subscriptions/${id}/cancel`, { when: "now", reasons: ["cost"], version: await version(id) })),
    may: [...CANCEL_FIELDS, ...PAUSE_FIELDS, ...TRANSITION, ...SUB("current_period_end"), /^pause\.\d+\.removed_at$/, /^price_change\.\d+\.cancelled_at$/, /^payment\.\d+\./],
    must: SUB("cancelled_at", "current_period_end"),
  },
  {
    name: "cancelling at the period end, then undoing it",
    arrange: async () => ({ id: (await fullMember()).s.id }),
    act: async (id) => {
      await post(`/api/subscriptions/${id}/cancel`, { when: "period_end", reasons: ["cost"], version: await version(id) });
      await post(`/api/subscriptions/${id}/undo-cancel`, { version: await version(id) });
    },
    // Undo puts back exactly what the cancellation took: nothing is left changed.
    may: [],
    must: [],
  },
  {
    name: "scheduling a price change",
    arrange: async () => {
      const { s } = await member();
      await post(`/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-14", end: "2026-12-28", version: await version(s.id) });
      await makePayment(env.db, s, { amount: 2_500, status: "upcoming", period_start_at: startOfLocalDay("2026-12-07"), period_end_at: startOfLocalDay("2026-12-14"), idempotency_key: `charge:${s.id}:2026-12-07:0` });
      return { id: s.id };
    },
    act: async (id) => void (await post("/api/subscriptions/schedule-price-change", { subscription_id: id, price_id: dearer.id, from: "period_end", version: await version(id) })),
    may: [...TRANSITION, /^price_change\.\d+\./],
    must: SUB("transition_to_price_id"),
  },
  {
    name: "replacing a scheduled price change",
    arrange: async () => ({ id: (await fullMember()).s.id }),
    act: async (id) => void (await post("/api/subscriptions/schedule-price-change", { subscription_id: id, price_id: dearer.id, from: "period_end", version: await version(id) })),
    may: [...TRANSITION, /^price_change\.\d+\./],
    must: SUB("transition_takes_effect_at"),
  },
  {
    name: "removing a scheduled price change",
    arrange: async () => ({ id: (await fullMember()).s.id }),
    act: async (id) => void (await post(`/api/subscriptions/${id}/remove-price-change`, { version: await version(id) })),
    may: [...TRANSITION, /^price_change\.\d+\.cancelled_at$/],
    must: SUB("transition_to_price_id"),
  },
  {
    name: "starting an upcoming membership now",
    arrange: async () => {
      const { s } = await member({ upcoming_state: "upcoming", current_period_start: startOfLocalDay("2026-12-14"), current_period_end: startOfLocalDay("2026-12-21"), billing_anchor: "2026-12-14" });
      await makePayment(env.db, s, { amount: 2_500, status: "upcoming", period_start_at: startOfLocalDay("2026-12-14"), period_end_at: startOfLocalDay("2026-12-21"), idempotency_key: `charge:${s.id}:2026-12-14:0` });
      return { id: s.id };
    },
    act: async (id) => void (await post(`/api/subscriptions/${id}/start-now`, { version: await version(id) })),
    may: [...SUB("billing_anchor", "current_period_start", "current_period_end", "term_ends_at", "cooling_period_ends_at", "upcoming_state"), /^payment\.\d+\./],
    must: SUB("upcoming_state", "current_period_start"),
  },
  {
    name: "taking the balance owing at the desk",
    arrange: async () => {
      const m = await fullMember({ grace_period_ends_at: startOfLocalDay("2026-12-08") });
      await env.db.update(payments).set({ status: "failed", error_status: "insufficient_funds" }).where(eq(payments.idempotency_key, `charge:${m.s.id}:2026-11-30:0`));
      return { id: m.s.id };
    },
    act: async (id) => void (await post(`/api/subscriptions/${id}/manual-payment`, { method: "eftpos", key: `alone-desk-${id}`, version: await version(id) })),
    may: [...SUB("grace_period_ends_at"), /^payment\.\d+\./],
    must: SUB("grace_period_ends_at"),
  },
];

describe("each membership action leaves the other facts alone", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      clock = NOW;
      const ctx = await c.arrange();
      const before = await facts(ctx.id);
      await c.act(ctx.id, ctx);
      const diff = changed(before, await facts(ctx.id));
      expect(diff.filter((k) => !c.may.some((re) => re.test(k)))).toEqual([]);
      for (const re of c.must) expect(diff.some((k) => re.test(k)), `${re} changed`).toBe(true);
    });
  }
});

describe("undoing a cancellation (audit finding 2)", () => {
  it("keeps the member's scheduled pause: the preview, the history and the charges agree", async () => {
    clock = NOW;
    const { user, s } = await member();
    await post(`/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-07", end: "2026-12-21", version: s.version });
    await post(`/api/subscriptions/${s.id}/cancel`, { when: "period_end", reasons: ["cost"], version: await version(s.id) });
    expect((await admin.call("GET", `/api/subscriptions/${s.id}`)).json.data.pauses).toEqual([]);
    const preview = (await admin.call("POST", `/api/subscriptions/${s.id}/undo-cancel`, { version: await version(s.id), preview: true })).json.data.preview;
    // The pause comes back: the charge of 7 December moves 14 days, to the 21st.
    expect(preview).toMatchObject({ pausesRestored: [{ start: "2026-12-07", end: "2026-12-21" }], nextCharge: { day: "2026-12-21", amount: 2_500 } });
    await post(`/api/subscriptions/${s.id}/undo-cancel`, { version: await version(s.id) });
    const v = (await admin.call("GET", `/api/subscriptions/${s.id}`)).json.data;
    expect(v.pauses).toMatchObject([{ start: "2026-12-07", end: "2026-12-21", can_remove: true }]);
    expect(v.next_charge).toEqual({ day: "2026-12-21", amount: 2_500 });
    const [row] = await env.db.select().from(subscriptions).where(eq(subscriptions.id, s.id));
    expect([localDay(row.pause_start_at!), localDay(row.pause_end_at!)]).toEqual(["2026-12-07", "2026-12-21"]);
    const history = (await admin.call("GET", `/api/members/${user.id}/events`)).json.data.data;
    expect(history[0]).toMatchObject({ action: "cancel.undo", summary: expect.stringContaining("pause from 7 Dec 2026 until 21 Dec 2026 kept") });
  });

  it("brings back the scheduled price change and the upcoming charge the cancellation took", async () => {
    clock = NOW;
    const { s } = await fullMember();
    await post(`/api/subscriptions/${s.id}/cancel`, { when: "period_end", reasons: ["cost"], version: await version(s.id) });
    await post(`/api/subscriptions/${s.id}/undo-cancel`, { version: await version(s.id) });
    const v = (await admin.call("GET", `/api/subscriptions/${s.id}`)).json.data;
    expect(v.scheduled_price_change).toMatchObject({ to_price_id: dearer.id, takes_effect: "2027-01-04" });
    const changes = await env.db.select().from(price_changes).where(eq(price_changes.subscription_id, s.id));
    expect(changes.map((c) => c.cancelled_at)).toEqual([null]);
    const upcoming = await env.db.select().from(payments).where(eq(payments.subscription_id, s.id));
    expect(upcoming.map((p) => [p.status, localDay(p.period_start_at!)]).sort()).toEqual([["sent", "2026-11-30"], ["upcoming", "2026-12-07"]]);
  });

  it("puts back what a cancellation recorded before issue 28 took, read from what it left", async () => {
    clock = NOW;
    const { s } = await fullMember();
    await post(`/api/subscriptions/${s.id}/cancel`, { when: "period_end", reasons: ["cost"], version: await version(s.id) });
    // Such a cancellation's history line did not say what it took.
    await env.db.execute(sql`update subscription_events set after = after - 'took' where subscription_id = ${s.id} and action = 'cancel'`);
    await post(`/api/subscriptions/${s.id}/undo-cancel`, { version: await version(s.id) });
    const v = (await admin.call("GET", `/api/subscriptions/${s.id}`)).json.data;
    expect([v.pauses.map((p: { start: string }) => p.start), v.scheduled_price_change?.takes_effect]).toEqual([["2026-12-14"], "2027-01-04"]);
  });

  it("does not bring back a pause whose days have passed by the time of the undo, and says so", async () => {
    clock = NOW;
    const { user, s } = await member({ current_period_end: startOfLocalDay("2026-12-14") });
    await post(`/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-03", end: "2026-12-05", version: s.version });
    await post(`/api/subscriptions/${s.id}/pause`, { action: "pause", start: "2026-12-20", end: "2026-12-27", version: await version(s.id) });
    await post(`/api/subscriptions/${s.id}/cancel`, { when: "period_end", reasons: ["cost"], version: await version(s.id) });
    clock = new Date(startOfLocalDay("2026-12-09").getTime() + 10 * 3_600_000);
    // A week on, the session has lapsed: sign in again.
    admin = await signedIn(api, env.db, "alone.admin@example.com", PASSWORD);
    const res = await admin.call("POST", `/api/subscriptions/${s.id}/undo-cancel`, { version: await version(s.id), preview: true });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const preview = res.json.data.preview;
    expect(preview).toMatchObject({ pausesRestored: [{ start: "2026-12-20", end: "2026-12-27" }], pausesOver: [{ start: "2026-12-03", end: "2026-12-05" }] });
    await post(`/api/subscriptions/${s.id}/undo-cancel`, { version: await version(s.id) });
    const v = (await admin.call("GET", `/api/subscriptions/${s.id}`)).json.data;
    expect(v.pauses.map((p: { start: string }) => p.start)).toEqual(["2026-12-20"]);
    expect((await admin.call("GET", `/api/members/${user.id}/events`)).json.data.data[0].summary).toMatch(/pause from 3 Dec 2026 until 5 Dec 2026 is over: not brought back/);
  });
});
