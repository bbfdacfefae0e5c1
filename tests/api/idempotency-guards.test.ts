import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { chargePending } from "../../server/billing/run";
import { payment_types, payments, sandbox_ledger } from "../../server/core/db/schema";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addMember, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup } from "./harness";

/**
 * The database's own idempotency guards, one after the other (so on PGlite too; the races are in their own tests,
 * itRaces). The code reads before it writes, so a second request with the same key finds the first; these indexes
 * are the wall behind that read for two writers at once (the billing run on two machines, a retry and the desk).
 * Each is proven by what it refuses, not by its name alone.
 */

/** Every unique index that makes a key or an outside event count once, with what it guards. */
const GUARDS: Record<string, string> = {
  payments_idempotency_key_idx: "a charge key names one payment: the providers charge a key once",
  payments_one_per_period_idx: "one attempt of a period is one payment",
  payment_adjustments_key_idx: "a refund form's key gives back once (tests/api/refunds.test.ts)",
  subscriptions_signup_key_idx: "a sign-up's key makes one membership (tests/api/signup.test.ts)",
  bulk_price_changes_key_idx: "a bulk price change's form key runs it once (tests/api/bulk-price-change.test.ts)",
  billing_notices_key_idx: "a billing notice is e-mailed once (tests/api/billing-notices.test.ts)",
  push_outbox_key_idx: "the push sandbox sends a key once, as OneSignal does",
  sandbox_ledger_key_idx: "the sandbox providers answer a key they saw with what they did (tests/api/cards.test.ts)",
  visits_door_event_idx: "a door event delivered twice is one visit (tests/api/doors.test.ts)",
};

describe("idempotency guards", () => {
  let env: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(() => env?.close());

  it("keeps every key's index unique", async () => {
    const res = (await env.db.execute(sql`select indexname, indexdef from pg_indexes where schemaname = 'public'`)) as unknown as {
      rows: { indexname: string; indexdef: string }[];
    };
    const unique = new Set(res.rows.filter((r) => /^create unique index/i.test(r.indexdef)).map((r) => r.indexname));
    expect(Object.keys(GUARDS).filter((name) => !unique.has(name))).toEqual([]);
  });

  it("the same charge key twice: the second payment is refused, and the card is charged once", async () => {
    const db = env.db;
    const org = await makeOrganisation(db, { name: "Keys" });
    const gym = await makeGym(db, org.id, "Central");
    const price = await makePrice(db, await makeOffering(db, org.id, { name: "Anytime" }), { amount: 1_999 });
    const user = await makeUser(db, { name: "Payer", email: "payer@example.com" });
    const [card] = await db
      .insert(payment_types)
      .values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { type: "visa", last_four: "4242", payment_method: "pm_card_visa" } })
      .returning();
    await addMember(db, user.id, org.id, gym.id, { default_payment_type_id: card.id });
    const s = await makeSubscription(db, price, user.id, gym.id, {
      billing_anchor: "2026-01-05",
      current_period_start: startOfLocalDay("2026-01-05"),
      current_period_end: startOfLocalDay("2026-01-12"),
    });
    const key = `charge:${s.id}:2026-01-05:0`;
    const charge = (periodStart: string, periodEnd: string) => ({
      organisation_id: org.id,
      gym_id: gym.id,
      user_id: user.id,
      subscription_id: s.id,
      payment_type_id: card.id,
      amount: 1_999,
      status: "pending" as const,
      period_start_at: startOfLocalDay(periodStart),
      period_end_at: startOfLocalDay(periodEnd),
      idempotency_key: key,
    });
    await db.insert(payments).values(charge("2026-01-05", "2026-01-12"));
    // Another writer that worked out the same key (a second machine's run, a retry beside the desk's) is refused…
    await expect(db.insert(payments).values(charge("2026-01-12", "2026-01-19"))).rejects.toThrow();
    expect(await db.select().from(payments).where(eq(payments.idempotency_key, key))).toHaveLength(1);
    // …so the key is charged once, and one payment says so.
    await chargePending(db, sandboxProviders(db), new Date(startOfLocalDay("2026-01-05").getTime() + 11 * 3_600_000));
    expect(await db.select().from(sandbox_ledger).where(eq(sandbox_ledger.idempotency_key, key))).toHaveLength(1);
    expect((await db.select().from(payments).where(eq(payments.subscription_id, s.id))).map((p) => p.status)).toEqual(["sent"]);
  });
});
