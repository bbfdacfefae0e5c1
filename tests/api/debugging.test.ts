import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOfLocalDay } from "../../domain/dates";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { payment_adjustments } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOffering, makeOrganisation, makePayment, makePrice, makeSubscription, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

const PASSWORD = "debugging test passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
const ids: Record<string, number> = {};
const day = (d: string) => startOfLocalDay(d);

beforeAll(async () => {
  env = await setup();
  // The clock: Wednesday 4 February 2026.
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config, now: () => new Date(day("2026-02-04").getTime() + 12 * 3_600_000) });
  const hash = await hashPassword(PASSWORD);
  const org = await makeOrganisation(env.db, { name: "Debug Gyms" });
  const gym = await makeGym(env.db, org.id, "Central");
  const admin = await makeUser(env.db, { name: "deb admin", email: "deb.admin@example.com", password_hash: hash });
  await addStaff(env.db, admin.id, org.id, "admin");
  const trainer = await makeUser(env.db, { name: "deb trainer", email: "deb.trainer@example.com", password_hash: hash });
  await addStaff(env.db, trainer.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
  const price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_000, billing_frequency: "weekly" });
  const member = async (name: string, extra: Parameters<typeof makeSubscription>[4] = {}, charges: [string, string, number][] = []) => {
    const user = await makeUser(env.db, { name, email: `${name.replace(/ /g, ".")}@example.com` });
    await addMember(env.db, user.id, org.id, gym.id);
    const s = await makeSubscription(env.db, price, user.id, gym.id, { billing_anchor: "2026-01-05", created_at: day("2026-01-05"), ...extra });
    const attempts = new Map<string, number>();
    for (const [start, status, amount] of charges) {
      const attempt = attempts.get(start) ?? 0;
      attempts.set(start, attempt + 1);
      await makePayment(env.db, s, { amount, status, period_start_at: day(start), period_end_at: day(start), attempt });
    }
    ids[name] = user.id;
    return s;
  };
  // January's Mondays from the 12th to 2 February: four periods expected in the range.
  await member("right one", {}, [["2026-01-12", "sent", 2_000], ["2026-01-19", "sent", 2_000], ["2026-01-26", "sent", 2_000], ["2026-02-02", "sent", 2_000]]);
  await member("missed one", {}, [["2026-01-12", "sent", 2_000], ["2026-01-19", "sent", 2_000], ["2026-02-02", "sent", 2_000]]);
  await member("double one", {}, [["2026-01-12", "sent", 2_000], ["2026-01-12", "sent", 2_000], ["2026-01-19", "sent", 2_000], ["2026-01-26", "sent", 2_000], ["2026-02-02", "sent", 2_000]]);
  await member("dear one", {}, [["2026-01-12", "sent", 2_000], ["2026-01-19", "sent", 2_500], ["2026-01-26", "sent", 2_000], ["2026-02-02", "sent", 2_000]]);
  // Paused 19 January for two weeks: the week of the 19th and the 26th move by 14 days: charges on the 12th and 2 February.
  await member("paused one", { pause_start_at: day("2026-01-19"), pause_end_at: day("2026-02-02") }, [["2026-01-12", "sent", 2_000], ["2026-01-19", "sent", 2_000], ["2026-02-02", "sent", 2_000]]);
  await member("cancelled one", { cancelled_at: day("2026-01-20") });
  await member("upcoming one", { upcoming_state: "upcoming", created_at: day("2026-01-30") });
  const other = await makeOrganisation(env.db, { name: "Elsewhere" });
  const stranger = await makeUser(env.db, { name: "their member", email: "their.member@example.com" });
  await addMember(env.db, stranger.id, other.id, (await makeGym(env.db, other.id, "Theirs")).id);
  ids.stranger = stranger.id;
});
afterAll(() => env.close());

