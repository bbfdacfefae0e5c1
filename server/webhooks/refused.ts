import { take, waitInWords } from "../core/auth/rate-limit";
import type { Db } from "../core/db/client";
import { webhook_calls } from "../core/db/schema";
import type { Answer } from "./answer";
import type { WebhookProvider } from "../core/webhooks/verify";

/**
 * Calls whose signature is refused (issue 29 L8). Anyone can send them, and each was stored whole (up to 64 KB):
 * about 6 MB a second from one client. Staff still need to see why a provider's calls are refused (a wrong secret, a
 * proxy that changes the body), which a sample shows as well as every one of them:
 * - an address gets REFUSED_PER_ADDRESS of them a minute, then 429 with Retry-After, nothing stored (a provider's own
 *   signed calls never count, so a flood from one address does not stop them);
 * - at most REFUSED_KEPT_PER_HOUR are stored per provider an hour, the rest answered 401 unstored;
 * - each stored one keeps the first REFUSED_BODY_KEPT characters of its body.
 * At most 3 providers × 60 × 2 KB ≈ 360 KB an hour, however many send.
 */
export const REFUSED_PER_ADDRESS = { max: 20, windowMs: 60_000 };
export const REFUSED_KEPT_PER_HOUR = 60;
export const REFUSED_BODY_KEPT = 2_048;

export function sampleOf(body: string) {
  return body.length <= REFUSED_BODY_KEPT ? body : `${body.slice(0, REFUSED_BODY_KEPT)}\n… (${body.length - REFUSED_BODY_KEPT} more characters not kept)`;
}

export async function refuseCall(
  db: Db,
  call: { provider: WebhookProvider; headers: Record<string, string>; body: string; from: string | null; now: Date; message: string; started: number },
): Promise<Answer> {
  const perAddress = await take(db, { key: `webhook-refused:${call.from ?? "unknown"}`, ...REFUSED_PER_ADDRESS }, call.now);
  if (!perAddress.allowed) {
    return {
      status: 429,
      body: { message: `Too many calls with a refused signature from this address: try again in ${waitInWords(perAddress.retryAfter)}.`, call_id: null },
      retryAfter: perAddress.retryAfter,
    };
  }
  const sample = await take(db, { key: `webhook-refused-kept:${call.provider}`, max: REFUSED_KEPT_PER_HOUR, windowMs: 3_600_000 }, call.now);
  if (!sample.allowed) return { status: 401, body: { message: `Signature refused: ${call.message}`, call_id: null } };
  const [stored] = await db
    .insert(webhook_calls)
    .values({
      provider: call.provider,
      status: "rejected",
      result: call.message,
      headers: call.headers,
      body: sampleOf(call.body),
      received_at: call.now,
      duration_ms: Math.round(performance.now() - call.started),
    })
    .returning({ id: webhook_calls.id });
  return { status: 401, body: { message: `Signature refused: ${call.message}`, call_id: stored.id } };
}
