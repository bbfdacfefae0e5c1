import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { hashPassword } from "../../server/core/auth/password";
import { createApi } from "../../server/api/app";
import { payment_adjustments, payment_types, payments, visits } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";
import { eachPayment } from "../../server/payments/list";
import { withTenant } from "../../server/core/db/tenant";
import { sql } from "drizzle-orm";
import { adjustedIs } from "../../server/payments/adjustments";

/** A built query with its parameters written in, for EXPLAIN (numbers, text and dates only). */
const inline = (q: { sql: string; params: unknown[] }) =>
  q.sql.replace(/\$(\d+)/g, (_, i) => {
    const v = q.params[Number(i) - 1];
    return typeof v === "number" ? String(v) : `'${(v instanceof Date ? v.toISOString() : String(v)).replace(/'/g, "''")}'`;
  });

/** /api/payments and /api/visits (issue 12) on a fixed day, Wednesday 2 December 2026. */
const PASSWORD = "money lists passphrase";
const NOW = new Date(startOfLocalDay("2026-12-02").getTime() + 10 * 3_600_000);
let env: Awaited<ReturnType<typeof setup>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let north: { id: number };
let south: { id: number };
let olivia: { id: number };
let orgId: number;
let noah: { id: number };
const at = (day: string, hour = 10) => new Date(startOfLocalDay(day).getTime() + hour * 3_600_000);

beforeAll(async () => {
  env = await setup();
  const api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => NOW });
  const org = await makeOrganisation(env.db, { name: "Lists Gyms" });
  orgId = org.id;
  north = await makeGym(env.db, org.id, "North");
  south = await makeGym(env.db, org.id, "South");
  const price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_500, billing_frequency: "weekly" });
  olivia = await makeUser(env.db, { name: "Olivia Payer", email: "olivia.payer@example.com" });
  noah = await makeUser(env.db, { name: "Noah Other", email: "noah.other@example.com" });
  await addMember(env.db, olivia.id, org.id, north.id);
  await addMember(env.db, noah.id, org.id, south.id);
  const [card] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: olivia.id, type: "stripe_card", details: { last_four: "4242" } }).returning();
  const [dd] = await env.db.insert(payment_types).values({ organisation_id: org.id, user_id: noah.id, type: "gocardless_bank_account", details: { mandate_id: "MD1" } }).returning();
  const so = await makeSubscription(env.db, price, olivia.id, north.id);
  const sn = await makeSubscription(env.db, price, noah.id, south.id);
  const pay = (s: { id: number; organisation_id: number; gym_id: number; user_id: number }, values: Partial<typeof payments.$inferInsert>) => ({
    organisation_id: s.organisation_id,
    gym_id: s.gym_id,
    user_id: s.user_id,
    subscription_id: s.id,
    amount: 2_500,
    status: "sent",
    ...values,
  });
  const made = await env.db.insert(payments).values([
    pay(so, { payment_type_id: card.id, surcharge: 38, created_at: at("2026-11-30"), period_start_at: startOfLocalDay("2026-11-30"), period_end_at: startOfLocalDay("2026-12-07") }),
    pay(so, { payment_type_id: card.id, status: "failed", error_description: "Your card was declined.", created_at: at("2026-11-23") }),
    pay(so, { status: "awaiting_payment", pif_payment: "bank_transfer", created_at: at("2026-11-24") }),
    pay(sn, { payment_type_id: dd.id, status: "pending", created_at: at("2026-12-01") }),
    pay(sn, { payment_type_id: dd.id, created_at: at("2026-10-01") }),
    pay(sn, { pif_payment: "cash", amount: 60_000, type: "pif", created_at: at("2026-11-15") }),
  ]).returning();
  // Money given back (issue 28): Olivia's card payment refunded $10.00, $2.00 more on its way, $5.00 failed, then
  // disputed at her bank; Noah's direct debit of October charged back (lost); his cash payment refunded in full.
  const [card1130, , , , dd1001, cash1115] = made;
  const adjust = (p: typeof card1130, kind: "refund" | "chargeback", status: string, amount: number, settled: string | null, method: string) => ({
    organisation_id: p.organisation_id,
    gym_id: p.gym_id,
    user_id: p.user_id,
    payment_id: p.id,
    kind,
    status: status as "succeeded",
    amount,
    source: kind === "refund" ? ("staff" as const) : ("provider" as const),
    method,
    settled_at: settled ? at(settled, 12) : null,
    created_at: at(settled ?? "2026-12-02", 11),
  });
  await env.db.insert(payment_adjustments).values([
    adjust(card1130, "refund", "succeeded", 1_000, "2026-12-01", "stripe"),
    adjust(card1130, "refund", "pending", 200, null, "stripe"),
    adjust(card1130, "refund", "failed", 500, "2026-12-01", "stripe"),
    adjust(card1130, "chargeback", "open", 1_338, null, "stripe"),
    adjust(dd1001, "chargeback", "lost", 2_500, "2026-11-20", "gocardless"),
    adjust(cash1115, "refund", "succeeded", 60_000, "2026-11-16", "cash"),
  ]);
  await env.db.insert(visits).values([
    { organisation_id: org.id, gym_id: north.id, user_id: olivia.id, visited_at: at("2026-12-01", 7) },
    { organisation_id: org.id, gym_id: north.id, user_id: olivia.id, visited_at: at("2026-11-28", 18), successful: false },
    { organisation_id: org.id, gym_id: south.id, user_id: noah.id, visited_at: at("2026-11-30", 6) },
    { organisation_id: org.id, gym_id: south.id, user_id: noah.id, visited_at: at("2026-09-01", 6) },
  ]);
  const hash = await hashPassword(PASSWORD);
  const a = await makeUser(env.db, { name: "lists admin", email: "lists.admin@example.com", password_hash: hash });
  await addStaff(env.db, a.id, org.id, "admin");
  const tr = await makeUser(env.db, { name: "lists trainer", email: "lists.trainer@example.com", password_hash: hash });
  await addStaff(env.db, tr.id, org.id, "personal_trainer", [{ gymId: north.id, role: "personal_trainer" }]);
  admin = await signedIn(api, env.db, a.email, PASSWORD);
  trainer = await signedIn(api, env.db, tr.email, PASSWORD);
});
afterAll(() => env.close());

