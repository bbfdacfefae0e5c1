import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandbox_ledger } from "../../server/core/db/schema";
import type { CardCharge } from "../../server/core/providers/cards/card-provider";
import { ProviderError } from "../../server/core/providers/errors";
import { sandboxCards } from "../../server/core/providers/cards/sandbox";
import { stripeCards } from "../../server/core/providers/cards/stripe-live";
import { itRaces, setup } from "./harness";

const charge = (over: Partial<CardCharge> = {}): CardCharge => ({
  amount: 2_574,
  currency: "nzd",
  customer: "cus_test",
  paymentMethod: "pm_card_visa",
  idempotencyKey: `payment:${Math.random()}`,
  description: "Weekly membership",
  metadata: { payment_id: "1" },
  ...over,
});

describe("the sandbox card provider", () => {
  let env: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(() => env.close());

  it("charges Stripe's good test cards and declines its bad ones with Stripe's codes", async () => {
    const cards = sandboxCards(env.db);
    expect(await cards.charge(charge())).toMatchObject({ status: "succeeded", id: expect.stringMatching(/^pi_sandbox_/) });
    expect(await cards.charge(charge({ paymentMethod: "pm_sandbox_4444" }))).toMatchObject({ status: "succeeded" });
    const declines: [string, string][] = [
      ["pm_card_chargeDeclined", "generic_decline"],
      ["pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds"],
      ["pm_sandbox_9987", "lost_card"],
      ["pm_sandbox_9979", "stolen_card"],
      ["pm_card_chargeDeclinedExpiredCard", "expired_card"],
      ["pm_sandbox_0119", "processing_error"],
    ];
    for (const [paymentMethod, declineCode] of declines) {
      expect(await cards.charge(charge({ paymentMethod })), paymentMethod).toMatchObject({ status: "declined", declineCode });
    }
  });

  it("charges an idempotency key once, however often it is sent", async () => {
    const cards = sandboxCards(env.db);
    const request = charge({ idempotencyKey: "payment:41" });
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await cards.charge(request));
    expect(new Set(answers.map((a) => (a.status === "succeeded" ? a.id : "?"))).size).toBe(1);
    expect((await env.db.select().from(sandbox_ledger)).filter((r) => r.idempotency_key === "payment:41")).toHaveLength(1);
  });

  itRaces("charges an idempotency key once, however concurrently it is sent", async () => {
    const cards = sandboxCards(env.db);
    const request = charge({ idempotencyKey: "payment:42" });
    const answers = await Promise.all(Array.from({ length: 8 }, () => cards.charge(request)));
    expect(new Set(answers.map((a) => (a.status === "succeeded" ? a.id : "?"))).size).toBe(1);
    const again = await cards.charge(request);
    expect(again).toEqual(answers[0]);
    const rows = (await env.db.select().from(sandbox_ledger)).filter((r) => r.idempotency_key === "payment:42");
    expect(rows).toHaveLength(1);
  });

  it("retrieves only the intents it made, on the account each was made on, with the amount and metadata it was made with", async () => {
    const cards = sandboxCards(env.db);
    const made = await cards.charge(charge({ account: "acct_sandbox_gym", metadata: { payment_id: "77" } }));
    expect(await cards.retrieve(made.id!, "acct_sandbox_gym")).toEqual({
      ...made,
      made: { amount: 2_574, currency: "nzd", account: "acct_sandbox_gym", metadata: { payment_id: "77" } },
    });
    expect(await cards.retrieve(made.id!, "acct_another_gym")).toBeNull();
    expect(await cards.retrieve(made.id!, null)).toBeNull();
    expect(await cards.retrieve("pi_sandbox_never_made", "acct_sandbox_gym")).toBeNull();
  });

  it("refuses a key used again with other parameters, and amounts Stripe refuses", async () => {
    const cards = sandboxCards(env.db);
    await cards.charge(charge({ idempotencyKey: "payment:43" }));
    await expect(cards.charge(charge({ idempotencyKey: "payment:43", amount: 9_999 }))).rejects.toThrow(/same parameters/);
    await expect(cards.charge(charge({ amount: 49 }))).rejects.toBeInstanceOf(ProviderError);
  });
});

