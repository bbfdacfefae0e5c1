import { generateKeyPairSync, createSign } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { akahuBank } from "../../server/core/providers/bank/akahu-live";
import { gocardlessDirectDebits } from "../../server/core/providers/direct-debit/gocardless-live";
import { kisiDoors } from "../../server/core/providers/doors/kisi-live";
import { ProviderError } from "../../server/core/providers/errors";
import { branchLinks } from "../../server/core/providers/links/branch-live";
import { deepLinkOr } from "../../server/core/providers/links/link-provider";
import { oneSignalPush } from "../../server/core/providers/push/onesignal-live";

/**
 * The live adapters (issue 11), each against a local fake that answers as the provider's API reference documents:
 * GoCardless through nock (its SDK's base URL is fixed), the others through a local HTTP server their SDKs are
 * pointed at. What is checked is what we send (paths, bodies, idempotency keys, credentials) and how each answer
 * becomes ours.
 */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

type Handler = (req: Seen, res: ServerResponse) => void;

async function fakeServer(handler: Handler) {
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
  const port = (server.address() as AddressInfo).port;
  return { seen, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.end(JSON.stringify(body));
};

describe("GoCardless (gocardless-nodejs, against nock)", () => {
  const api = "https://api.gocardless.com";
  const live = () => gocardlessDirectDebits({ accessToken: "live_token_gym", environment: "live" });
  const collection = { amount: 2_500, currency: "nzd" as const, mandate: "MD123", chargeDate: "2026-01-14", idempotencyKey: "charge:7:2026-01-12:0", description: "Membership", metadata: { payment_id: "7" } };
  afterEach(() => nock.cleanAll());
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());

  it("creates a payment against the mandate with our idempotency key and the gym's token", async () => {
    let sent: { body: unknown; key: unknown; auth: unknown } | null = null;
    nock(api)
      .post("/payments")
      .reply(function (_uri, body) {
        sent = { body, key: this.req.headers["idempotency-key"], auth: this.req.headers.authorization };
        return [201, { payments: { id: "PM0001", status: "pending_submission", charge_date: "2026-01-14", amount: 2500, currency: "NZD" } }];
      });
    expect(await live().collect(collection)).toEqual({ id: "PM0001", status: "pending_submission", chargeDate: "2026-01-14" });
    expect(sent).toEqual({
      body: { payments: { amount: 2500, currency: "NZD", charge_date: "2026-01-14", description: "Membership", metadata: { payment_id: "7" }, links: { mandate: "MD123" } } },
      key: "charge:7:2026-01-12:0",
      auth: "Bearer live_token_gym",
    });
  });

  it("answers a key used before with the payment it made (GoCardless's 409 names it), not a second one", async () => {
    nock(api)
      .post("/payments")
      .reply(409, { error: { type: "invalid_state", code: 409, message: "A resource has already been created with this idempotency key", errors: [{ reason: "idempotent_creation_conflict", links: { conflicting_resource_id: "PM0001" } }] } });
    nock(api).get("/payments/PM0001").reply(200, { payments: { id: "PM0001", status: "submitted", charge_date: "2026-01-14" } });
    expect(await live().collect(collection)).toEqual({ id: "PM0001", status: "submitted", chargeDate: "2026-01-14" });
  });

  it("reads a failed payment's cause from its failed event, and turns an inactive mandate into a cancelled-mandate decline", async () => {
    nock(api)
      .get("/payments/PM0002")
      .reply(200, { payments: { id: "PM0002", status: "failed", charge_date: "2026-01-14", amount: 2500, currency: "NZD", metadata: { payment_id: "7" }, links: { mandate: "MD123", creditor: "CR1" } } });
    nock(api)
      .get("/events")
      .query({ payment: "PM0002", action: "failed", limit: "1" })
      .reply(200, { events: [{ id: "EV1", action: "failed", details: { cause: "insufficient_funds", description: "The customer's account had insufficient funds." } }], meta: {} });
    // With what GoCardless says it was made for: a webhook settles our payment only when that is ours.
    expect(await live().retrieve("PM0002")).toEqual({
      id: "PM0002",
      status: "failed",
      chargeDate: "2026-01-14",
      cause: "insufficient_funds",
      description: "The customer's account had insufficient funds.",
      made: { amount: 2500, currency: "nzd", account: null, metadata: { payment_id: "7" } },
    });
    nock(api)
      .post("/payments")
      .reply(422, { error: { type: "invalid_state", code: 422, message: "The mandate is not active", errors: [{ reason: "mandate_is_inactive", message: "The mandate is not active" }] } });
    expect(await live().collect(collection)).toMatchObject({ id: "", status: "failed", cause: "mandate_cancelled" });
  });

  it("leaves the outcome unknown (retryable) on a 5xx or a refused connection, and knows no payment on a 404", async () => {
    nock(api).post("/payments").reply(500, { error: { type: "gocardless", code: 500, message: "Internal error", errors: [] } });
    const err = await live().collect(collection).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(true);
    nock(api).post("/payments").replyWithError("connect ECONNREFUSED");
    expect(((await live().collect(collection).catch((e: unknown) => e)) as ProviderError).retryable).toBe(true);
    nock(api).get("/payments/PM404").reply(404, { error: { type: "invalid_api_usage", code: 404, message: "Resource not found", errors: [{ reason: "resource_not_found" }] } });
    expect(await live().retrieve("PM404")).toBeNull();
  });
});

