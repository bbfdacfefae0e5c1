import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { INCOMING_WEBHOOK_PATHS, incomingWebhookRoutes } from "../../server/webhooks/incoming";
import { kisiSignature } from "../../server/doors/events";
import { outboxMailer } from "../../server/core/mail/mailer";
import { SANDBOX_SIGNING_KEY_ID, sandboxAkahuSignature } from "../../server/core/providers/bank/sandbox";
import { gocardlessSignature, stripeSignature } from "../../server/core/webhooks/verify";
import { setup, signingSecrets } from "./harness";

/**
 * Issue 29 M3: each provider's webhook posted exactly as the provider sends it — a server, not a browser: no cookie,
 * no Origin, no Sec-Fetch-Site, no X-Requested-With; its own headers and signature scheme — is taken, not refused by
 * the cross-site guard (Kisi's was: every real door event got 403).
 */
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let secrets: Awaited<ReturnType<typeof signingSecrets>>;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  secrets = await signingSecrets(env);
});
afterAll(() => env.close());

/** A provider's POST: only the headers it sends. */
async function deliver(path: string, body: string, headers: Record<string, string>) {
  const res = await api.fetch(new Request(`https://gym.example.com${path}`, { method: "POST", body, headers }), { clientIp: "54.187.174.169" });
  return { status: res.status, json: (await res.json()) as { message?: string; error?: string; data?: unknown } };
}

const deliveries: Record<string, () => [string, Record<string, string>]> = {
  // https://docs.stripe.com/webhooks#verify-official-libraries
  "/api/webhooks/stripe": () => {
    const body = JSON.stringify({ id: "evt_as_sent", object: "event", type: "customer.created", data: { object: { id: "cus_1", object: "customer" } } });
    return [body, { "content-type": "application/json; charset=utf-8", "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)", "stripe-signature": stripeSignature(body, secrets.stripe, new Date()) }];
  },
  // https://developer.gocardless.com/getting-started/staying-up-to-date-with-webhooks
  "/api/webhooks/gocardless": () => {
    const body = JSON.stringify({ events: [{ id: "EVASSENT", created_at: new Date().toISOString(), resource_type: "mandates", action: "created", links: { mandate: "MD1" } }], meta: { webhook_id: "WBASSENT" } });
    return [body, { "content-type": "application/json", "user-agent": "gocardless-webhook-service/1.1", "webhook-signature": gocardlessSignature(body, secrets.gocardless) }];
  },
  // https://developers.akahu.nz/docs/reference-webhooks
  "/api/webhooks/akahu": () => {
    const body = JSON.stringify({ webhook_type: "ACCOUNT", webhook_code: "UPDATE", state: "", item_id: "acc_1" });
    return [body, { "content-type": "application/json", "user-agent": "Akahu-Webhooks", "x-akahu-signature": sandboxAkahuSignature(body, secrets.akahu), "x-akahu-signing-key": String(SANDBOX_SIGNING_KEY_ID) }];
  },
  // Kisi's event webhook: HMAC-SHA256 of the body in X-Kisi-Signature (server/doors/events.ts).
  "/api/webhooks/kisi": () => {
    const body = JSON.stringify({ id: 1, action: "unlock", object_type: "Lock", object_id: 424242, success: true, actor_email: "someone@example.com" });
    return [body, { "content-type": "application/json", "user-agent": "Kisi-Webhooks", "x-kisi-signature": kisiSignature(body, secrets.kisi) }];
  },
};

describe("the providers' webhooks, as the providers send them", () => {
  it("are every endpoint the incoming routes answer", () => {
    const routed = incomingWebhookRoutes.routes.filter((r) => r.method === "POST").map((r) => `/api${r.path}`);
    expect([...routed].sort()).toEqual([...INCOMING_WEBHOOK_PATHS].sort());
    expect(Object.keys(deliveries).sort()).toEqual([...INCOMING_WEBHOOK_PATHS].sort());
  });

  for (const path of Object.keys(deliveries)) {
    it(`${path} is taken with no Origin and no X-Requested-With, signed as its provider signs`, async () => {
      const [body, headers] = deliveries[path]();
      const res = await deliver(path, body, headers);
      expect([res.status, res.json.error]).toEqual([200, undefined]);
    });
  }

  it("still refuses a cookie-carrying cross-site post to any other path", async () => {
    const res = await deliver("/api/logout", "", { origin: "https://evil.example.net", cookie: "gym_session=x" });
    expect([res.status, res.json.error]).toEqual([403, "cross_site_request"]);
  });
});
