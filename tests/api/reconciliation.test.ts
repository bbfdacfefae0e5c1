import { mailSite } from "../../server/member-mail/brand";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { hashPassword } from "../../server/core/auth/password";
import { createApi } from "../../server/api/app";
import { billingRun } from "../../server/billing/run";
import { mail_outbox, payment_adjustments, payment_types, payments, reconciliation_differences, sandbox_ledger } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { simulatedClock } from "../../server/core/providers/clock";
import { sandboxProviders } from "../../server/core/providers/registry";
import { decideSandboxDispute, openSandboxDispute } from "../../server/core/providers/refunds";
import { chargeBackSandboxDirectDebit } from "../../server/core/providers/direct-debit/sandbox";
import { reconcile } from "../../server/reconciliation/reconcile";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { main } from "../../scripts/reconcile";
import { setup, signedIn } from "./harness";

/**
 * The daily reconciliation (issue 28): real charges made through the sandboxes by the billing run on a simulated
 * clock, then our books or the provider's tampered with, one class of difference per member.
 */
const PASSWORD = "reconciliation test passphrase";
const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);
const NOW = at("2026-01-13", 4);
const clock = simulatedClock(at("2026-01-12"));
const WINDOW = { from: "2026-01-10", until: "2026-01-12" };
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let providers: ReturnType<typeof sandboxProviders>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let org: { id: number };
const member: Record<string, typeof payments.$inferSelect> = {};

beforeAll(async () => {
  env = await setup();
  providers = sandboxProviders(env.db, clock);
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW, providers });
  org = await makeOrganisation(env.db, { name: "Reconciled Gyms" });
  const gym = await makeGym(env.db, org.id, "Ledger Lane");
  const weekly = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_500, billing_frequency: "weekly" });
  const hash = await hashPassword(PASSWORD);
  const a = await makeUser(env.db, { name: "recon admin", email: "recon.admin@example.com", password_hash: hash });
  await addStaff(env.db, a.id, org.id, "admin");
  const tr = await makeUser(env.db, { name: "recon trainer", email: "recon.trainer@example.com", password_hash: hash });
  await addStaff(env.db, tr.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
  admin = await signedIn(api, env.db, a.email, PASSWORD);
  trainer = await signedIn(api, env.db, tr.email, PASSWORD);
  const subs: Record<string, number> = {};
  for (const name of ["pending", "declined", "failed", "amount", "refund", "fine"]) {
    const user = await makeUser(env.db, { name: `Member ${name}`, email: `recon.${name}@example.com` });
    const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type: "stripe_card", details: { last_four: "4242", payment_method: "pm_card_visa" } }).returning();
    await addMember(env.db, user.id, org.id, gym.id, { default_payment_type_id: pt.id });
    const s = await makeSubscription(env.db, weekly, user.id, gym.id, { billing_anchor: "2026-01-05", current_period_start: startOfLocalDay("2026-01-05"), current_period_end: startOfLocalDay("2026-01-12") });
    subs[name] = s.id;
  }
  // Monday 12 January: every member's week is charged by card at the sandbox Stripe.
  await billingRun(env.db, providers, at("2026-01-12"));
  for (const [name, id] of Object.entries(subs)) {
    const [p] = await env.db.select().from(payments).where(eq(payments.subscription_id, id));
    expect([p.status, p.stripe_id?.startsWith("pi_sandbox_")]).toEqual(["sent", true]);
    member[name] = p;
  }
  // (a) The provider's answer never written down: still pending here, succeeded at Stripe.
  await env.db.update(payments).set({ status: "pending" }).where(eq(payments.id, member.pending.id));
  // (b) Ours paid, but Stripe's books say the card was declined.
  await env.db.update(sandbox_ledger).set({ status: "requires_payment_method", decline_code: "generic_decline" }).where(eq(sandbox_ledger.object_id, member.declined.stripe_id!));
  // (c) Ours failed with no reference; Stripe holds a successful charge whose metadata names it.
  await env.db.update(payments).set({ status: "failed", stripe_id: null, error_status: "generic_decline" }).where(eq(payments.id, member.failed.id));
  // (d) Ours says $26.00, Stripe took $25.00.
  await env.db.update(payments).set({ amount: 2_600 }).where(eq(payments.id, member.amount.id));
  // (e) A refund made in Stripe's dashboard, which we never heard of.
  await providers.cards.refund({ paymentReference: member.refund.stripe_id!, amount: 500, currency: "nzd", account: null, refundedBefore: 0, idempotencyKey: "dashboard-refund-1", metadata: {} });
});
afterAll(() => env.close());

const differences = () => env.db.select().from(reconciliation_differences).orderBy(reconciliation_differences.id);

