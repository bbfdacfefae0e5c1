import { describe, expect, it } from "vitest";
import { expectedMember } from "../../scripts/crash-trial/reference";
import { compare, type Counters, type ExpectedSubscription, type LedgerCharge, type LedgerRefund, type OurPayment, type OurRefund, type WebhookCall } from "../../scripts/crash-trial/compare";

/**
 * Each of the crash trial's counters (decision 0043) fails on its own class of mistake: a clean history counts 0
 * everywhere; each mistake fed in turns its counter above 0 and leaves the others at 0.
 */
const key = (sub: number, start: string, attempt: number) => `charge:${sub}:${start}:${attempt}`;

function clean() {
  // Subscription 1 pays two weeks; subscription 2 is short of funds: tried on 12, 13, 15, 17, 18, access stops on 19.
  const ours: OurPayment[] = [
    { key: key(1, "2026-01-12", 0), subscriptionId: 1, periodStart: "2026-01-12", attempt: 0, day: "2026-01-12", amount: 2000, status: "sent", providerId: "pi_1" },
    { key: key(1, "2026-01-19", 0), subscriptionId: 1, periodStart: "2026-01-19", attempt: 0, day: "2026-01-19", amount: 2000, status: "sent", providerId: "pi_2" },
    ...["2026-01-12", "2026-01-13", "2026-01-15", "2026-01-17", "2026-01-18"].map(
      (day, attempt): OurPayment => ({ key: key(2, "2026-01-12", attempt), subscriptionId: 2, periodStart: "2026-01-12", attempt, day, amount: 2000, status: "failed", providerId: `pi_2_${attempt}` }),
    ),
  ];
  const ledger: LedgerCharge[] = ours.map((p) => ({ provider: "stripe", key: p.key, objectId: p.providerId!, amount: p.amount, answer: p.status === "sent" ? "succeeded" : "declined" }));
  const expected: ExpectedSubscription[] = [
    {
      subscriptionId: 1,
      stopDay: null,
      periods: [
        { start: "2026-01-12", attempts: [{ day: "2026-01-12", amount: 2000 }], outcome: "paid" },
        { start: "2026-01-19", attempts: [{ day: "2026-01-19", amount: 2000 }], outcome: "paid" },
      ],
    },
    {
      subscriptionId: 2,
      stopDay: "2026-01-19",
      periods: [{ start: "2026-01-12", attempts: ["2026-01-12", "2026-01-13", "2026-01-15", "2026-01-17", "2026-01-18"].map((day) => ({ day, amount: 2000 })), outcome: "failed" }],
    },
  ];
  const refunds: { ours: OurRefund[]; ledger: LedgerRefund[]; asked: OurRefund[] } = {
    ours: [{ providerId: "re_1", key: "refund:1", amount: 500, status: "succeeded" }],
    ledger: [{ provider: "stripe_refund", key: "refund:1", objectId: "re_1", amount: 500, answer: "succeeded" }],
    asked: [{ providerId: null, key: "refund:1", amount: 500, status: "succeeded" }],
  };
  // Webhooks: one taken, one sent again (a duplicate), one cut short by a kill, one that failed and was taken later.
  const webhooks: WebhookCall[] = [
    { provider: "stripe", eventId: "evt_1", status: "processed" },
    { provider: "stripe", eventId: "evt_1", status: "duplicate" },
    { provider: "akahu", eventId: null, status: "received" },
    { provider: "gocardless", eventId: "WB1", status: "failed" },
    { provider: "gocardless", eventId: "WB1", status: "processed" },
  ];
  return { ours, ledger, expected, refunds, webhooks };
}

type Scenario = ReturnType<typeof clean>;
const run = (s: Scenario) => compare(s.ours, s.ledger, s.expected, s.refunds, s.webhooks);

function onlyThis(counters: Counters, name: keyof Counters) {
  expect(counters[name]).toBeGreaterThan(0);
  for (const [other, n] of Object.entries(counters)) if (other !== name) expect({ [other]: n }).toEqual({ [other]: 0 });
}

