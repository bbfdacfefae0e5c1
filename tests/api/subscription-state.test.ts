import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NON_FAILED_PAYMENT_STATUSES, paymentOutcome, SUCCESSFUL_PAYMENT_STATUS } from "../../domain/payment";
import { subscriptionState, type SubscriptionState } from "../../domain/subscription";
import type { Database } from "../../server/core/db/client";
import { daily_revenue, offerings, organisation_users, payments, prices, subscriptions, users } from "../../server/core/db/schema";
import { domainRules, installDomainRules } from "../../server/core/db/domain-rules";
import { memberInState } from "../../server/core/db/subscription-state";
import { makeGym, makeOrganisation } from "../../server/seed/factories";
import { freshDatabase } from "./harness";

/**
 * The database's answers against the domain's, for every combination of the facts the rules read. The rows go
 * through the real tables, so the triggers (drizzle/0009, 0011) and the functions written from the domain
 * (server/core/db/domain-rules.ts) run; the SQL that decides a pause at query time (memberInState) is asked too.
 * A change to either side alone fails here.
 */
const NOW = new Date("2026-04-15T01:00:00Z");
const HOUR = 3_600_000;
const times = { none: null, past: new Date(NOW.getTime() - 48 * HOUR), now: NOW, future: new Date(NOW.getTime() + 48 * HOUR) };
const STATES: SubscriptionState[] = ["active", "paused", "cancelled", "grace_period", "upcoming"];

type Facts = { [K in "pause_start_at" | "pause_end_at" | "cancelled_at" | "grace_period_ends_at" | "current_period_end"]: Date | null } & {
  upcoming_state: string | null;
  label: string;
};

/** pause start × pause end (none, past, exactly now, future) × cancelled × grace × upcoming × period end. */
const combinations: Facts[] = [];
for (const [startName, start] of Object.entries(times))
  for (const [endName, end] of Object.entries(times))
    for (const cancelled of [null, times.past])
      for (const grace of [null, times.future])
        for (const upcoming of [null, "starting"])
          for (const [periodName, periodEnd] of [["no period", null], ["period ended", times.past], ["period running", times.future]] as const)
            combinations.push({
              label: `pause ${startName}→${endName}${cancelled ? ", cancelled" : ""}${grace ? ", in grace" : ""}${upcoming ? ", upcoming" : ""}, ${periodName}`,
              pause_start_at: start,
              pause_end_at: end,
              cancelled_at: cancelled,
              grace_period_ends_at: grace,
              upcoming_state: upcoming,
              current_period_end: periodEnd,
            });

let database: Database;
let org: number;
let gym: number;
let price: number;
/** The subscription and member of each combination, by index. */
const subs: number[] = [];
const members: number[] = [];

const factsOf = ({ label: _label, ...facts }: Facts) => facts;

/** Per member: the trigger's copy (latest_state) and which states memberInState finds them in. */
async function sqlAnswers() {
  const rows = await database.db
    .select({
      user_id: organisation_users.user_id,
      latest_state: organisation_users.latest_state,
      ...Object.fromEntries(STATES.map((s) => [s, sql<boolean>`coalesce(${memberInState(s, NOW)}, false)`])),
    })
    .from(organisation_users)
    .where(and(eq(organisation_users.organisation_id, org), eq(organisation_users.role, "member")));
  return new Map(rows.map((r) => [r.user_id, r as unknown as { latest_state: string | null } & Record<SubscriptionState, boolean>]));
}

/** What the domain says, and what the database says, for each combination given to each member in turn. */
async function compare(given: (i: number) => Facts) {
  const answers = await sqlAnswers();
  const mismatches: string[] = [];
  members.forEach((userId, i) => {
    const facts = given(i);
    const expected = subscriptionState(factsOf(facts), NOW);
    // The copy leaves pauses aside: the state the same facts have without a pause.
    const expectedUnpaused = subscriptionState({ ...factsOf(facts), pause_start_at: null, pause_end_at: null }, NOW);
    const a = answers.get(userId)!;
    const found = STATES.filter((s) => a[s]);
    if (a.latest_state !== expectedUnpaused || found.length !== 1 || found[0] !== expected) {
      mismatches.push(`${facts.label}: domain ${expected} (unpaused ${expectedUnpaused}); SQL latest_state ${a.latest_state}, memberInState ${found.join("+") || "none"}`);
    }
  });
  return mismatches;
}

