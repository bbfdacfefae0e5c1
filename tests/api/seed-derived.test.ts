import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../server/core/db/client";
import { seedDemo } from "../../server/seed/demo-data";
import { freshDatabase } from "./harness";

/**
 * The seed loads members' rows in one statement a table (server/seed/bulk-insert.ts, Stage), so the triggers
 * that keep organisation_users' derived columns and the daily rollups run once over the whole load. Here the
 * seeded values are compared with what the same triggers make of the same rows when they come the way the
 * app writes them: payments and visits a few at a time (each statement adding to the rollups), memberships
 * inserted after their subscriptions and visits (each row's triggers reading them). Row for row, every column.
 */
const MEMBERS = 300;
const BATCH = 97; // a few rows a statement, not aligned with anything the seed does

let database: Database;
const seeded: Record<string, string[]> = {};

const TABLES: Record<string, SQL> = {
  organisation_users: sql`select t::text as row from organisation_users t order by organisation_id, user_id`,
  daily_revenue: sql`select t::text as row from daily_revenue t order by organisation_id, gym_id, day`,
  daily_visits: sql`select t::text as row from daily_visits t order by organisation_id, gym_id, day`,
  payment_totals_daily: sql`select t::text as row from payment_totals_daily t order by organisation_id, gym_id, day, outcome, method`,
};

async function rows(query: SQL) {
  const result = await database.db.execute(query);
  return ((result as unknown as { rows?: { row: string }[] }).rows ?? (result as unknown as { row: string }[])).map((r) => r.row);
}
const run = (query: string) => database.db.execute(sql.raw(query));

beforeAll(async () => {
  database = await freshDatabase();
  await seedDemo(database.db, { members: MEMBERS, now: new Date("2026-11-23T08:30:00Z") });
  for (const [table, query] of Object.entries(TABLES)) seeded[table] = await rows(query);

  // The rollups again, from payments and visits written a batch at a time.
  await run("truncate daily_revenue, daily_visits, payment_totals_daily");
  // The refunds and chargebacks the demo seeds (issue 28) hang off payments: kept aside, and written again after them.
  await run("create temporary table copy_payment_adjustments as select * from payment_adjustments");
  for (const table of ["payments", "visits", "payment_adjustments"]) {
    if (table !== "payment_adjustments") await run(`create temporary table copy_${table} as select * from ${table}`);
    // No triggers: nothing is subtracted.
    await run(`truncate ${table}${table === "payments" ? " cascade" : ""}`);
    const [last] = await rows(sql.raw(`select max(id)::text as row from copy_${table}`));
    for (let from = 1; from <= Number(last); from += BATCH) {
      await run(`insert into ${table} select * from copy_${table} where id >= ${from} and id < ${from + BATCH} order by id`);
    }
  }
  // The memberships again, each made by its own triggers from the subscriptions and visits now in place.
  await run("create temporary table copy_members as select * from organisation_users");
  await run("delete from organisation_users");
  await run("insert into organisation_users select * from copy_members");
}, 120_000);
afterAll(() => database.close());

describe("the demo seed's derived columns and rollups", () => {
  it("are not empty", () => {
    expect(seeded.daily_revenue.length).toBeGreaterThan(100);
    expect(seeded.daily_visits.length).toBeGreaterThan(50);
    expect(seeded.organisation_users.length).toBe(MEMBERS + 4); // three sign-in accounts, the admin in two organisations
  });

  for (const table of Object.keys(TABLES)) {
    it(`${table}: equal what the triggers make of the rows written as the app writes them`, async () => {
      expect(seeded[table]).toEqual(await rows(TABLES[table]));
    });
  }
});

describe("the demo seed's money given back (issue 28)", () => {
  it("has refunds staff gave, a dispute open and a chargeback lost, each within what was paid, and revenue net of them", async () => {
    const given = await rows(sql`select json_build_object('kind', a.kind, 'status', a.status, 'method', a.method, 'within', a.amount <= p.amount + p.surcharge, 'paid', p.status)::text as row
      from payment_adjustments a join payments p on p.id = a.payment_id order by a.id`);
    expect(given.map((g) => JSON.parse(g))).toEqual([
      { kind: "refund", status: "succeeded", method: "stripe", within: true, paid: "sent" },
      { kind: "refund", status: "succeeded", method: "stripe", within: true, paid: "sent" },
      { kind: "refund", status: "succeeded", method: "cash", within: true, paid: "sent" },
      { kind: "chargeback", status: "open", method: "stripe", within: true, paid: "sent" },
      { kind: "chargeback", status: "lost", method: "gocardless", within: true, paid: "sent" },
    ]);
    // The lost one is owing again: its period's latest attempt failed (charged back), and a grace period runs.
    const [owed] = await rows(sql`select json_build_object('status', p.status, 'error', p.error_status, 'grace', s.grace_period_ends_at is not null)::text as row
      from payment_adjustments a join payments paid on paid.id = a.payment_id
      join payments p on p.subscription_id = paid.subscription_id and p.period_start_at = paid.period_start_at and p.attempt = paid.attempt + 1
      join subscriptions s on s.id = p.subscription_id where a.status = 'lost'`);
    expect(JSON.parse(owed)).toEqual({ status: "failed", error: "charged_back", grace: true });
    const [returned] = await rows(sql`select sum(returned)::text as row from daily_revenue`);
    expect(Number(returned)).toBeGreaterThan(0);
  });
});

describe("the demo seed's scheduled price changes (issue 28, audit finding 6)", () => {
  it("only ever move a member to a price of the same billing frequency", async () => {
    const changes = await rows(sql`select json_build_object('from', p.billing_frequency, 'to', t.billing_frequency)::text as row
      from subscriptions s join prices p on p.id = s.price_id join prices t on t.id = s.transition_to_price_id`);
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.map((c) => JSON.parse(c) as { from: string; to: string }).filter((c) => c.from !== c.to)).toEqual([]);
  });
});