describe("Akahu (akahu SDK, against a local fake)", () => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
  let fake: Awaited<ReturnType<typeof fakeServer>>;
  beforeAll(async () => {
    fake = await fakeServer((req, res) => {
      if (req.method === "POST" && req.path === "/v1/payments") {
        const body = JSON.parse(req.body);
        if (body.from === "acc_gone") return json(res, 401, { success: false, message: "Unauthorized" });
        return json(res, 200, { success: true, item: { _id: "payment_1", status: body.amount > 1000 ? "PENDING_APPROVAL" : "READY", from: body.from, to: body.to, amount: body.amount } });
      }
      if (req.path === "/v1/payments/payment_1") {
        const item = { _id: "payment_1", status: "DECLINED", status_code: "INSUFFICIENT_FUNDS", status_text: "Not enough money.", amount: 25.1, meta: { destination: { reference: "P7" } } };
        return json(res, 200, { success: true, item });
      }
      if (req.path === "/v1/payments/payment_busy") return json(res, 503, { success: false, message: "Down for maintenance" });
      if (req.path === "/v1/keys/7") return json(res, 200, { success: true, item: publicKey });
      json(res, 404, { success: false, message: "Not found" });
    });
  });
  afterAll(() => fake.close());
  const live = () => akahuBank({ appToken: "app_token_gym", appSecret: "secret_gym", host: "127.0.0.1", port: fake.port, protocol: "http" });
  const request = { amount: 2_500, token: "user_token_1", fromAccount: "acc_member", to: { name: "Rail Yard Ltd", account_number: "01-0123-0456789-00" }, statement: { particulars: "Membership!", code: "20260112", reference: "P7" }, idempotencyKey: "charge:7:2026-01-12:0" };

  it("pays from the member's account in dollars, with our idempotency key, the member's token and the app token", async () => {
    fake.seen.length = 0;
    expect(await live().pay(request)).toEqual({ id: "payment_1", status: "READY", statusCode: null, statusText: null });
    const [call] = fake.seen;
    expect([call.path, call.headers["idempotency-key"], call.headers.authorization, call.headers["x-akahu-id"]]).toEqual(["/v1/payments", "charge:7:2026-01-12:0", "Bearer user_token_1", "app_token_gym"]);
    expect(JSON.parse(call.body)).toEqual({ from: "acc_member", amount: 25, to: request.to, meta: { destination: { particulars: "Membership", code: "20260112", reference: "P7" } } });
  });

  it("reads a payment's state, turns a refused token into authentication_failed, and a 5xx into a retryable unknown", async () => {
    // Akahu counts in dollars: what it says the payment was made for comes back in cents.
    expect(await live().retrieve("user_token_1", "payment_1")).toEqual({
      id: "payment_1",
      status: "DECLINED",
      statusCode: "INSUFFICIENT_FUNDS",
      statusText: "Not enough money.",
      made: { amount: 2510, currency: "nzd", account: null, metadata: { reference: "P7" } },
    });
    expect(fake.seen.find((s) => s.path === "/v1/payments/payment_1")?.headers.authorization).toBe("Bearer user_token_1");
    expect(await live().pay({ ...request, fromAccount: "acc_gone" })).toMatchObject({ id: "", status: "DECLINED", statusCode: "AUTHENTICATION_FAILED" });
    const err = await live().retrieve("user_token_1", "payment_busy").catch((e: unknown) => e);
    expect([err instanceof ProviderError, (err as ProviderError).retryable]).toEqual([true, true]);
    expect(await live().retrieve("user_token_1", "payment_unknown")).toBeNull();
  });

  it("checks a webhook's RSA signature against the key Akahu publishes, fetched with the app's credentials", async () => {
    const body = JSON.stringify({ webhook_type: "PAYMENT", webhook_code: "UPDATE", state: "o1:u2", item_id: "payment_1", status: "SENT" });
    const signature = createSign("sha256").update(body).end().sign(privateKey, "base64");
    expect(await live().verifyWebhook(body, "7", signature)).toMatchObject({ item_id: "payment_1", status: "SENT" });
    const keyCall = fake.seen.find((s) => s.path === "/v1/keys/7")!;
    expect(keyCall.headers.authorization).toBe(`Basic ${Buffer.from("app_token_gym:secret_gym").toString("base64")}`);
    await expect(live().verifyWebhook(body.replace("SENT", "DECLINED"), "7", signature)).rejects.toThrow(/verif/i);
  });
});

