import { describe, expect, it } from "vitest";
import { chargeDescription, pursue, type UnsettledPayment } from "../../server/billing/rails";
import type { Providers } from "../../server/core/providers/registry";

// What a charge says it is for reaches the member (Stripe's receipt, GoCardless's notice): its period in words, in
// Auckland's days, never 2026-11-19 – 2026-11-26.
describe("a charge's description", () => {
  it("writes its period in words, in Auckland", () => {
    // 19 Nov 2026 00:00 and 26 Nov 2026 00:00 in Auckland (UTC+13 in summer): the day before in UTC.
    expect(chargeDescription({ periodStart: new Date("2026-11-18T11:00:00Z"), periodEnd: new Date("2026-11-25T11:00:00Z") })).toBe(
      "Membership 19 – 26 Nov 2026",
    );
    expect(chargeDescription({ periodStart: new Date("2026-12-19T11:00:00Z"), periodEnd: new Date("2027-01-01T11:00:00Z") })).toBe(
      "Membership 20 Dec 2026 – 2 Jan 2027",
    );
    expect(chargeDescription({ periodStart: null, periodEnd: null })).toBe("Membership");
  });

  it("is what the card provider is asked to charge with", async () => {
    const asked: { description: string }[] = [];
    const providers = {
      cards: {
        retrieve: async () => null,
        charge: async (req: { description: string }) => {
          asked.push(req);
          return { status: "succeeded", id: "pi_1" };
        },
      },
    } as unknown as Providers;
    const payment: UnsettledPayment = {
      id: 7,
      subscriptionId: 3,
      amount: 2_500,
      surcharge: 0,
      idempotencyKey: "charge:3:2026-11-19:1",
      periodStart: new Date("2026-11-18T11:00:00Z"),
      periodEnd: new Date("2026-11-25T11:00:00Z"),
      expectedChargeDate: null,
      references: { stripe: null, gocardless: null, akahu: null },
      kind: "stripe_card",
      details: { customer: "cus_1", payment_method: "pm_1" },
      gym: { id: 1, stripe_id: null, gocardless_organisation_id: null, integrations: null },
      destination: null,
      bankToken: null,
    };
    await pursue(providers, payment);
    expect(asked.map((r) => r.description)).toEqual(["Membership 19 – 26 Nov 2026"]);
    expect(asked[0].description).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });
});
