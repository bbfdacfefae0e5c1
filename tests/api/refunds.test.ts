import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { billingRun } from "../../server/billing/run";
import { daily_revenue, destination_accounts, mail_outbox, payment_adjustments, payments, sandbox_ledger } from "../../server/core/db/schema";
import { addStaff, makeGym, makeOrganisation, makePayment, makeUser } from "../../server/seed/factories";
import { itRaces, signedIn } from "./harness";
import { at, moneyWorld } from "./money-fixture";

/**
 * Refunds staff give (issue 28): previewed, written down before the provider is asked, once per form, never more
 * than is left of the payment, through the payment's own provider (or by hand for money taken at the desk),
 * e-mailed to the member, and taken off the day's revenue.
 */
const PASSWORD = "refunds test passphrase";
let world: Awaited<ReturnType<typeof moneyWorld>>;
let env: typeof world.env;
let api: typeof world.api;
let admin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let stranger: Awaited<ReturnType<typeof signedIn>>;
let org: typeof world.org;
let gym: typeof world.gym;
let providers: typeof world.providers;
let paidMember: typeof world.paidMember;
let adjustmentsOf: typeof world.adjustmentsOf;
let n = 0;

beforeAll(async () => {
  world = await moneyWorld({ organisation: "Refund Gyms", gym: "Refund Road", member: "refund" });
  ({ env, api, org, gym, providers, paidMember, adjustmentsOf } = world);
  await env.db
    .insert(destination_accounts)
    .values({ organisation_id: org.id, gym_id: gym.id, name: "Refund Road Ltd", bank_account_number: "01-0123-0456789-00" });
  const hash = await hashPassword(PASSWORD);
  const a = await makeUser(env.db, { name: "refund admin", email: "refund.admin@example.com", password_hash: hash });
  await addStaff(env.db, a.id, org.id, "admin");
  const tr = await makeUser(env.db, { name: "refund trainer", email: "refund.trainer@example.com", password_hash: hash });
  await addStaff(env.db, tr.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
  const other = await makeOrganisation(env.db, { name: "Other Gyms" });
  await makeGym(env.db, other.id, "Elsewhere");
  const o = await makeUser(env.db, { name: "other admin", email: "other.admin@example.com", password_hash: hash });
  await addStaff(env.db, o.id, other.id, "admin");
  admin = await signedIn(api, env.db, a.email, PASSWORD);
  trainer = await signedIn(api, env.db, tr.email, PASSWORD);
  stranger = await signedIn(api, env.db, o.email, PASSWORD);
});
afterAll(() => env.close());

const refund = (id: number, body: Record<string, unknown>, who = admin) =>
  who.call("POST", `/api/payments/${id}/refunds`, { reason: "requested_by_customer", key: `key-${++n}-refund`, ...body });

describe("refunding a card payment", () => {
  it("previews, then refunds part through Stripe with its key, e-mails the member and takes it off the day's revenue", async () => {
    const { user, payment } = await paidMember();
    const preview = await refund(payment.id, { amount: 1_000, preview: true });
    expect(preview.status).toBe(200);
    expect(preview.json.data.preview).toMatchObject({
      amount: 1_000,
      paid: 2_500,
      left_before: 2_500,
      left_after: 1_500,
      method: "stripe",
      through_provider: true,
    });
    expect(preview.json.data.preview.member_sees).toContain("has refunded $10.00 of your payment of $25.00");
    expect(await adjustmentsOf(payment.id)).toEqual([]);

    const revenue = async () =>
      Number(
        (
          await env.db
            .select({ c: sql<number>`sum(${daily_revenue.collected})` })
            .from(daily_revenue)
            .where(eq(daily_revenue.organisation_id, org.id))
        )[0].c,
      );
    const before = await revenue();
    const made = await refund(payment.id, { amount: 1_000, note: "Away a week" });
    expect(made.status).toBe(201);
    const [row] = await adjustmentsOf(payment.id);
    expect([row.kind, row.status, row.amount, row.method, row.source, row.provider_id?.startsWith("re_sandbox_")]).toEqual([
      "refund",
      "succeeded",
      1_000,
      "stripe",
      "staff",
      true,
    ]);
    // At the provider: one refund of the intent we charged, under our key.
    const ledger = await env.db.select().from(sandbox_ledger).where(eq(sandbox_ledger.provider, "stripe_refund"));
    expect(ledger.filter((l) => l.request.payment === payment.stripe_id).map((l) => [l.amount, l.idempotency_key])).toEqual([[1_000, row.idempotency_key]]);
    expect(await revenue()).toBe(before - 1_000);
    const [mail] = await env.db.select().from(mail_outbox).where(eq(mail_outbox.to, user.email));
    expect(mail.subject).toBe("Refund Road refunded $10.00");

    const shown = await admin.call("GET", `/api/payments/${payment.id}/refunds`);
    expect(shown.json.data).toMatchObject({
      refundable: 1_500,
      method: "stripe",
      adjustments: [{ amount: 1_000, status: "succeeded", in_words: "Refunded $10.00" }],
    });
  });

  it("refunds once for a form sent twice, and never more than is left", async () => {
    const { payment } = await paidMember();
    const body = { amount: 2_000, key: "same-form-key-1" };
    expect((await refund(payment.id, body)).status).toBe(201);
    const again = await refund(payment.id, body);
    expect([again.status, again.json.data.repeated]).toEqual([200, true]);
    expect(await adjustmentsOf(payment.id)).toHaveLength(1);
    // And the database holds one refund per key, whoever writes it.
    const [row] = await adjustmentsOf(payment.id);
    const { id: _id, ...copy } = row;
    await expect(env.db.insert(payment_adjustments).values(copy)).rejects.toThrow();
    const over = await refund(payment.id, { amount: 501 });
    expect([over.status, over.json.errors.amount]).toEqual([422, ["Refund at most $5.00: that is what is left of this payment"]]);
    expect((await refund(payment.id, { amount: 500 })).status).toBe(201);
    const done = await refund(payment.id, { amount: 1 });
    expect(done.json.errors.payment).toEqual(["This payment is refunded in full already"]);
  });

  itRaces("gives back no more than was paid when two refunds are asked at once (the payment's row is locked while one is decided)", async () => {
    const { payment } = await paidMember();
    const answers = await Promise.all([refund(payment.id, { amount: 1_500 }), refund(payment.id, { amount: 1_500 }), refund(payment.id, { amount: 1_500 })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422]);
    expect((await adjustmentsOf(payment.id)).map((a) => a.amount)).toEqual([1_500]);
    // A double click: the second finds the first once it may look, and answers it.
    const twice = await Promise.all([
      refund(payment.id, { amount: 1_000, key: "double-click-1" }),
      refund(payment.id, { amount: 1_000, key: "double-click-1" }),
    ]);
    expect(twice.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(await adjustmentsOf(payment.id)).toHaveLength(2);
  });

  it("records a refund the provider refuses as failed, gives nothing back, and leaves the amount refundable", async () => {
    const { payment } = await paidMember();
    // An intent the sandbox never made (as Stripe: "No such payment_intent").
    await env.db.update(payments).set({ stripe_id: "pi_never_made" }).where(eq(payments.id, payment.id));
    expect((await refund(payment.id, { amount: 700 })).status).toBe(201);
    const [row] = await adjustmentsOf(payment.id);
    expect([row.status, row.error]).toEqual(["failed", "No such payment: 'pi_never_made'"]);
    expect((await admin.call("GET", `/api/payments/${payment.id}/refunds`)).json.data.refundable).toBe(2_500);
  });

  it("refuses bad input with the field's message, what is not paid, and those without money rights or of another organisation", async () => {
    const { payment } = await paidMember();
    expect((await refund(payment.id, { amount: 0 })).json.errors.amount).toEqual(["Enter an amount of at least $0.01"]);
    expect((await refund(payment.id, { amount: "ten" })).status).toBe(422);
    expect((await refund(payment.id, { amount: 100, reason: "because" })).json.errors.reason).toEqual(["Choose why it is refunded"]);
    expect((await refund(payment.id, { amount: 100, key: "" })).status).toBe(422);
    expect((await refund(payment.id, { amount: 100 }, trainer)).status).toBe(403);
    expect((await refund(payment.id, { amount: 100 }, stranger)).status).toBe(404);
    expect((await stranger.call("GET", `/api/payments/${payment.id}/refunds`)).status).toBe(404);
    const pending = await makePayment(
      env.db,
      { id: payment.subscription_id!, organisation_id: org.id, user_id: payment.user_id, gym_id: gym.id },
      { amount: 900, status: "pending" },
    );
    expect((await refund(pending.id, { amount: 100 })).json.errors.payment).toEqual(["Only a paid payment can be refunded"]);
    expect(await adjustmentsOf(payment.id)).toEqual([]);
  });
});

describe("refunding money taken by hand, or by direct debit", () => {
  it("records a refund of a cash payment as given back at once, by hand", async () => {
    const { payment } = await paidMember();
    const cash = await makePayment(
      env.db,
      { id: payment.subscription_id!, organisation_id: org.id, user_id: payment.user_id, gym_id: gym.id },
      { amount: 4_000, status: "sent", pif_payment: "cash", type: "pif" },
    );
    const made = await refund(cash.id, { amount: 4_000 });
    expect(made.json.data.effect).toMatchObject({ method: "cash", method_label: "In cash at the desk", through_provider: false });
    const [row] = await adjustmentsOf(cash.id);
    expect([row.status, row.method, row.provider_id, row.settled_at !== null]).toEqual(["succeeded", "cash", null, true]);
  });

  it("takes off revenue only the refund's share of the amount: a surcharge given back was never revenue", async () => {
    const { payment } = await paidMember();
    const desk = await makePayment(
      env.db,
      { id: payment.subscription_id!, organisation_id: org.id, user_id: payment.user_id, gym_id: gym.id },
      { amount: 2_000, surcharge: 100, status: "sent", pif_payment: "eftpos", type: "pif" },
    );
    const revenue = async () => {
      const [r] = await env.db
        .select({ c: sql<number>`sum(${daily_revenue.collected})`, back: sql<number>`sum(${daily_revenue.returned})` })
        .from(daily_revenue)
        .where(eq(daily_revenue.organisation_id, org.id));
      return [Number(r.c), Number(r.back)];
    };
    const [collected, returned] = await revenue();
    expect((await refund(desk.id, { amount: 2_100 })).status).toBe(201);
    expect(await revenue()).toEqual([collected - 2_000, returned + 2_000]);
  });

  it("refunds a direct debit through GoCardless: on its way first, made once GoCardless pays it, asked by the billing run", async () => {
    const { payment } = await paidMember("gocardless_bank_account");
    expect((await refund(payment.id, { amount: 2_500 })).status).toBe(201);
    let [row] = await adjustmentsOf(payment.id);
    expect([row.status, row.provider_id?.startsWith("RF")]).toEqual(["pending", true]);
    // Held against the payment while it is on its way: nothing more can be refunded.
    expect((await refund(payment.id, { amount: 1 })).json.errors.payment).toEqual(["This payment is refunded in full already"]);
    await billingRun(env.db, providers, at("2026-01-22"));
    [row] = await adjustmentsOf(payment.id);
    expect(row.status).toBe("succeeded");
  });
});