describe("GET /api/expected-payments-debugging", () => {
  it("sets what the engine expects against what it charged, mismatches first, each in words", async () => {
    const admin = await signedIn(api, env.db, "deb.admin@example.com", PASSWORD);
    const res = await admin.call("GET", "/api/expected-payments-debugging?from=2026-01-12&to=2026-02-08");
    expect(res.status).toBe(200);
    const rows = res.json.data.data as { member: { name: string }; period_start: string; verdict: string; message: string }[];
    const of = (name: string) => rows.filter((r) => r.member.name === name).map((r) => [r.period_start, r.verdict]);
    expect(of("right one")).toEqual(expect.arrayContaining([["2026-01-12", "ok"], ["2026-01-19", "ok"], ["2026-01-26", "ok"], ["2026-02-02", "ok"]]));
    expect(of("missed one")).toContainEqual(["2026-01-26", "missing"]);
    expect(of("double one")).toContainEqual(["2026-01-12", "charged_twice"]);
    expect(rows.find((r) => r.member.name === "dear one" && r.period_start === "2026-01-19")?.message).toBe("Charged $25.00; the price says $20.00.");
    expect(of("paused one").sort()).toEqual([["2026-01-12", "ok"], ["2026-01-19", "unexpected"], ["2026-02-02", "ok"]]);
    expect(of("cancelled one")).toEqual([["2026-01-12", "missing"], ["2026-01-19", "missing"]]);
    expect(of("upcoming one")).toEqual([]);
    // Mismatches first.
    const firstOk = rows.findIndex((r) => r.verdict === "ok");
    expect(rows.slice(firstOk).every((r) => r.verdict === "ok" || r.verdict === "in_progress")).toBe(true);
    expect(res.json.data.summary).toMatchObject({ missing: 3, charged_twice: 1, wrong_amount: 1, unexpected: 1 });
    const only = await admin.call("GET", "/api/expected-payments-debugging?from=2026-01-12&to=2026-02-08&mismatches=1");
    expect(only.json.data.meta.total).toBe(6);
  });

  it("looks at the last four weeks up to today (Auckland) when the days are not given, as SPEC §7 calls it (issue 28, audit finding 9b)", async () => {
    const admin = await signedIn(api, env.db, "deb.admin@example.com", PASSWORD);
    const bare = await admin.call("GET", "/api/expected-payments-debugging");
    expect([bare.status, bare.json.data?.from, bare.json.data?.to]).toEqual([200, "2026-01-08", "2026-02-04"]);
    expect(bare.json.data.summary).toMatchObject({ missing: 3, charged_twice: 1 });
    // One end given: four weeks from the start (not past today), or up to the end.
    const from = (await admin.call("GET", "/api/expected-payments-debugging?from=2026-01-01")).json.data;
    expect([from.from, from.to]).toEqual(["2026-01-01", "2026-01-28"]);
    const recent = (await admin.call("GET", "/api/expected-payments-debugging?from=2026-01-26")).json.data;
    expect([recent.from, recent.to]).toEqual(["2026-01-26", "2026-02-04"]);
    const to = (await admin.call("GET", "/api/expected-payments-debugging?to=2026-01-31&mismatches=1")).json.data;
    expect([to.from, to.to]).toEqual(["2026-01-04", "2026-01-31"]);
    const empty = await admin.call("GET", "/api/expected-payments-debugging?from=&to=");
    expect([empty.status, empty.json.data?.from]).toEqual([200, "2026-01-08"]);
  });

  it("refuses a backwards or too long range with 422, and those who may not see money with 403", async () => {
    const admin = await signedIn(api, env.db, "deb.admin@example.com", PASSWORD);
    expect((await admin.call("GET", "/api/expected-payments-debugging?from=2026-02-08&to=2026-01-12")).status).toBe(422);
    expect((await admin.call("GET", "/api/expected-payments-debugging?from=2026-01-01&to=2026-06-01")).json.errors.to).toEqual(["Look at 92 days or fewer at a time"]);
    expect((await admin.call("GET", "/api/expected-payments-debugging?from=2026-01-32")).json.errors.from).toEqual(["Enter a real start date"]);
    expect((await admin.call("GET", "/api/expected-payments-debugging?to=yesterday")).json.errors.to[0]).toBe("Enter the end date as yyyy-mm-dd");
    const trainer = await signedIn(api, env.db, "deb.trainer@example.com", PASSWORD);
    expect((await trainer.call("GET", "/api/expected-payments-debugging?from=2026-01-12&to=2026-02-08")).status).toBe(403);
  });

  it("says of a failed period what the billing run will do next, by the run's own retry rule (issue 28, finding 5)", async () => {
    const org = await makeOrganisation(env.db, { name: "Debug Retries" });
    const gym = await makeGym(env.db, org.id, "Retry Road");
    const boss = await makeUser(env.db, { name: "retry admin", email: "retry.admin@example.com", password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, boss.id, org.id, "admin");
    const price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_000, billing_frequency: "weekly" });
    const failing = async (name: string, code: string, failed: string, graceEnds: string) => {
      const user = await makeUser(env.db, { name, email: `${name.replace(/ /g, ".")}@example.com` });
      await addMember(env.db, user.id, org.id, gym.id);
      const s = await makeSubscription(env.db, price, user.id, gym.id, { billing_anchor: "2026-02-02", created_at: day("2026-02-02"), grace_period_ends_at: day(graceEnds) });
      await makePayment(env.db, s, { amount: 2_000, status: "failed", error_status: code, period_start_at: day("2026-02-02"), period_end_at: day("2026-02-09"), failed_at: new Date(day(failed).getTime() + 10 * 3_600_000) });
    };
    await failing("soft week", "insufficient_funds", "2026-02-03", "2026-02-10");
    await failing("soft day", "insufficient_funds", "2026-02-03", "2026-02-04");
    await failing("lost card", "lost_card", "2026-02-03", "2026-02-10");
    const admin = await signedIn(api, env.db, "retry.admin@example.com", PASSWORD);
    const rows = (await admin.call("GET", "/api/expected-payments-debugging?from=2026-02-02&to=2026-02-08")).json.data.data as { member: { name: string }; message: string }[];
    const said = (name: string) => rows.find((r) => r.member.name === name)?.message;
    expect(said("soft week")).toBe("Not paid: 1 try, the last failed (insufficient_funds). Next try on 4 Feb 2026.");
    expect(said("soft day")).toBe("Not paid: 1 try, the last failed (insufficient_funds). No more tries: access stops on 4 Feb 2026 unless it is paid.");
    expect(said("lost card")).toBe("Not paid: 1 try, the last failed (lost_card). Not tried again: the member must change their payment method.");
  });
});

