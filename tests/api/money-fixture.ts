import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { billingRun } from "../../server/billing/run";
import { gyms, organisations, payment_adjustments, payment_types, payments } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { simulatedClock } from "../../server/core/providers/clock";
import { sandboxProviders } from "../../server/core/providers/registry";
import { addMember, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup } from "./harness";

/**
 * The world the money-going-back tests share (issue 28: tests/api/refunds.test.ts, webhook-adjustments.test.ts): an
 * organisation with one gym and a weekly $25.00 price, the API and the sandbox providers on their own clocks, and
 * members whose week of 12 January the billing run really charged through the sandbox Stripe or GoCardless.
 */
export const MONEY_NOW = new Date(startOfLocalDay("2026-01-20").getTime() + 11 * 3_600_000);
export const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);

export async function moneyWorld(names: { organisation: string; gym: string; member: string }, gymValues: Partial<typeof gyms.$inferInsert> = {}) {
  const env = await setup();
  /** The sandbox providers' time, which the billing run moves; the staff's (the API's) is MONEY_NOW. */
  const clock = simulatedClock(MONEY_NOW);
  const providers = sandboxProviders(env.db, clock);
  const api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => MONEY_NOW, providers });
  const [org] = await env.db.select().from(organisations).where(eq(organisations.id, (await makeOrganisation(env.db, { name: names.organisation })).id));
  const made = await makeGym(env.db, org.id, names.gym);
  const [gym] = Object.keys(gymValues).length ? await env.db.update(gyms).set(gymValues).where(eq(gyms.id, made.id)).returning() : await env.db.select().from(gyms).where(eq(gyms.id, made.id));
  const weekly = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_500, billing_frequency: "weekly" });
  let n = 0;

  /** A weekly member whose week of 12 January the billing run charged through the sandbox provider (a direct debit is paid by the 19th's run). */
  async function paidMember(kind: "stripe_card" | "gocardless_bank_account" = "stripe_card") {
    const user = await makeUser(env.db, { name: `${names.member} member ${++n}`, email: `${names.member}${n}@example.com` });
    const details: Record<string, string> = kind === "stripe_card" ? { last_four: "4242", payment_method: "pm_card_visa" } : { name: "Paying Member", account_number: "12-3456-0123456-00", mandate_id: `MD${n}` };
    const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type: kind, details }).returning();
    await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
    const subscription = await makeSubscription(env.db, weekly, user.id, gym.id, { billing_anchor: "2026-01-05", current_period_start: startOfLocalDay("2026-01-05"), current_period_end: startOfLocalDay("2026-01-12") });
    await billingRun(env.db, providers, at("2026-01-12"));
    if (kind === "gocardless_bank_account") await billingRun(env.db, providers, at("2026-01-19"));
    clock.set(MONEY_NOW);
    // The week of 12 January's (a direct debit's run of the 19th charged the next week too): named, not the first row
    // PostgreSQL happens to return.
    const [payment] = await env.db.select().from(payments).where(and(eq(payments.subscription_id, subscription.id), eq(payments.period_start_at, startOfLocalDay("2026-01-12"))));
    expect(payment.status).toBe("sent");
    return { user, subscription, payment };
  }

  const adjustmentsOf = (paymentId: number) => env.db.select().from(payment_adjustments).where(eq(payment_adjustments.payment_id, paymentId)).orderBy(payment_adjustments.id);

  return { env, clock, providers, api, org, gym, weekly, paidMember, adjustmentsOf };
}
