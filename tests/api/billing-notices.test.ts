import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { sendBillingNotices } from "../../server/billing/notices";
import { billingRun } from "../../server/billing/run";
import { billing_notices, mail_outbox, payment_types, users } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { sandboxProviders } from "../../server/core/providers/registry";
import { systemClock } from "../../server/core/providers/clock";
import { addMember, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
let org: { id: number };
let gym: { id: number };
let price: Awaited<ReturnType<typeof makePrice>>;
let n = 0;
const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);
const URL_ = "http://signup.localhost:3000/";
/** Where the members' e-mails link to (server/member-mail/brand.ts). */
const SITE = { origin: URL_.replace(/\/$/, ""), secret: "billing-notices-test-secret" };

beforeAll(async () => {
  env = await setup();
  org = await makeOrganisation(env.db, { name: "Notice Gyms" });
  gym = await makeGym(env.db, org.id, "Harbour Gym");
  price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_000, billing_frequency: "weekly" });
});
afterAll(() => env.close());

async function member(card: string, flags: Partial<typeof users.$inferInsert> = {}) {
  const user = await makeUser(env.db, { name: `noticed ${++n}`, email: `noticed${n}@example.com`, ...flags });
  const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { payment_method: card } }).returning();
  await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
  const s = await makeSubscription(env.db, price, user.id, gym.id, { billing_anchor: "2026-01-05", current_period_start: startOfLocalDay("2026-01-05"), current_period_end: startOfLocalDay("2026-01-12") });
  await makePayment(env.db, s, { amount: 2_000, period_start_at: startOfLocalDay("2026-01-05"), period_end_at: startOfLocalDay("2026-01-12") });
  return user;
}
const mailsTo = async (email: string) => env.db.select().from(mail_outbox).where(eq(mail_outbox.to, email));

describe("billing e-mails", () => {
  it("tells a member once of a failed payment, with the next try, the grace period and a link to update their card", async () => {
    const short = await member("pm_card_chargeDeclinedInsufficientFunds");
    const lost = await member("pm_card_chargeDeclinedLostCard");
    const quiet = await member("pm_card_chargeDeclinedInsufficientFunds", { payment_reminders: false });
    await billingRun(env.db, sandboxProviders(env.db), at("2026-01-12"));
    const mailer = outboxMailer(env.db);
    const first = await sendBillingNotices(env.db, mailer, sandboxProviders(env.db, systemClock, URL_), at("2026-01-12", 11), SITE);
    const again = await sendBillingNotices(env.db, mailer, sandboxProviders(env.db, systemClock, URL_), at("2026-01-12", 12), SITE);
    expect(first.sent).toBe(2);
    expect(first.skipped).toBe(1);
    expect(first.pushed).toBe(2);
    expect(again).toEqual({ sent: 0, skipped: 0, pushed: 0 });
    const [soft] = await mailsTo(short.email);
    expect(soft.subject).toBe("Your Harbour Gym payment did not go through");
    expect(soft.text).toContain("$20.00 did not go through");
    expect(soft.text).toContain("We will try again on 13 Jan 2026");
    expect(soft.text).toContain("keeps working until 19 Jan 2026");
    // The link is a deep link (the sandbox Branch's, on the sign-up address) that opens the member app or the page where the member changes how they pay.
    expect(soft.text).toMatch(new RegExp(`${URL_}api/links/[\\w-]+`));
    const link = soft.text.match(/http\S+api\/links\/[\w-]+/)![0];
    const opened = await env.api.fetch(new Request(link));
    expect([opened.status, opened.headers.get("location")]).toEqual([302, `${URL_}membership/payment`]);
    const [hard] = await mailsTo(lost.email);
    expect(hard.subject).toBe("Please update your payment method for Harbour Gym");
    expect(hard.text).toContain("the card was reported lost. We will not try this payment method again");
    expect(await mailsTo(quiet.email)).toEqual([]);
    // A retry failing again is not news: no second e-mail.
    await billingRun(env.db, sandboxProviders(env.db), at("2026-01-13"));
    await sendBillingNotices(env.db, mailer, sandboxProviders(env.db, systemClock, URL_), at("2026-01-13", 11), SITE);
    expect(await mailsTo(short.email)).toHaveLength(1);
  });

  it("warns two days before the grace period runs out, once, with what is owed", async () => {
    const lost = await member("pm_card_chargeDeclinedLostCard");
    await billingRun(env.db, sandboxProviders(env.db), at("2026-01-12"));
    const mailer = outboxMailer(env.db);
    await sendBillingNotices(env.db, mailer, sandboxProviders(env.db, systemClock, URL_), at("2026-01-14"), SITE);
    expect(await mailsTo(lost.email)).toHaveLength(1);
    await sendBillingNotices(env.db, mailer, sandboxProviders(env.db, systemClock, URL_), at("2026-01-17"), SITE);
    await sendBillingNotices(env.db, mailer, sandboxProviders(env.db, systemClock, URL_), at("2026-01-18"), SITE);
    const mails = await mailsTo(lost.email);
    expect(mails.map((m) => m.subject)).toEqual(["Please update your payment method for Harbour Gym", "Your Harbour Gym membership stops on 19 Jan 2026"]);
    expect(mails[1].text).toContain("has $20.00 unpaid");
    expect(await env.db.$count(billing_notices, eq(billing_notices.user_id, lost.id))).toBe(2);
  });
});
