import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ParsedUrlQuery } from "node:querystring";
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { stripeCards } from "../../server/core/providers/cards/stripe-live";
import { gocardlessDirectDebits } from "../../server/core/providers/direct-debit/gocardless-live";

/**
 * What the reconciliation reads of chargebacks from the live adapters (issue 28, decision 0044), against fakes that
 * answer as the providers document: Stripe's disputes opened in a window on the gym's account, every page;
 * GoCardless's payments charged back or failed in a window, from their events, each payment read back.
 */
const WINDOW = { from: new Date("2026-02-08T11:00:00.000Z"), until: new Date("2026-02-11T11:00:00.000Z") };
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(body));
};

describe("Stripe disputes (stripe SDK, against a local fake)", () => {
  const seen: { path: string; account: IncomingMessage["headers"][string] }[] = [];
  let port = 0;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const server = createServer((req, res) => {
      seen.push({ path: req.url!, account: req.headers["stripe-account"] });
      const url = new URL(req.url!, "http://fake");
      if (url.pathname !== "/v1/disputes") return json(res, 404, { error: { type: "invalid_request_error", message: "No such path" } });
      const dispute = (id: string, status: string, intent: string) => ({ id, object: "dispute", amount: 3000, currency: "nzd", status, reason: "fraudulent", payment_intent: intent, created: 1_770_700_000 });
      if (!url.searchParams.get("starting_after")) return json(res, 200, { object: "list", url: "/v1/disputes", has_more: true, data: [dispute("dp_1", "needs_response", "pi_1")] });
      return json(res, 200, { object: "list", url: "/v1/disputes", has_more: false, data: [dispute("dp_2", "lost", "pi_2")] });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  it("lists every page of the window's disputes on the gym's account, in our states", async () => {
    const live = stripeCards({ secretKey: "sk_test_fake", host: "127.0.0.1", port, protocol: "http" });
    const listed = await live.listDisputesBetween(WINDOW, "acct_gym");
    expect(listed).toEqual([
      { id: "dp_1", status: "open", amount: 3000, paymentReference: "pi_1", reason: "fraudulent", created: new Date(1_770_700_000 * 1000) },
      { id: "dp_2", status: "lost", amount: 3000, paymentReference: "pi_2", reason: "fraudulent", created: new Date(1_770_700_000 * 1000) },
    ]);
    const first = new URL(seen[0].path, "http://fake").searchParams;
    expect([first.get("created[gte]"), first.get("created[lt]"), first.get("limit")]).toEqual([String(WINDOW.from.getTime() / 1000), String(WINDOW.until.getTime() / 1000), "100"]);
    expect(seen.map((s) => s.account)).toEqual(["acct_gym", "acct_gym"]);
  });
});

describe("GoCardless payments taken back (gocardless-nodejs, against nock)", () => {
  const api = "https://api.gocardless.com";
  afterEach(() => nock.cleanAll());
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());

  it("lists the payments charged back or failed in the window from their events, every page, each in its state now", async () => {
    const asked: ParsedUrlQuery[] = [];
    const listing = (action: string, after?: string) => (q: ParsedUrlQuery) => {
      const ok = q.resource_type === "payments" && q.action === action && q.after === after;
      if (ok) asked.push(q);
      return ok;
    };
    nock(api)
      .get("/events")
      .query(listing("charged_back"))
      .reply(200, { events: [{ id: "EV1", created_at: "2026-02-10T01:00:00.000Z", action: "charged_back", links: { payment: "PM10" } }], meta: { cursors: { after: "EV1" } } });
    nock(api).get("/events").query(listing("charged_back", "EV1")).reply(200, { events: [], meta: { cursors: {} } });
    nock(api)
      .get("/events")
      .query(listing("failed"))
      .reply(200, { events: [{ id: "EV2", created_at: "2026-02-11T02:00:00.000Z", action: "failed", links: { payment: "PM11" } }], meta: { cursors: {} } });
    const payment = (id: string, status: string) => ({ payments: { id, status, charge_date: "2026-02-04", amount: 3000, currency: "NZD", metadata: { payment_id: id.slice(2) } } });
    nock(api).get("/payments/PM10").reply(200, payment("PM10", "charged_back"));
    nock(api).get("/payments/PM11").reply(200, payment("PM11", "failed"));
    nock(api).get("/events").query({ payment: "PM10", action: "charged_back", limit: "1" }).reply(200, { events: [{ details: { cause: "authorisation_disputed", description: "Disputed." } }], meta: {} });
    nock(api).get("/events").query({ payment: "PM11", action: "failed", limit: "1" }).reply(200, { events: [{ details: { cause: "refer_to_payer", description: "Returned." } }], meta: {} });

    const listed = await gocardlessDirectDebits({ accessToken: "live_token_gym", environment: "live" }).listTakenBack(WINDOW);
    const made = (id: string) => ({ amount: 3000, currency: "nzd", account: null, metadata: { payment_id: id } });
    expect(listed).toEqual([
      { id: "PM10", status: "charged_back", chargeDate: "2026-02-04", cause: "authorisation_disputed", description: "Disputed.", made: made("10"), created: new Date("2026-02-10T01:00:00.000Z") },
      { id: "PM11", status: "failed", chargeDate: "2026-02-04", cause: "refer_to_payer", description: "Returned.", made: made("11"), created: new Date("2026-02-11T02:00:00.000Z") },
    ]);
    expect(asked[0]).toMatchObject({ "created_at[gte]": WINDOW.from.toISOString(), "created_at[lt]": WINDOW.until.toISOString() });
    expect(nock.isDone()).toBe(true);
  });
});