describe("the daily reconciliation", () => {
  it("corrects what the provider settled, records what it refunded, and leaves the rest open for a person", async () => {
    const report = await reconcile(env.db, providers, WINDOW, NOW);
    expect(report.errors).toEqual([]);
    expect(report.byKind).toEqual({
      settled_not_recorded: { corrected: 1, open: 0 },
      recorded_not_taken: { corrected: 0, open: 1 },
      taken_not_recorded: { corrected: 0, open: 1 },
      amount_differs: { corrected: 0, open: 1 },
      refund_not_recorded: { corrected: 1, open: 0 },
    });
    expect([report.corrected, report.open, report.stillOpen]).toEqual([2, 3, 3]);
    const rows = await differences();
    const byKind = Object.fromEntries(rows.map((d) => [d.kind, d]));
    // (a) written through the one writer: paid now.
    expect((await env.db.select().from(payments).where(eq(payments.id, member.pending.id)))[0].status).toBe("sent");
    expect([byKind.settled_not_recorded.status, byKind.settled_not_recorded.payment_id]).toEqual(["corrected", member.pending.id]);
    // (b) ours paid, Stripe declined it.
    expect(byKind.recorded_not_taken).toMatchObject({ status: "open", payment_id: member.declined.id, provider: "stripe", provider_reference: member.declined.stripe_id, theirs: { status: "declined (generic_decline)", amount: 2_500 } });
    // (c) money taken for a payment we hold as failed: left failed, open.
    expect(byKind.taken_not_recorded).toMatchObject({ status: "open", payment_id: member.failed.id, provider_reference: member.failed.stripe_id, ours: { status: "failed" } });
    expect((await env.db.select().from(payments).where(eq(payments.id, member.failed.id)))[0].status).toBe("failed");
    // (d)
    expect(byKind.amount_differs).toMatchObject({ status: "open", payment_id: member.amount.id, ours: { amount: 2_600 }, theirs: { amount: 2_500 }, day: "2026-01-12" });
    // (e) the provider's refund, as a webhook would have written it.
    const [adjustment] = await env.db.select().from(payment_adjustments).where(eq(payment_adjustments.payment_id, member.refund.id));
    expect(adjustment).toMatchObject({ kind: "refund", status: "succeeded", amount: 500, source: "provider", method: "stripe", organisation_id: org.id });
    expect(adjustment.provider_id).toMatch(/^re_sandbox_/);
    expect([byKind.refund_not_recorded.status, byKind.refund_not_recorded.payment_id]).toEqual(["corrected", member.refund.id]);
  });

  it("adds nothing when it runs again over the same days", async () => {
    const before = await differences();
    const again = await reconcile(env.db, providers, WINDOW, NOW);
    expect([again.corrected, again.open, again.stillOpen]).toEqual([0, 0, 3]);
    expect(await differences()).toHaveLength(before.length);
    expect(await env.db.$count(payment_adjustments, eq(payment_adjustments.payment_id, member.refund.id))).toBe(1);
  });

  it("lists open differences in words for organisation admins, and lets them explain one; a trainer may not", async () => {
    const list = await admin.call("GET", "/api/reconciliation");
    expect(list.status).toBe(200);
    const body = list.json as { data: { data: { id: number; kind: string; in_words: string; member: { name: string } | null; ours_amount: number; theirs_amount: number }[]; meta: { total: number; open: number } } };
    expect([body.data.meta.total, body.data.meta.open]).toEqual([3, 3]);
    const amount = body.data.data.find((d) => d.kind === "amount_differs")!;
    expect([amount.member?.name, amount.in_words, amount.ours_amount, amount.theirs_amount]).toEqual(["Member amount", "We recorded $26.00; Stripe has $25.00.", 2_600, 2_500]);
    expect((await admin.call("GET", "/api/reconciliation?status=corrected")).json).toMatchObject({ data: { meta: { total: 2 } } });
    expect((await admin.call("GET", "/api/reconciliation?status=nonsense")).status).toBe(422);

    const empty = await admin.call("POST", `/api/reconciliation/${amount.id}/explain`, { explanation: "  " });
    expect([empty.status, (empty.json as { errors: Record<string, string[]> }).errors]).toEqual([422, { explanation: ["Value is required"] }]);
    const long = await admin.call("POST", `/api/reconciliation/${amount.id}/explain`, { explanation: "x".repeat(1001) });
    expect([long.status, (long.json as { errors: Record<string, string[]> }).errors]).toEqual([422, { explanation: ["Use at most 1000 characters"] }]);
    expect((await trainer.call("GET", "/api/reconciliation")).status).toBe(403);
    // The dashboard counts them for organisation admins, and says nothing of them to others.
    const open = (await admin.call("GET", "/api/reconciliation")).json.data.meta.open;
    expect(open).toBeGreaterThan(0);
    expect((await admin.call("GET", "/api/dashboard")).json.data.reconciliation_open).toBe(open);
    expect((await trainer.call("GET", "/api/dashboard")).json.data.reconciliation_open).toBeNull();
    expect((await trainer.call("POST", `/api/reconciliation/${amount.id}/explain`, { explanation: "mine" })).status).toBe(403);

    const explained = await admin.call("POST", `/api/reconciliation/${amount.id}/explain`, { explanation: "Price changed at the desk; Stripe charged the old one." });
    expect(explained.status).toBe(200);
    const [row] = await env.db.select().from(reconciliation_differences).where(eq(reconciliation_differences.id, amount.id));
    expect([row.status, row.explanation, row.resolved_at?.toISOString()]).toEqual(["explained", "Price changed at the desk; Stripe charged the old one.", NOW.toISOString()]);
    expect((await admin.call("GET", "/api/reconciliation")).json).toMatchObject({ data: { meta: { total: 2, open: 2 } } });
    // Explained is not asked again: the next run does not open it anew.
    expect((await reconcile(env.db, providers, WINDOW, NOW)).open).toBe(0);
    expect(await env.db.$count(reconciliation_differences, and(eq(reconciliation_differences.kind, "amount_differs")))).toBe(1);
  });

  it("npm run reconcile prints counts by kind and exits 1 while a difference is open", async () => {
    const lines: string[] = [];
    const code = await main(["--from", WINDOW.from, "--until", WINDOW.until], {}, (l) => lines.push(l), async () => ({ db: env.db, close: async () => {} }));
    expect(code).toBe(1);
    expect(lines[1]).toMatch(/^Reconciled 2026-01-10 to 2026-01-12: \d+ checked, 0 corrected, 0 new open, 2 open in all\.$/);
    expect(await main(["--from", "2026-01-12", "--until", "2026-01-10"], {}, (l) => lines.push(l))).toBe(2);
    // Once every open difference is explained, it exits 0.
    await env.db.update(reconciliation_differences).set({ status: "explained", explanation: "checked" }).where(eq(reconciliation_differences.status, "open"));
    expect(await main(["--from", WINDOW.from, "--until", WINDOW.until], {}, () => {}, async () => ({ db: env.db, close: async () => {} }))).toBe(0);
  });
});