/** A local stand-in for api.stripe.com that answers as Stripe's API reference documents. */
describe("the live Stripe adapter, against a local fake of Stripe's API", () => {
  let server: Server;
  let port: number;
  const seen: { path: string; key: string | undefined; account: string | undefined; body: URLSearchParams }[] = [];
  let failNext = 0;

  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => resolve(body));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = new URLSearchParams(await read(req));
      seen.push({
        path: req.url!,
        key: req.headers["idempotency-key"] as string | undefined,
        account: req.headers["stripe-account"] as string | undefined,
        body,
      });
      res.setHeader("content-type", "application/json");
      if (failNext > 0) {
        failNext--;
        res.statusCode = 503;
        res.end(JSON.stringify({ error: { type: "api_error", message: "Service unavailable" } }));
        return;
      }
      if (req.method === "GET" && req.url!.startsWith("/v1/payment_intents/")) {
        // Stripe keeps an intent on the account it was made on: asked on any other, it does not exist.
        if (req.url === "/v1/payment_intents/pi_live_1" && req.headers["stripe-account"] === "acct_gym") {
          res.end(
            JSON.stringify({ id: "pi_live_1", object: "payment_intent", amount: 2574, currency: "nzd", status: "succeeded", metadata: { payment_id: "1" } }),
          );
          return;
        }
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { type: "invalid_request_error", code: "resource_missing", message: "No such payment_intent" } }));
        return;
      }
      const pm = body.get("payment_method");
      if (pm === "pm_card_chargeDeclinedInsufficientFunds") {
        res.statusCode = 402;
        res.end(
          JSON.stringify({
            error: {
              type: "card_error",
              code: "card_declined",
              decline_code: "insufficient_funds",
              message: "Your card has insufficient funds.",
              payment_intent: { id: "pi_declined", object: "payment_intent", status: "requires_payment_method" },
            },
          }),
        );
        return;
      }
      res.end(
        JSON.stringify({
          id: "pi_live_1",
          object: "payment_intent",
          amount: Number(body.get("amount")),
          currency: body.get("currency"),
          status: pm === "pm_3ds" ? "processing" : "succeeded",
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const live = () => stripeCards({ secretKey: "sk_test_fake", host: "127.0.0.1", port, protocol: "http", account: "acct_gym" });

  it("creates a confirmed off-session PaymentIntent with our idempotency key and the gym's account", async () => {
    seen.length = 0;
    expect(await live().charge(charge({ idempotencyKey: "payment:7" }))).toEqual({ status: "succeeded", id: "pi_live_1" });
    expect(seen).toHaveLength(1);
    expect(seen[0].path).toBe("/v1/payment_intents");
    expect([seen[0].key, seen[0].account]).toEqual(["payment:7", "acct_gym"]);
    expect(
      Object.fromEntries(
        ["amount", "currency", "customer", "payment_method", "off_session", "confirm", "metadata[payment_id]"].map((k) => [k, seen[0].body.get(k)]),
      ),
    ).toEqual({
      amount: "2574",
      currency: "nzd",
      customer: "cus_test",
      payment_method: "pm_card_visa",
      off_session: "true",
      confirm: "true",
      "metadata[payment_id]": "1",
    });
  });

  it("retrieves an intent on the connected account it was made on, with what it was made for; on another account it does not exist", async () => {
    seen.length = 0;
    expect(await live().retrieve("pi_live_1", "acct_gym")).toEqual({
      status: "succeeded",
      id: "pi_live_1",
      made: { amount: 2574, currency: "nzd", account: "acct_gym", metadata: { payment_id: "1" } },
    });
    expect(seen[0].account).toBe("acct_gym");
    expect(await live().retrieve("pi_live_1", "acct_someone_else")).toBeNull();
    expect(seen[1].account).toBe("acct_someone_else");
  });

  it("turns Stripe's card error into a decline with its decline code, and a processing intent into processing", async () => {
    expect(await live().charge(charge({ paymentMethod: "pm_card_chargeDeclinedInsufficientFunds" }))).toEqual({
      status: "declined",
      id: "pi_declined",
      declineCode: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
    expect(await live().charge(charge({ paymentMethod: "pm_3ds" }))).toEqual({ status: "processing", id: "pi_live_1" });
  });

  it("retries an unavailable Stripe with the same key, then says the outcome is unknown and may be asked again", async () => {
    seen.length = 0;
    failNext = 10;
    const err = await live()
      .charge(charge({ idempotencyKey: "payment:8" }))
      .catch((e: unknown) => e);
    failNext = 0;
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(true);
    expect(seen.length).toBe(3); // the first try and the SDK's two retries
    expect(new Set(seen.map((s) => s.key))).toEqual(new Set(["payment:8"]));
  });
});