const list = async (query: string) => (await admin.call("GET", `/api/payments?${query}`)).json.data;

describe("GET /api/payments", () => {
  it("lists the last 30 days' payments of every gym, newest first, with the filtered set's totals", async () => {
    const page = await list("gym=all");
    expect(page.meta).toMatchObject({ total: 5, from: "2026-11-03", to: "2026-12-02", page: 1 });
    expect(page.data.map((p: { created_at: string }) => p.created_at)).toEqual([at("2026-12-01"), at("2026-11-30"), at("2026-11-24"), at("2026-11-23"), at("2026-11-15")].map((d) => d.toISOString()));
    expect(page.data[1]).toMatchObject({ user: { name: "Olivia Payer" }, gym: "North", amount: 2_500, surcharge: 38, outcome: "successful", method: "Card ending 4242", period_start: "2026-11-30" });
    // What was given back in these days (by the day it settled), as revenue counts it: $600.00 refunded, $25.00
    // charged back, and $10.00 refunded of a $25.00 card payment with a $0.38 surcharge, whose share of the amount is $9.85.
    expect(page.totals).toEqual({ count: 5, successful: 62_538, successful_count: 2, not_failed: 5_000, not_failed_count: 2, failed: 2_500, failed_count: 1, returned: 63_485 });
  });

  it("says on each row what was refunded, charged back or disputed (issue 28)", async () => {
    const page = await list("gym=all&from=2026-09-01&to=2026-12-02");
    const given = page.data.map((p: { created_at: string; refunded: number; charged_back: number; disputed: boolean }) => [p.created_at.slice(0, 10), p.refunded, p.charged_back, p.disputed]);
    expect(given).toEqual([
      ["2026-11-30", 0, 0, false], // 1 December in Auckland: the direct debit still pending
      ["2026-11-29", 1_200, 0, true], // refunds made or under way count; the failed one does not
      ["2026-11-23", 0, 0, false],
      ["2026-11-22", 0, 0, false],
      ["2026-11-14", 60_000, 0, false],
      ["2026-09-30", 0, 2_500, false],
    ]);
    // The totals' given-back line is for the gym and the days alone: with another filter the rollup cannot say it.
    expect((await list(`gym=${south.id}`)).totals.returned).toBe(62_500);
    expect((await list("gym=all&status=successful")).totals.returned).toBeNull();
    expect((await list(`gym=all&member=${noah.id}`)).totals.returned).toBeNull();
  });

  it("filters by what was given back: refunded, charged back or disputed (issue 28)", async () => {
    const amounts = async (q: string) => (await list(`gym=all&${q}`)).data.map((p: { amount: number }) => p.amount);
    expect(await amounts("adjusted=refunded")).toEqual([2_500, 60_000]);
    expect(await amounts("adjusted=disputed")).toEqual([2_500]);
    expect((await list("gym=all&adjusted=disputed")).data[0].surcharge).toBe(38);
    expect(await amounts("adjusted=charged_back")).toEqual([]);
    expect(await amounts("adjusted=charged_back&from=2026-09-01&to=2026-12-02")).toEqual([2_500]);
    expect((await list(`adjusted=charged_back&from=2026-09-01&to=2026-12-02&gym=${north.id}`)).data).toEqual([]);
    expect((await list(`adjusted=charged_back&from=2026-09-01&to=2026-12-02&gym=${south.id}`)).data).toHaveLength(1);
    expect(await amounts("adjusted=refunded&method=cash")).toEqual([60_000]);
    // Its totals are counted from the payments it finds.
    expect((await list("gym=all&adjusted=refunded")).totals).toMatchObject({ count: 2, successful: 62_538, successful_count: 2, returned: null });
    const bad = await admin.call("GET", "/api/payments?adjusted=lost");
    expect([bad.status, bad.json.errors]).toEqual([422, { adjusted: ["Choose refunded, charged back or disputed"] }]);
  });

  it("finds given-back payments from the adjustments of the list's days alone, by the payment's day on each (issue 28)", async () => {
    // Every writer's adjustment carries its payment's day, filled from the payment whatever the writer says.
    const days = await env.db.execute(sql`select a.payment_created_at = p.created_at as same from payment_adjustments a join payments p on p.id = a.payment_id where a.organisation_id = ${orgId}`);
    expect((days as unknown as { rows: { same: boolean }[] }).rows.map((r) => r.same)).toEqual([true, true, true, true, true, true]);
    // The filter's own query reads the adjustments through the (organisation, kind, payment day) index, bounded by
    // the list's days: without them it read every refund the organisation ever made (p95 124–180 ms on the bench).
    const plan = await withTenant(env.db, orgId, null, async (t) => {
      const range = { start: startOfLocalDay("2026-11-03"), end: startOfLocalDay("2026-12-03") };
      const query = t.db.select({ id: payments.id }).from(payments).where(adjustedIs(t, "refunded", null, range)).toSQL();
      await t.db.execute(sql`set local enable_seqscan = off`);
      const rows = (await t.db.execute(sql.raw(`explain ${inline(query)}`))) as unknown as { rows: Record<string, string>[] };
      return rows.rows.map((r) => Object.values(r)[0]).join("\n");
    });
    expect(plan).toMatch(/payment_adjustments_payment_day_idx/);
    expect(plan).toMatch(/Index Cond: .*payment_created_at >=.*payment_created_at </);
  });

  it("filters by outcome (SPEC §4), method, member, text, gym and dates", async () => {
    const ids = async (q: string) => (await list(`gym=all&${q}`)).data.map((p: { created_at: string }) => p.created_at.slice(0, 10));
    expect((await list("gym=all&status=failed")).data.map((p: { error: string }) => p.error)).toEqual(["Your card was declined."]);
    expect((await list("gym=all&status=not_failed")).meta.total).toBe(2);
    expect((await list("gym=all&method=gocardless_bank_account")).data.map((p: { method: string }) => p.method)).toEqual(["Direct debit"]);
    expect((await list("gym=all&method=cash")).data.map((p: { amount: number }) => p.amount)).toEqual([60_000]);
    expect((await list(`gym=all&member=${noah.id}`)).meta.total).toBe(2);
    expect((await list("gym=all&q=olivia")).meta.total).toBe(3);
    expect((await list(`gym=${south.id}`)).meta.total).toBe(2);
    expect(await ids("from=2026-09-01&to=2026-10-31")).toEqual(["2026-09-30"]);
    const mark = (await list("gym=all&method=bank_transfer")).data[0];
    expect(mark.can_mark_received).toBe(true);
    // The totals come from the daily rollup without a member filter, and from the rows with one: they agree.
    for (const q of ["status=failed", "status=successful&method=stripe_card", `method=cash&gym=${south.id}`, "from=2026-09-01&to=2026-12-02"]) {
      const page = await list(`gym=all&${q}`);
      expect(page.totals.count).toBe(page.data.length);
      expect(page.totals.successful + page.totals.not_failed + page.totals.failed).toBe(page.data.reduce((n: number, p: { amount: number; surcharge: number }) => n + p.amount + p.surcharge, 0));
    }
  });

  it("answers a bad filter with its field's message", async () => {
    const res = await admin.call("GET", "/api/payments?status=lost&method=cheque&from=2026-02-30");
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ status: ["Choose a status from the list"], method: ["Choose a payment method from the list"], from: ["Enter the start date as a date"] });
    expect((await admin.call("GET", "/api/payments?from=2026-12-10&to=2026-12-01")).json.errors.to).toEqual(["The end date must be on or after the start date"]);
    expect((await admin.call("GET", "/api/payments?from=2024-01-01&to=2026-01-01")).json.errors.from).toEqual(["Choose at most 400 days"]);
  });

  it("is for staff who may see money: a personal trainer is refused", async () => {
    expect((await trainer.call("GET", "/api/payments")).status).toBe(403);
    expect((await trainer.call("POST", "/api/payments/export", {})).status).toBe(403);
  });

  it("reads an export batch after batch by keyset: every row once, in list order", async () => {
    const listed = (await list("gym=all&from=2026-09-01&to=2026-12-02")).data.map((p: { id: number }) => p.id);
    const batches: number[][] = [];
    await withTenant(env.db, orgId, null, async (t) => {
      for await (const rows of eachPayment(t, { gymId: null, from: "2026-09-01", to: "2026-12-02" }, NOW, 2)) batches.push(rows.map((p) => p.id));
    });
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flat()).toEqual(listed);
  });

  it("exports every matching payment as CSV", async () => {
    const res = await admin.call("POST", "/api/payments/export", { gym: "all", from: "2026-09-01", to: "2026-12-02" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="payments-2026-12-02.csv"');
    const lines = String(res.json).trim().split("\n");
    expect(lines[0]).toBe("ID,Made (NZ time),Member ID,Member,Gym,Amount,Surcharge,Total,Status,Method,Type,Period start (NZ date),Period end (NZ date),Retry,Error,Refunded,Charged back");
    expect(lines).toHaveLength(7);
    const card = lines.find((l) => l.includes("Card ending 4242") && l.includes(",sent,"));
    expect(card).toContain("25.00,0.38,25.38");
    // Made at 10 AM Auckland time, for the week from its Monday (Auckland's days, not UTC's).
    expect(card!.split(",")[1]).toBe("2026-11-30 10:00");
    expect(card).toContain(",2026-11-30,2026-12-07,");
    expect(card).toMatch(/,12\.00,0\.00$/);
    expect(lines.find((l) => l.includes("Direct debit") && l.includes(",sent,"))).toMatch(/,0\.00,25\.00$/);
    const refunded = await admin.call("POST", "/api/payments/export", { gym: "all", adjusted: "refunded" });
    expect(String(refunded.json).trim().split("\n")).toHaveLength(3);
  });
});

