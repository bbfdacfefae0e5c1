import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay, startOfLocalDay } from "../../domain/dates";
import { addCalendarDays } from "../../domain/dates";
import type { Database } from "../../server/core/db/client";
import { payment_types, payments } from "../../server/core/db/schema";
import { sandboxProviders } from "../../server/core/providers/registry";
import { startScheduler } from "../../server/jobs/scheduler";
import { addMember, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { loadWebhookSecrets } from "../../server/core/webhooks/secrets";
import { createApi } from "../../server/api/app";
import { outboxMailer } from "../../server/core/mail/mailer";
import { freshDatabase, testConfig } from "./harness";

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

async function until<T>(check: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("the server's jobs (pg-boss on the app's database)", () => {
  it("runs the billing at boot, one run at a time however many processes start, and stops cleanly", async () => {
    const { db } = database;
    const org = await makeOrganisation(db, { name: "Job Gyms" });
    const gym = await makeGym(db, org.id, "Central");
    const price = await makePrice(db, await makeOffering(db, org.id, { name: "Anytime" }), { amount: 1_999, billing_frequency: "daily" });
    const user = await makeUser(db, { name: "daily member", email: "daily@example.com" });
    const [pt] = await db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { payment_method: "pm_card_visa" } }).returning();
    await addMember(db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
    // Paid until three days ago: today's run charges three days.
    const today = localDay(new Date());
    const paidUntil = addCalendarDays(today, -2);
    const s = await makeSubscription(db, price, user.id, gym.id, {
      billing_anchor: addCalendarDays(today, -30),
      current_period_start: startOfLocalDay(addCalendarDays(paidUntil, -1)),
      current_period_end: startOfLocalDay(paidUntil),
    });
    // Two processes on one database start together (PGlite has one connection and one process: one after the other).
    const config = testConfig();
    const api = createApi({ db, mailer: outboxMailer(db), config });
    const webhookSecrets = await loadWebhookSecrets(db, config);
    const start = () => startScheduler(database, { billingCron: "0 10 * * *", config, api, mailer: outboxMailer(db), providers: sandboxProviders(db), webhookSecrets });
    const [a, b] = database.kind === "postgres" ? await Promise.all([start(), start()]) : [await start(), await start()];
    try {
      const sent = await until(async () => {
        const rows = await db.select().from(payments).where(eq(payments.subscription_id, s.id));
        return rows.length === 3 && rows.every((p) => p.status === "sent") && rows;
      });
      expect(sent.map((p) => localDay(p.period_start_at!)).sort()).toEqual([paidUntil, addCalendarDays(paidUntil, 1), today]);
      const schedules = await a.boss.getSchedules();
      expect(schedules.map((x) => [x.name, x.cron, x.options?.tz ?? (x as { timezone?: string }).timezone]).sort()).toEqual([
        ["billing-run", "0 10 * * *", "Pacific/Auckland"],
        ["bulk-price-changes", "* * * * *", "UTC"],
        ["class-attendance", "*/5 * * * *", "UTC"],
        ["class-timetable", "10 0 * * *", "Pacific/Auckland"],
        ["member-imports", "* * * * *", "UTC"],
        ["member-mail", "* * * * *", "UTC"],
        ["reconciliation", "0 4 * * *", "Pacific/Auckland"],
        ["sandbox-webhooks", "* * * * *", "UTC"],
        ["webhook-delivery", "* * * * *", "UTC"],
      ]);
      // Both boot catch-ups ran (the queue is a singleton: one after the other), and charged each day once.
      await until(async () => (await a.boss.getQueueSize("billing-run")) === 0);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      // pg-boss's own timers (its monitor and cron check) may still be on their last query when stop() resolves; under
      // a loaded machine one reached the pool after the test had closed it (an unhandled "Cannot use a pool after
      // calling end"). The test's database outlives them by a moment; the server closes its own after the drain.
      await new Promise((r) => setTimeout(r, 1_000));
    }
    expect(await db.$count(payments, eq(payments.subscription_id, s.id))).toBe(3);
  }, 60_000);
});