describe("OneSignal, Kisi and Branch (against local fakes)", () => {
  let fake: Awaited<ReturnType<typeof fakeServer>>;
  let kisiMembers: { id: number; access_enabled: boolean; user: { email: string } }[] = [];
  beforeAll(async () => {
    fake = await fakeServer((req, res) => {
      if (req.path === "/notifications") return json(res, 200, { id: "notif-1", external_id: null });
      if (req.method === "GET" && req.path.startsWith("/members")) return json(res, 200, kisiMembers);
      if (req.method === "POST" && req.path === "/members") {
        const m = JSON.parse(req.body).member;
        kisiMembers = [{ id: 5, access_enabled: m.access_enabled, user: { email: m.email } }];
        return json(res, 200, kisiMembers[0]);
      }
      if (req.method === "PATCH" && req.path === "/members/5") {
        kisiMembers[0].access_enabled = JSON.parse(req.body).member.access_enabled;
        return json(res, 200, kisiMembers[0]);
      }
      if (req.path === "/v1/url") {
        const body = JSON.parse(req.body);
        return body.branch_key === "key_live_gym" ? json(res, 200, { url: "https://gym.app.link/abc" }) : json(res, 400, { error: { message: "Invalid or missing app id, Branch key, or secret" } });
      }
      json(res, 404, {});
    });
  });
  afterAll(() => fake.close());
  const base = () => `http://127.0.0.1:${fake.port}`;

  it("OneSignal: one push to the member's external id, with our idempotency key and the gym's REST key", async () => {
    fake.seen.length = 0;
    const push = oneSignalPush({ appId: "0b5d8c3e-5f2a-4f1e-9d8e-1c2b3a4d5e6f", apiKey: "os_v2_gym", baseUrl: base() });
    expect(await push.send({ externalId: "user-9", heading: "Payment failed", content: "Your payment did not go through.", url: "https://join.example.com/", idempotencyKey: "payment_failed:41" })).toEqual({ id: "notif-1" });
    const [call] = fake.seen;
    expect(call.headers.authorization).toMatch(/os_v2_gym/);
    expect(JSON.parse(call.body)).toMatchObject({
      app_id: "0b5d8c3e-5f2a-4f1e-9d8e-1c2b3a4d5e6f",
      target_channel: "push",
      include_aliases: { external_id: ["user-9"] },
      headings: { en: "Payment failed" },
      contents: { en: "Your payment did not go through." },
      url: "https://join.example.com/",
      idempotency_key: "payment_failed:41",
    });
  });

  it("Kisi: finds the member by e-mail, adds them to turn access on, and switches it off with PATCH (access_enabled)", async () => {
    kisiMembers = [];
    fake.seen.length = 0;
    const doors = kisiDoors({ apiKey: "kisi_key", baseURL: `${base()}/` });
    const member = { organisationId: 1, email: "Olivia@Example.com", name: "Olivia" };
    expect(await doors.setAccess(member, false)).toBeNull(); // not in Kisi: nothing to switch off
    expect(await doors.setAccess(member, true)).toEqual({ externalId: "5", accessEnabled: true });
    expect(await doors.setAccess({ ...member, email: "olivia@example.com" }, false)).toEqual({ externalId: "5", accessEnabled: false });
    expect(await doors.accessOf(member)).toEqual({ externalId: "5", accessEnabled: false });
    expect(fake.seen.map((s) => `${s.method} ${s.path.split("?")[0]}`)).toContain("PATCH /members/5");
    expect(fake.seen.every((s) => s.headers.authorization === "KISI-LOGIN kisi_key")).toBe(true);
    expect(JSON.parse(fake.seen.find((s) => s.method === "PATCH")!.body)).toEqual({ member: { access_enabled: false } });
  });

  it("Branch: a short link to the web page; a link that cannot be made leaves the plain address in the e-mail", async () => {
    const links = branchLinks({ key: "key_live_gym", apiBase: `${base()}/` });
    expect(await links.create({ url: "https://join.example.com/", channel: "email", feature: "billing", data: { notice: "payment_failed" } })).toBe("https://gym.app.link/abc");
    const call = fake.seen.find((s) => s.path === "/v1/url")!;
    expect(JSON.parse(call.body)).toEqual({ branch_key: "key_live_gym", channel: "email", feature: "billing", data: { $fallback_url: "https://join.example.com/", $desktop_url: "https://join.example.com/", notice: "payment_failed" } });
    const wrong = branchLinks({ key: "key_live_wrong", apiBase: `${base()}/` });
    await expect(wrong.create({ url: "https://join.example.com/", channel: "email", feature: "billing" })).rejects.toBeInstanceOf(ProviderError);
    expect(await deepLinkOr(wrong, { url: "https://join.example.com/", channel: "email", feature: "billing" })).toBe("https://join.example.com/");
  });
});
