import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { openDatabase } from "../../server/core/db/client";
import { webhook_calls } from "../../server/core/db/schema";
import { kisiSignature } from "../../server/doors/events";
import { outboxMailer } from "../../server/core/mail/mailer";
import { SANDBOX_SIGNING_KEY_ID, sandboxAkahuSignature } from "../../server/core/providers/bank/sandbox";
import { loadWebhookSecrets } from "../../server/core/webhooks/secrets";
import { gocardlessSignature, stripeSignature } from "../../server/core/webhooks/verify";
import { PUBLISHED } from "./fixtures/published-secrets";
import { freshDatabase, signingSecrets, testConfig } from "./harness";

/**
 * Issue 29 H3: a demo (`npm start`: a production build with DEMO_MODE=1) checked the providers' webhooks against
 * secrets published in the source, so anyone who could reach it forged events. Each installation now makes its own
 * at first start and keeps them in its database; the sandboxes sign with them.
 */
const demo = testConfig({ NODE_ENV: "production", DEMO_MODE: "1" });
let env: Awaited<ReturnType<typeof freshDatabase>>;
let api: ReturnType<typeof createApi>;

beforeAll(async () => {
  env = await freshDatabase();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: demo });
});
afterAll(() => env.close());

async function post(provider: string, body: string, headers: Record<string, string>) {
  const res = await api.fetch(new Request(`http://localhost:3000/api/webhooks/${provider}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }), { clientIp: "198.51.100.9" });
  return { status: res.status, json: (await res.json()) as { call_id?: number; data?: { recorded: boolean } } };
}

const stripeBody = JSON.stringify({ id: "evt_forged", object: "event", type: "payment_intent.succeeded", data: { object: { id: "pi_forged", object: "payment_intent", status: "succeeded", metadata: { payment_id: "1" } } } });
const gocardlessBody = JSON.stringify({ events: [{ id: "EVFORGED", created_at: "2026-11-26T00:00:00Z", resource_type: "payments", action: "confirmed", links: { payment: "PM1" } }], meta: { webhook_id: "WBFORGED" } });
const akahuBody = JSON.stringify({ webhook_type: "PAYMENT", webhook_code: "UPDATE", state: "", item_id: "payment_forged", status: "SENT" });
const kisiBody = JSON.stringify({ id: "forged", action: "unlock", object_type: "Lock", object_id: "1", success: true, actor_email: "someone@example.com" });

describe("a demo's webhook secrets", () => {
  it("refuse an event signed with a secret the source once published, on every provider", async () => {
    const forged = {
      stripe: await post("stripe", stripeBody, { "stripe-signature": stripeSignature(stripeBody, PUBLISHED.stripe, new Date()) }),
      gocardless: await post("gocardless", gocardlessBody, { "webhook-signature": gocardlessSignature(gocardlessBody, PUBLISHED.gocardless) }),
      akahu: await post("akahu", akahuBody, { "x-akahu-signature": sandboxAkahuSignature(akahuBody, PUBLISHED.akahu), "x-akahu-signing-key": String(SANDBOX_SIGNING_KEY_ID) }),
      kisi: await post("kisi", kisiBody, { "x-kisi-signature": kisiSignature(kisiBody, PUBLISHED.kisi) }),
    };
    expect(Object.values(forged).map((r) => r.status)).toEqual([401, 401, 401, 400]);
    for (const r of [forged.stripe, forged.gocardless, forged.akahu]) {
      const [call] = await env.db.select().from(webhook_calls).where(eq(webhook_calls.id, r.json.call_id!));
      expect(call.status).toBe("rejected");
    }
  });

  it("take an event signed with the installation's own (what its sandboxes sign with)", async () => {
    const own = await signingSecrets({ db: env.db, config: demo });
    expect(Object.values(own)).not.toContain(PUBLISHED.stripe);
    const taken = [
      await post("stripe", stripeBody, { "stripe-signature": stripeSignature(stripeBody, own.stripe, new Date()) }),
      await post("gocardless", gocardlessBody, { "webhook-signature": gocardlessSignature(gocardlessBody, own.gocardless) }),
      await post("akahu", akahuBody, { "x-akahu-signature": sandboxAkahuSignature(akahuBody, own.akahu), "x-akahu-signing-key": String(SANDBOX_SIGNING_KEY_ID) }),
      await post("kisi", kisiBody, { "x-kisi-signature": kisiSignature(kisiBody, own.kisi) }),
    ];
    expect(taken.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });

  it("are each installation's own, made at its first start and the same after a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gym-secrets-"));
    try {
      const first = await openDatabase({ pgliteDir: dir });
      const made = await loadWebhookSecrets(first.db, demo);
      await first.close();
      const again = await openDatabase({ pgliteDir: dir });
      const kept = await loadWebhookSecrets(again.db, demo);
      await again.close();
      expect(kept).toEqual(made);
      expect(made.stripe).toMatchObject({ source: "installation", secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{40,}$/) });
      expect(made.akahuSandboxKey).toMatch(/BEGIN PRIVATE KEY/);
      // Another installation has others.
      const other = await loadWebhookSecrets(env.db, demo);
      for (const k of ["stripe", "gocardless", "kisi"] as const) expect(other[k]!.secret).not.toBe(made[k]!.secret);
      expect(other.akahuSandboxKey).not.toBe(made.akahuSandboxKey);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("are the environment's when set, and none at all on a live server without them", async () => {
    const set = await loadWebhookSecrets(env.db, testConfig({ NODE_ENV: "production", DEMO_MODE: "1", STRIPE_WEBHOOK_SECRET: "whsec_from_the_dashboard" }));
    expect(set.stripe).toEqual({ secret: "whsec_from_the_dashboard", source: "environment" });
    const live = await loadWebhookSecrets(env.db, testConfig({ NODE_ENV: "production", SMTP_URL: "smtp://mail:25", CREDENTIALS_KEY: "k".repeat(40) }));
    expect(live).toEqual({ stripe: null, gocardless: null, kisi: null, akahuSandboxKey: null });
  });
});