describe("GET /api/visits", () => {
  it("lists visits with their counts, filtered by result and gym; a trainer sees the gyms they work in", async () => {
    const all = (await admin.call("GET", "/api/visits?gym=all")).json.data;
    expect(all.totals).toEqual({ count: 3, successful: 2, refused: 1 });
    expect(all.data.map((v: { user: { name: string }; successful: boolean }) => [v.user.name, v.successful])).toEqual([
      ["Olivia Payer", true],
      ["Noah Other", true],
      ["Olivia Payer", false],
    ]);
    expect((await admin.call("GET", "/api/visits?gym=all&result=refused")).json.data.totals.count).toBe(1);
    expect((await admin.call("GET", "/api/visits?gym=all&from=2026-08-01&to=2026-09-30")).json.data.totals.count).toBe(1);
    expect((await trainer.call("GET", `/api/visits?gym=${north.id}`)).json.data.totals.count).toBe(2);
    expect((await trainer.call("GET", `/api/visits?gym=${south.id}`)).status).toBe(422);
    expect((await trainer.call("GET", "/api/visits?gym=all")).json.errors.gym).toEqual(["Only organisation admins can list every gym"]);
  });

  it("exports them as CSV", async () => {
    const res = await admin.call("POST", "/api/visits/export", { gym: "all", result: "successful" });
    const lines = String(res.json).trim().split("\n");
    expect(lines[0]).toBe("ID,When (NZ time),Member ID,Member,Gym,Result");
    expect(lines.slice(1).map((l) => l.split(",").slice(3).join(","))).toEqual(["Olivia Payer,North,entered", "Noah Other,South,entered"]);
    // Auckland's clock (UTC would write 2026-11-30T18:00 and 2026-11-29T17:00: the day before).
    expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(["2026-12-01 07:00", "2026-11-30 06:00"]);
  });
});