describe("GET /api/expected-payments-debugging: money given back (issue 28)", () => {
  it("says a period was refunded or charged back afterwards, and stays ok; a duplicate given back in full is put right", async () => {
    const org = await makeOrganisation(env.db, { name: "Debug Refunds" });
    const gym = await makeGym(env.db, org.id, "Refund Road");
    const boss = await makeUser(env.db, { name: "refund admin", email: "refund.admin@example.com", password_hash: await hashPassword(PASSWORD) });
    await addStaff(env.db, boss.id, org.id, "admin");
    const price = await makePrice(env.db, await makeOffering(env.db, org.id, { name: "Anytime" }), { amount: 2_000, billing_frequency: "weekly" });
    const given = async (name: string, charges: number, back: { kind: "refund" | "chargeback"; status: "succeeded" | "pending" | "lost" | "open" | "won"; amount: number }[]) => {
      const user = await makeUser(env.db, { name, email: `${name.replace(/ /g, ".")}@example.com` });
      await addMember(env.db, user.id, org.id, gym.id);
      const s = await makeSubscription(env.db, price, user.id, gym.id, { billing_anchor: "2026-02-02", created_at: day("2026-02-02") });
      let last = { id: 0 };
      for (let attempt = 0; attempt < charges; attempt++) last = await makePayment(env.db, s, { amount: 2_000, status: "sent", period_start_at: day("2026-02-02"), period_end_at: day("2026-02-09"), attempt });
      for (const b of back) {
        await env.db.insert(payment_adjustments).values({
          organisation_id: org.id,
          gym_id: gym.id,
          user_id: user.id,
          payment_id: last.id,
          ...b,
          source: b.kind === "refund" ? "staff" : "provider",
          method: "stripe",
          settled_at: ["succeeded", "lost", "won"].includes(b.status) ? day("2026-02-03") : null,
        });
      }
    };
    await given("whole refund", 1, [{ kind: "refund", status: "succeeded", amount: 2_000 }]);
    await given("part refund", 1, [{ kind: "refund", status: "succeeded", amount: 500 }]);
    await given("coming refund", 1, [{ kind: "refund", status: "pending", amount: 2_000 }]);
    await given("lost dispute", 1, [{ kind: "chargeback", status: "lost", amount: 2_000 }]);
    await given("open dispute", 1, [{ kind: "chargeback", status: "open", amount: 2_000 }]);
    await given("won dispute", 1, [{ kind: "chargeback", status: "won", amount: 2_000 }]);
    await given("double refunded", 2, [{ kind: "refund", status: "succeeded", amount: 2_000 }]);
    await given("double part refunded", 2, [{ kind: "refund", status: "succeeded", amount: 1_000 }]);
    const admin = await signedIn(api, env.db, "refund.admin@example.com", PASSWORD);
    const res = (await admin.call("GET", "/api/expected-payments-debugging?from=2026-02-02&to=2026-02-08")).json.data;
    const rows = res.data as { member: { name: string }; verdict: string; message: string; charged: { refunded: number; charged_back: number; disputed: boolean }[] }[];
    const said = (name: string) => rows.filter((r) => r.member.name === name).map((r) => [r.verdict, r.message]);
    expect(said("whole refund")).toEqual([["ok", "Charged once, then refunded $20.00."]]);
    expect(said("part refund")).toEqual([["ok", "Charged once, then refunded $5.00 of $20.00."]]);
    expect(said("coming refund")).toEqual([["ok", "Charged once, then refunded $20.00."]]);
    expect(said("lost dispute")).toEqual([["ok", "Charged once, then charged back by the bank ($20.00)."]]);
    expect(said("open dispute")).toEqual([["ok", "Charged once, then disputed at the bank, not decided yet."]]);
    expect(said("won dispute")).toEqual([["ok", "Charged once, as expected."]]);
    expect(said("double refunded")).toEqual([["ok", "Paid 2 times for one period; one given back in full (refunded $20.00)."]]);
    expect(said("double part refunded")).toEqual([["charged_twice", "Paid 2 times for one period."]]);
    expect(rows.find((r) => r.member.name === "lost dispute")?.charged).toEqual([expect.objectContaining({ refunded: 0, charged_back: 2_000, disputed: false })]);
    expect(res.summary).toMatchObject({ ok: 7, charged_twice: 1 });
  });
});