describe("crash trial counters", () => {
  it("counts nothing on a clean history", () => {
    expect(Object.values(run(clean())).every((n) => n === 0)).toBe(true);
  });

  it("counts a period charged after access stopped", () => {
    const s = clean();
    const p: OurPayment = { key: key(2, "2026-01-19", 0), subscriptionId: 2, periodStart: "2026-01-19", attempt: 0, day: "2026-01-19", amount: 2000, status: "failed", providerId: "pi_x" };
    s.ours.push(p);
    s.ledger.push({ provider: "stripe", key: p.key, objectId: "pi_x", amount: 2000, answer: "declined" });
    onlyThis(run(s), "chargedAfterStop");
  });

  it("counts a retry holding an earlier try's provider id", () => {
    const s = clean();
    // The retry on the 13th carries the first try's id: the provider was never asked (no charge under its key).
    s.ours[3].providerId = "pi_2_0";
    s.ledger.splice(3, 1);
    onlyThis(run(s), "retryNeverReached");
  });

  it("counts a retry marked failed that no provider has under its key", () => {
    const s = clean();
    s.ours[4].providerId = null;
    s.ledger.splice(4, 1);
    onlyThis(run(s), "retryNeverReached");
  });

  it("counts a payment we hold as paid that the provider has no charge for", () => {
    const s = clean();
    s.ledger.splice(1, 1);
    onlyThis(run(s), "paidWithoutProvider");
  });

  it("counts a provider charge we hold in another state", () => {
    const s = clean();
    s.ledger[6].answer = "succeeded";
    s.ledger[6].key = key(2, "2026-01-12", 4);
    s.ours[6].status = "failed";
    s.ledger[5].answer = "processing";
    onlyThis(run(s), "unknownOrOtherState");
  });

  it("counts a wrong amount", () => {
    const s = clean();
    s.ours[0].amount = 2030;
    s.ledger[0].amount = 2030;
    onlyThis(run(s), "amountDiffers");
  });

  it("counts a skipped period", () => {
    const s = clean();
    s.ours.splice(1, 1);
    s.ledger.splice(1, 1);
    onlyThis(run(s), "skipped");
  });

  it("counts a period paid twice", () => {
    const s = clean();
    // A second charge of the same period under another key, ours and the provider's: taken twice.
    const again: OurPayment = { ...s.ours[0], key: key(1, "2026-01-12", 1), attempt: 1, providerId: "pi_1b" };
    s.ours.push(again);
    s.ledger.push({ provider: "stripe", key: again.key, objectId: "pi_1b", amount: 2000, answer: "succeeded" });
    const counters = run(s);
    expect(counters.paidTwice).toBe(1);
    // The extra try is also a try the reference does not expect: that counter says so too, and no other.
    expect(counters.attemptsDiffer).toBe(1);
    for (const name of ["skipped", "chargedAfterStop", "retryNeverReached", "paidWithoutProvider", "unknownOrOtherState", "amountDiffers", "refundsMissing", "webhooksNotTaken"] as const) expect(counters[name]).toBe(0);
  });

  it("counts a try missing or on another day", () => {
    const s = clean();
    s.ours[5].day = "2026-01-16";
    onlyThis(run(s), "attemptsDiffer");
    const t = clean();
    t.ours.pop();
    t.ledger.pop();
    onlyThis(run(t), "attemptsDiffer");
  });

  it("counts a refund missing from our books, and one missing from the provider's", () => {
    const s = clean();
    s.refunds.ours = [];
    const counters = run(s);
    onlyThis(counters, "refundsMissing");
    const t = clean();
    t.refunds.ledger = [];
    onlyThis(run(t), "refundsMissing");
    const u = clean();
    u.refunds.ours[0].amount = 400;
    onlyThis(run(u), "refundsMissing");
    // A refund made in the provider's dashboard whose webhook never reached us.
    const v = clean();
    v.refunds.ledger.push({ provider: "gocardless_refund", key: "dashboard:7", objectId: "RF7", amount: 300, answer: "succeeded" });
    onlyThis(run(v), "refundsMissing");
  });

  it("counts a provider event refused, rejected, or failed and never taken", () => {
    for (const status of ["refused", "rejected"]) {
      const s = clean();
      s.webhooks.push({ provider: "stripe", eventId: "evt_2", status });
      onlyThis(run(s), "webhooksNotTaken");
    }
    const t = clean();
    t.webhooks.push({ provider: "akahu", eventId: "PAYMENT.UPDATE:payment_9:SENT", status: "failed" });
    onlyThis(run(t), "webhooksNotTaken");
  });
});

describe("crash trial reference, worked by hand from decision 0041", () => {
  const days = (m: ReturnType<typeof expectedMember>) => m.periods.map((p) => `${p.start}: ${p.attempts.map((a) => a.day.slice(5)).join(" ")} ${p.outcome}`);

  it("a card short of funds: tried on the 12th, 13th, 15th, 17th and the last day of access, the 18th; stops on the 19th", () => {
    const m = expectedMember("card", "short", 2_000, "2026-01-12", "2026-02-01");
    expect(m.stopDay).toBe("2026-01-19");
    expect(days(m)).toEqual(["2026-01-12: 01-12 01-13 01-15 01-17 01-18 failed"]);
    expect(m.periods[0].attempts[0].amount).toBe(2_060);
  });

  it("a bank payment short of funds: each answer heard the next day; the 18th's, heard on the 19th, makes the last try then", () => {
    const m = expectedMember("bank", "short", 1_750, "2026-01-12", "2026-02-01");
    expect(m.stopDay).toBe("2026-01-20");
    expect(days(m)).toEqual(["2026-01-12: 01-12 01-14 01-16 01-18 01-19 failed", "2026-01-19: 01-19 failed"]);
  });

  it("a direct debit short of funds: charged Wednesday the 14th, failure heard Thursday the 15th; the 16th's retry fails on the 21st, tried again then", () => {
    const m = expectedMember("direct_debit", "short", 2_000, "2026-01-12", "2026-02-01");
    expect(m.stopDay).toBe("2026-01-22");
    expect(days(m)).toEqual(["2026-01-12: 01-12 01-16 01-21 failed", "2026-01-19: 01-19 failed"]);
  });

  it("a direct debit that pays over Waitangi Day: the week of 2 February is confirmed on Tuesday the 10th, not Monday the 9th", () => {
    expect(days(expectedMember("direct_debit", "pays", 2_000, "2026-01-12", "2026-02-09")).slice(-3)).toEqual(["2026-01-26: 01-26 paid", "2026-02-02: 02-02 open", "2026-02-09: 02-09 open"]);
    expect(days(expectedMember("direct_debit", "pays", 2_000, "2026-01-12", "2026-02-10")).slice(-2)).toEqual(["2026-02-02: 02-02 paid", "2026-02-09: 02-09 open"]);
  });

  it("a hard decline is not retried and stops a week after it is seen", () => {
    expect(expectedMember("card", "gone", 2_000, "2026-01-12", "2026-02-01")).toEqual({ stopDay: "2026-01-19", periods: [{ start: "2026-01-12", attempts: [{ day: "2026-01-12", amount: 2_060 }], outcome: "failed" }] });
  });
});
