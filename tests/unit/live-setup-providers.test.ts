import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { akahuBank } from "../../server/core/providers/bank/akahu-live";
import { stripeCards } from "../../server/core/providers/cards/stripe-live";
import { gocardlessDirectDebits } from "../../server/core/providers/direct-debit/gocardless-live";
import { ProviderError } from "../../server/core/providers/errors";

/**
 * The live adapters' sign-up halves (issue 13): saving a card on Stripe Checkout, a GoCardless mandate through a
 * billing request flow, an Akahu OAuth consent, each against a local fake that answers as the provider's API
 * reference documents. What is checked is what we send, and how each answer becomes ours.
 */
interface Seen {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

async function fakeServer(handler: (req: Seen, res: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const s = { method: req.method!, path: req.url!, headers: req.headers, body };
      seen.push(s);
      res.setHeader("content-type", "application/json");
      handler(s, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { seen, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.end(JSON.stringify(body));
};

describe("Stripe Checkout in setup mode (stripe SDK, against a local fake)", () => {
  let fake: Awaited<ReturnType<typeof fakeServer>>;
  beforeAll(async () => {
    fake = await fakeServer((req, res) => {
      if (req.method === "POST" && req.path === "/v1/customers") return json(res, 200, { id: "cus_1", object: "customer" });
      if (req.method === "POST" && req.path === "/v1/checkout/sessions") return json(res, 200, { id: "cs_test_1", object: "checkout.session", url: "https://checkout.stripe.com/c/pay/cs_test_1" });
      if (req.method === "GET" && req.path.startsWith("/v1/checkout/sessions/cs_test_open")) return json(res, 200, { id: "cs_test_open", object: "checkout.session", status: "open" });
      if (req.method === "GET" && req.path.startsWith("/v1/checkout/sessions/cs_test_1")) {
        return json(res, 200, {
          id: "cs_test_1",
          object: "checkout.session",
          status: "complete",
          customer: "cus_1",
          client_reference_id: "4:77",
          setup_intent: { id: "seti_1", object: "setup_intent", status: "succeeded", payment_method: { id: "pm_1", object: "payment_method", card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030, country: "NZ" } } },
        });
      }
      json(res, 404, { error: { type: "invalid_request_error", message: "No such checkout session" } });
    });
  });
  afterAll(() => fake.close());
  const live = () => stripeCards({ secretKey: "sk_test_fake", host: "127.0.0.1", port: fake.port, protocol: "http" });

  it("makes a customer on the gym's account, then a setup-mode session for it, each with our key; answers the hosted page", async () => {
    fake.seen.length = 0;
    const opened = await live().startSetup({
      account: "acct_gym",
      email: "joiner@example.com",
      name: "Jo Iner",
      reference: "4:77",
      successUrl: "https://join.example.com/card-connected?session_id={CHECKOUT_SESSION_ID}",
      cancelUrl: "https://join.example.com/choose-payment-method?cancelled=card",
      idempotencyKey: "card-setup:4:77:n1",
    });
    expect(opened).toEqual({ id: "cs_test_1", url: "https://checkout.stripe.com/c/pay/cs_test_1" });
    const [customer, session] = fake.seen;
    expect([customer.path, customer.headers["idempotency-key"], customer.headers["stripe-account"]]).toEqual(["/v1/customers", "card-setup:4:77:n1:customer", "acct_gym"]);
    const form = new URLSearchParams(session.body);
    expect([session.headers["idempotency-key"], session.headers["stripe-account"]]).toEqual(["card-setup:4:77:n1:session", "acct_gym"]);
    expect(Object.fromEntries(["mode", "currency", "customer", "client_reference_id", "success_url"].map((k) => [k, form.get(k)]))).toEqual({
      mode: "setup",
      currency: "nzd",
      customer: "cus_1",
      client_reference_id: "4:77",
      success_url: "https://join.example.com/card-connected?session_id={CHECKOUT_SESSION_ID}",
    });
  });

  it("reads the saved card back from the completed session; an open one saves nothing; an unknown one is null", async () => {
    fake.seen.length = 0;
    expect(await live().readSetup("cs_test_1", "acct_gym")).toEqual({
      status: "complete",
      reference: "4:77",
      customer: "cus_1",
      paymentMethod: "pm_1",
      card: { brand: "visa", last_four: "4242", exp_month: 12, exp_year: 2030, country: "NZ" },
    });
    expect(decodeURIComponent(fake.seen[0].path)).toContain("expand[0]=setup_intent.payment_method");
    expect(await live().readSetup("cs_test_open")).toEqual({ status: "open" });
    expect(await live().readSetup("cs_test_missing")).toBeNull();
  });
});

describe("GoCardless billing request flow (gocardless-nodejs, against nock)", () => {
  const api = "https://api.gocardless.com";
  afterEach(() => nock.cleanAll());
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  const live = () => gocardlessDirectDebits({ accessToken: "live_token_gym", environment: "live" });
  const request = {
    email: "joiner@example.com",
    givenName: "Jo",
    familyName: "Iner",
    accountHolder: "Jo Iner",
    account: { bank: "12", branch: "3140", number: "0071234", suffix: "00" },
    reference: "4:77",
    successUrl: "https://join.example.com/direct-debit?billing_request={BILLING_REQUEST_ID}",
    cancelUrl: "https://join.example.com/choose-payment-method?cancelled=direct_debit",
    idempotencyKey: "mandate-setup:4:77:n1",
  };

  it("asks for a BECS NZ mandate, gives the customer and the checked account, then opens the hosted flow back to us", async () => {
    const sent: Record<string, unknown> = {};
    nock(api)
      .post("/billing_requests", (b) => ((sent.request = b), true))
      .matchHeader("idempotency-key", "mandate-setup:4:77:n1:request")
      .reply(201, { billing_requests: { id: "BRQ1", status: "pending" } });
    nock(api)
      .post("/billing_requests/BRQ1/actions/collect_customer_details", (b) => ((sent.customer = b), true))
      .reply(200, { billing_requests: { id: "BRQ1" } });
    nock(api)
      .post("/billing_requests/BRQ1/actions/collect_bank_account", (b) => ((sent.account = b), true))
      .reply(200, { billing_requests: { id: "BRQ1" } });
    nock(api)
      .post("/billing_request_flows", (b) => ((sent.flow = b), true))
      .reply(200, { billing_request_flows: { id: "BRF1", authorisation_url: "https://pay.gocardless.com/billing/static/flow?id=BRF1" } });
    expect(await live().startMandate(request)).toEqual({ id: "BRQ1", url: "https://pay.gocardless.com/billing/static/flow?id=BRF1" });
    expect(sent.request).toMatchObject({ billing_requests: { mandate_request: { scheme: "becs_nz", currency: "NZD" }, metadata: { reference: "4:77" } } });
    expect(sent.customer).toMatchObject({ data: { customer: { email: "joiner@example.com", given_name: "Jo", family_name: "Iner" } } });
    expect(sent.account).toMatchObject({ data: { account_holder_name: "Jo Iner", bank_code: "12", branch_code: "3140", account_number: "0071234", account_number_suffix: "00", country_code: "NZ" } });
    expect(sent.flow).toMatchObject({ billing_request_flows: { redirect_uri: "https://join.example.com/direct-debit?billing_request=BRQ1", links: { billing_request: "BRQ1" }, lock_bank_account: true } });
  });

  it("an account GoCardless refuses is a refusal, not worth sending again", async () => {
    nock(api).post("/billing_requests").reply(201, { billing_requests: { id: "BRQ2", status: "pending" } });
    nock(api).post("/billing_requests/BRQ2/actions/collect_customer_details").reply(200, { billing_requests: { id: "BRQ2" } });
    nock(api)
      .post("/billing_requests/BRQ2/actions/collect_bank_account")
      .reply(422, { error: { type: "validation_failed", code: 422, message: "Validation failed", errors: [{ field: "account_number", message: "is invalid", request_pointer: "/data/account_number" }] } });
    const err = await live().startMandate({ ...request, idempotencyKey: "k2" }).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(false);
  });

  it("reads the mandate from a fulfilled request; one still pending saves nothing", async () => {
    nock(api)
      .get("/billing_requests/BRQ1")
      .reply(200, { billing_requests: { id: "BRQ1", status: "fulfilled", metadata: { reference: "4:77" }, links: { mandate_request_mandate: "MD1" }, resources: { customer_bank_account: { account_holder_name: "Jo Iner", account_number_ending: "34" } } } });
    expect(await live().readMandate("BRQ1")).toEqual({ status: "complete", reference: "4:77", mandate: "MD1", accountHolder: "Jo Iner", accountNumber: "••34" });
    nock(api).get("/billing_requests/BRQ3").reply(200, { billing_requests: { id: "BRQ3", status: "pending" } });
    expect(await live().readMandate("BRQ3")).toEqual({ status: "open" });
  });
});

describe("Akahu OAuth (akahu SDK, against a local fake)", () => {
  let fake: Awaited<ReturnType<typeof fakeServer>>;
  beforeAll(async () => {
    fake = await fakeServer((req, res) => {
      if (req.method === "POST" && req.path === "/v1/token") {
        const body = JSON.parse(req.body);
        if (body.code === "used") return json(res, 400, { success: false, message: "invalid_grant" });
        return json(res, 200, { success: true, access_token: "user_token_1", token_type: "bearer", scope: "ENDURING_CONSENT" });
      }
      if (req.method === "GET" && req.path === "/v1/accounts") {
        return json(res, 200, {
          success: true,
          items: [
            { _id: "acc_1", _authorisation: "auth_1", _credentials: "cred_1", connection: { _id: "conn_1", name: "ASB", logo: "" }, name: "Everyday", status: "ACTIVE", formatted_account: "12-3140-0071234-00", type: "CHECKING", attributes: ["TRANSACTIONS", "PAYMENT_FROM"] },
            { _id: "acc_2", _authorisation: "auth_1", _credentials: "cred_1", connection: { _id: "conn_1", name: "ASB", logo: "" }, name: "Savings", status: "ACTIVE", formatted_account: "12-3140-0071234-01", type: "SAVINGS", attributes: ["TRANSACTIONS"] },
          ],
        });
      }
      json(res, 404, { success: false, message: "Not found" });
    });
  });
  afterAll(() => fake.close());
  const live = () => akahuBank({ appToken: "app_token_gym", appSecret: "secret_gym", host: "127.0.0.1", port: fake.port, protocol: "http" });

  it("sends the person to Akahu's consent with our state, exchanges the code with the app's secret, lists what can pay", async () => {
    const url = new URL(await live().authorisationUrl({ redirectUri: "https://join.example.com/bank-account-connected", state: "s.t.a.t.e", email: "joiner@example.com" }));
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ client_id: "app_token_gym", redirect_uri: "https://join.example.com/bank-account-connected", state: "s.t.a.t.e", response_type: "code", scope: "ENDURING_CONSENT", email: "joiner@example.com" });
    fake.seen.length = 0;
    expect(await live().exchange("code_1", "https://join.example.com/bank-account-connected")).toEqual({ token: "user_token_1" });
    expect(JSON.parse(fake.seen[0].body)).toMatchObject({ code: "code_1", redirect_uri: "https://join.example.com/bank-account-connected", client_secret: "secret_gym" });
    expect(await live().accounts("user_token_1")).toEqual([
      { id: "acc_1", name: "Everyday", accountNumber: "12-3140-0071234-00", bank: "ASB", canPay: true },
      { id: "acc_2", name: "Savings", accountNumber: "12-3140-0071234-01", bank: "ASB", canPay: false },
    ]);
    expect(fake.seen.at(-1)!.headers.authorization).toBe("Bearer user_token_1");
  });

  it("a code Akahu refuses (used, expired) is a refusal the member answers by connecting again", async () => {
    const err = await live().exchange("used", "https://join.example.com/bank-account-connected").catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(false);
  });
});