describe("GET /api/active-user-debugging", () => {
  it("says whether a member counts as active on a day, and the rule that decided", async () => {
    const admin = await signedIn(api, env.db, "deb.admin@example.com", PASSWORD);
    const ask = async (name: string, on: string) => (await admin.call("GET", `/api/active-user-debugging?member=${ids[name]}&day=${on}`)).json.data;
    const right = await ask("right one", "2026-01-20");
    expect([right.counts_as_active, right.door.allowed]).toEqual([true, true]);
    expect(right.decided_by).toMatch(/was running/);
    const paused = await ask("paused one", "2026-01-25");
    expect(paused.counts_as_active).toBe(false);
    expect(paused.subscriptions[0].conditions.find((c: { rule: string }) => c.rule === "Was not paused").holds).toBe(false);
    expect(paused.decided_by).toMatch(/was not paused fails/);
    expect((await ask("paused one", "2026-02-03")).counts_as_active).toBe(true);
    expect((await ask("cancelled one", "2026-01-18")).counts_as_active).toBe(true);
    expect((await ask("cancelled one", "2026-01-21")).decided_by).toMatch(/was not cancelled yet fails/);
    expect((await ask("upcoming one", "2026-02-04")).decided_by).toMatch(/is not upcoming fails/);
  });

  it("answers 404 for another organisation's member and 422 for a bad day", async () => {
    const admin = await signedIn(api, env.db, "deb.admin@example.com", PASSWORD);
    expect((await admin.call("GET", `/api/active-user-debugging?member=${ids.stranger}&day=2026-01-20`)).status).toBe(404);
    expect((await admin.call("GET", `/api/active-user-debugging?member=${ids["right one"]}&day=2026-02-30`)).status).toBe(422);
  });
});