beforeAll(async () => {
  database = await freshDatabase();
  const db = database.db;
  org = (await makeOrganisation(db, { name: "Every State Gym" })).id;
  gym = (await makeGym(db, org, "Central")).id;
  const [offering] = await db.insert(offerings).values({ organisation_id: org, name: "Anytime", type: "24_7" }).returning();
  price = (await db.insert(prices).values({ organisation_id: org, offering_id: offering.id, amount: 1000, billing_frequency: "weekly" }).returning())[0].id;
  const people = await db
    .insert(users)
    .values(combinations.map((_, i) => ({ name: `State ${i}`, email: `state-${i}@example.com` })))
    .returning({ id: users.id });
  members.push(...people.map((p) => p.id));
  await db.insert(organisation_users).values(members.map((user_id) => ({ organisation_id: org, user_id, role: "member" as const, home_gym_id: gym })));
  // Inserted with their facts: the membership row takes its copy when the subscription becomes its latest.
  const inserted = await db
    .insert(subscriptions)
    .values(combinations.map((c, i) => ({ organisation_id: org, gym_id: gym, user_id: members[i], price_id: price, created_at: times.past, ...factsOf(c) })))
    .returning({ id: subscriptions.id, user_id: subscriptions.user_id });
  for (const s of inserted) subs[members.indexOf(s.user_id)] = s.id;
});
afterAll(() => database.close());

describe("the subscription-state rule: domain and database agree", () => {
  it(`on all ${combinations.length} combinations, as inserted`, async () => {
    expect(combinations.length).toBe(4 * 4 * 2 * 2 * 2 * 3);
    expect(await compare((i) => combinations[i])).toEqual([]);
  });

  it("on all of them again after each subscription is updated to another combination", async () => {
    // Each subscription takes the facts of a combination far from its own (the update trigger follows it).
    const shift = (i: number) => (i + 37) % combinations.length;
    const cases = combinations.map((c, i) => ({ id: subs[i], ...factsOf(combinations[shift(i)]) }));
    for (const c of cases) {
      const { id, ...facts } = c;
      await database.db.update(subscriptions).set(facts).where(eq(subscriptions.id, id));
    }
    expect(await compare((i) => combinations[shift(i)])).toEqual([]);
  });
});

describe("the payment-outcome rule: domain and database agree", () => {
  const statuses = [SUCCESSFUL_PAYMENT_STATUS, ...NON_FAILED_PAYMENT_STATUSES, "failed", "refunded", "dishonoured", "cancelled", "something_new"];
  // One Auckland day per status: 1 March, 2 March, …
  const dayOf = (i: number) => `2026-03-${String(i + 1).padStart(2, "0")}`;
  const rollup = async () =>
    new Map(
      (await database.db.select().from(daily_revenue).where(and(eq(daily_revenue.organisation_id, org), eq(daily_revenue.gym_id, gym)))).map((r) => [
        r.day,
        { collected: r.collected, failed: r.failed_payments },
      ]),
    );
  const expected = (status: string) => ({ collected: paymentOutcome(status) === "successful" ? 700 : 0, failed: paymentOutcome(status) === "failed" ? 1 : 0 });

  it("counts money and failed payments per status as paymentOutcome classifies them, on insert and on update", async () => {
    const rows = await database.db
      .insert(payments)
      .values(statuses.map((status, i) => ({ organisation_id: org, gym_id: gym, user_id: members[0], amount: 700, status, created_at: new Date(`${dayOf(i)}T00:00:00+13:00`) })))
      .returning({ id: payments.id });
    let byDay = await rollup();
    expect(statuses.map((s, i) => [s, byDay.get(dayOf(i)) ?? { collected: 0, failed: 0 }])).toEqual(statuses.map((s) => [s, expected(s)]));

    // Every payment takes the next status: the update path subtracts the old outcome and adds the new.
    const next = (i: number) => statuses[(i + 1) % statuses.length];
    for (const [i, r] of rows.entries()) await database.db.update(payments).set({ status: next(i) }).where(eq(payments.id, r.id));
    byDay = await rollup();
    expect(statuses.map((_, i) => [next(i), byDay.get(dayOf(i)) ?? { collected: 0, failed: 0 }])).toEqual(statuses.map((_, i) => [next(i), expected(next(i))]));
  });

  it("when a rule changes, installing it corrects what the triggers kept, and installing the domain's puts it back", async () => {
    const before = await rollup();
    const changed = domainRules().map((r) => (r.name === "payment_outcome" ? { ...r, body: r.body.replace("THEN 'not_failed'", "OR status = 'refunded' THEN 'not_failed'") } : r));
    await installDomainRules(database.db, changed);
    const refundedDay = dayOf(statuses.indexOf("refunded") - 1); // the payment that took 'refunded' above
    expect((await rollup()).get(refundedDay)?.failed).toBe(0);
    await installDomainRules(database.db);
    expect(await rollup()).toEqual(before);
  });
});