describe("chargebacks at the providers (issue 28)", () => {
  // Charged on Monday 2 February (the direct debit paid by the 10th); taken back on the 10th and 11th.
  const LATER = { from: "2026-02-09", until: "2026-02-11" };
  const after = at("2026-02-12", 4);
  const people: Record<string, { payment: typeof payments.$inferSelect; email: string }> = {};

  beforeAll(async () => {
    const gym = (await env.db.select().from(payments).where(eq(payments.id, member.fine.id)))[0].gym_id;
    const weekly = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Weekly later" }), { amount: 3_000, billing_frequency: "weekly" });
    const subs: Record<string, number> = {};
    for (const name of ["lost", "open", "debit"]) {
      const user = await makeUser(env.db, { name: `Member ${name}`, email: `recon.chargeback.${name}@example.com` });
      const card = name !== "debit";
      const details: Record<string, string> = card ? { last_four: "4242", payment_method: "pm_card_visa" } : { name: "Member debit", account_number: "12-3456-0123456-00", mandate_id: "MD_RECON_1" };
      const [pt] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: user.id, type: card ? "stripe_card" : "gocardless_bank_account", details }).returning();
      await addMember(env.db, user.id, org.id, gym, { default_payment_type_id: pt.id });
      const s = await makeSubscription(env.db, weekly, user.id, gym, { billing_anchor: "2026-01-26", current_period_start: startOfLocalDay("2026-01-26"), current_period_end: startOfLocalDay("2026-02-02") });
      subs[name] = s.id;
      people[name] = { payment: null as never, email: user.email };
    }
    await billingRun(env.db, providers, at("2026-02-02"));
    // Waitangi Day (6 February) holds the direct debit's confirmation back to the 10th.
    for (const day of ["2026-02-09", "2026-02-10"]) {
      clock.set(at(day));
      await billingRun(env.db, providers, at(day));
    }
    for (const [name, id] of Object.entries(subs)) {
      const [p] = await env.db.select().from(payments).where(and(eq(payments.subscription_id, id), eq(payments.period_start_at, startOfLocalDay("2026-02-02"))));
      expect([name, p.status, p.error_description]).toEqual([name, "sent", null]);
      people[name].payment = p;
    }
    // Disputes opened at Stripe on the 10th, one since lost; a direct debit made on the 2nd, charged back on the 11th.
    const lost = await openSandboxDispute(env.db, { paymentReference: people.lost.payment.stripe_id!, amount: 3_000, account: null, at: at("2026-02-10") });
    await decideSandboxDispute(env.db, lost, "lost");
    await openSandboxDispute(env.db, { paymentReference: people.open.payment.stripe_id!, amount: 3_000, account: null, at: at("2026-02-10") });
    // And one of a charge that is none of ours.
    await openSandboxDispute(env.db, { paymentReference: "pi_not_ours", amount: 900, account: null, at: at("2026-02-10") });
    await chargeBackSandboxDirectDebit(env.db, people.debit.payment.gocardless_payment_id!, at("2026-02-11", 12));
    clock.set(after);
  });

  it("lists Stripe's disputes and GoCardless's chargebacks of the window, writes through those of our paid payments and tells their members", async () => {
    const report = await reconcile(env.db, providers, LATER, after, { mailer: outboxMailer(env.db), site: mailSite(env.config) });
    expect(report.errors).toEqual([]);
    expect(report.byKind.chargeback_not_recorded).toEqual({ corrected: 3, open: 1 });
    const chargebacks = async (name: string) => (await env.db.select().from(payment_adjustments).where(eq(payment_adjustments.payment_id, people[name].payment.id))).map((a) => [a.kind, a.status, a.amount, a.method, a.source]);
    expect(await chargebacks("lost")).toEqual([["chargeback", "lost", 3_000, "stripe", "provider"]]);
    expect(await chargebacks("open")).toEqual([["chargeback", "open", 3_000, "stripe", "provider"]]);
    expect(await chargebacks("debit")).toEqual([["chargeback", "lost", 3_000, "gocardless", "provider"]]);
    // Lost: owing again, as from the webhooks.
    for (const name of ["lost", "debit"]) {
      const attempts = await env.db.select().from(payments).where(and(eq(payments.subscription_id, people[name].payment.subscription_id!), eq(payments.period_start_at, startOfLocalDay("2026-02-02")))).orderBy(payments.attempt);
      expect(attempts.map((p) => [p.status, p.error_status])).toEqual([["sent", null], ["failed", "charged_back"]]);
    }
    const [notOurs] = await env.db.select().from(reconciliation_differences).where(and(eq(reconciliation_differences.kind, "chargeback_not_recorded"), eq(reconciliation_differences.status, "open")));
    expect([notOurs.payment_id, notOurs.theirs]).toEqual([null, expect.objectContaining({ payment: "pi_not_ours", amount: 900 })]);
    // The members of the lost ones are told, once.
    const subjects = async (name: string) => (await env.db.select().from(mail_outbox).where(eq(mail_outbox.to, people[name].email))).map((m) => m.subject);
    expect([await subjects("lost"), await subjects("open"), await subjects("debit")]).toEqual([["Your bank took back $30.00 paid to Ledger Lane"], [], ["Your bank took back $30.00 paid to Ledger Lane"]]);

    const again = await reconcile(env.db, providers, LATER, after, { mailer: outboxMailer(env.db), site: mailSite(env.config) });
    expect([again.corrected, again.open]).toEqual([0, 0]);
    expect(await subjects("lost")).toHaveLength(1);
  });

  it("npm run reconcile uses the providers the environment configures, as the server does (a production server with no keys asks no sandbox)", async () => {
    const lines: string[] = [];
    const production = { NODE_ENV: "production", SMTP_URL: "smtp://mail.invalid:2525", SESSION_SECRET: "s".repeat(32), TOAST_SECRET: "t".repeat(32), CREDENTIALS_KEY: "c".repeat(32) };
    const code = await main(["--from", LATER.from, "--until", LATER.until], production, (l) => lines.push(l), async () => ({ db: env.db, close: async () => {} }));
    expect(code).toBe(1);
    expect(lines[0]).toBe("Providers: cards unconfigured, direct debits unconfigured (the deployment's; a gym's own connection is used for its payments).");
    expect(lines.some((l) => /not compared: Stripe for gym \d+: Stripe is not configured: set STRIPE_SECRET_KEY/.test(l))).toBe(true);
    // Outside production with no keys: the sandboxes, as the server runs them.
    const dev: string[] = [];
    await main(["--from", LATER.from, "--until", LATER.until], {}, (l) => dev.push(l), async () => ({ db: env.db, close: async () => {} }));
    expect(dev[0]).toMatch(/^Providers: cards sandbox, direct debits sandbox/);
  });
});
