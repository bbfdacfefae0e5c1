import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { webhook_calls } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { REFUSED_BODY_KEPT, REFUSED_KEPT_PER_HOUR, REFUSED_PER_ADDRESS } from "../../server/webhooks/refused";
import { stripeSignature } from "../../server/core/webhooks/verify";
import { setup, signingSecrets } from "./harness";

/**
 * Issue 29 L8: the webhook endpoints stored every call whose signature failed, whole (up to 64 KB), with no limit:
 * about 6 MB a second from one client. Now an address gets a few refused calls a minute, and only a bounded sample of
 * refused calls is kept, each cut short.
 */
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
});
afterAll(() => env.close());

const big = JSON.stringify({ id: "evt_flood", object: "event", type: "payment_intent.succeeded", padding: "x".repeat(60_000) });

async function post(provider: string, body: string, ip: string, headers: Record<string, string> = {}) {
  const res = await api.fetch(new Request(`http://localhost:3000/api/webhooks/${provider}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }), { clientIp: ip });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), json: (await res.json()) as { call_id: number | null } };
}

const rejected = async () =>
  (
    await env.db
      .select({ count: sql<number>`count(*)::int`, bytes: sql<number>`coalesce(sum(length(${webhook_calls.body})), 0)::int` })
      .from(webhook_calls)
      .where(eq(webhook_calls.status, "rejected"))
  )[0];

describe("calls whose signature is refused", () => {
  it("are limited per address: a flood from one gets 429 after a few, and stores only those few, cut short", async () => {
    const answers = [];
    for (let i = 0; i < 100; i++) answers.push(await post("stripe", big, "203.0.113.66"));
    const refused = answers.filter((a) => a.status === 401);
    const limited = answers.filter((a) => a.status === 429);
    expect([refused.length, limited.length]).toEqual([REFUSED_PER_ADDRESS.max, 100 - REFUSED_PER_ADDRESS.max]);
    expect(Number(limited[0].retryAfter)).toBeGreaterThan(0);
    expect(limited.every((a) => a.json.call_id === null)).toBe(true);
    const stored = await rejected();
    expect(stored.count).toBe(REFUSED_PER_ADDRESS.max);
    expect(stored.bytes).toBeLessThanOrEqual(REFUSED_PER_ADDRESS.max * (REFUSED_BODY_KEPT + 100));
    const [one] = await env.db.select().from(webhook_calls).where(eq(webhook_calls.id, refused[0].json.call_id!));
    expect(one.body.startsWith(big.slice(0, 100))).toBe(true);
    expect(one.body).toMatch(/more characters not kept\)$/);

    // The provider's own signed calls, even from that address, are never counted.
    const signed = JSON.stringify({ id: "evt_signed_in_flood", object: "event", type: "customer.created", data: { object: { id: "cus_1", object: "customer" } } });
    const ok = await post("stripe", signed, "203.0.113.66", { "stripe-signature": stripeSignature(signed, (await signingSecrets(env)).stripe, new Date()) });
    expect(ok.status).toBe(200);
  });

  it("are kept as a bounded sample per provider an hour, however many addresses send them", async () => {
    const before = await rejected();
    const answers = [];
    for (let i = 0; i < 2 * REFUSED_KEPT_PER_HOUR; i++) answers.push(await post("gocardless", big, `198.51.100.${i % 250}`, { "webhook-signature": "0".repeat(64) }));
    expect(answers.every((a) => a.status === 401)).toBe(true);
    const kept = answers.filter((a) => a.json.call_id !== null);
    expect(kept.length).toBe(REFUSED_KEPT_PER_HOUR);
    const after = await rejected();
    expect(after.count - before.count).toBe(REFUSED_KEPT_PER_HOUR);
    expect(after.bytes - before.bytes).toBeLessThanOrEqual(REFUSED_KEPT_PER_HOUR * (REFUSED_BODY_KEPT + 100));
  });
});
