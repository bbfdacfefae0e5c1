import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/client";
import { hmac, sha256 } from "./crypto";
import { take } from "./rate-limit";

/**
 * The `state` of an OAuth-style round trip to a provider's page (a member's bank consent, a gym connecting its card
 * or direct-debit account): what it is for, signed with the server's secret, with an expiry and a nonce. A forged,
 * someone else's or stale return is refused. `purpose` keeps one round trip's state from being replayed in another.
 */
export function signState(secret: string, purpose: string, parts: (string | number)[], now: Date, lifetimeMs: number): string {
  const payload = [...parts, now.getTime() + lifetimeMs, randomBytes(9).toString("base64url")].join(".");
  return `${payload}.${hmac(secret, `${purpose}:${payload}`)}`;
}

/**
 * Marks `state` used, and says whether this was its first use: a state good for one code only (a second code with the
 * same state connects nothing). Counted like a rate limit of one (server/core/auth/rate-limit.ts: one atomic upsert, so
 * of two uses at once one wins), for as long as the state lives; on the caller's transaction, so a use that fails
 * (the provider refused the code) is rolled back with it and the state can be tried again.
 */
export async function firstUseOfState(db: Db, purpose: string, state: string, lifetimeMs: number, now: Date): Promise<boolean> {
  return (await take(db, { key: `oauth-state:${purpose}:${sha256(state)}`, max: 1, windowMs: lifetimeMs }, now)).allowed;
}

/** The parts signed into `state`, or null when it is not ours for `purpose`, has been altered, or has expired. */
export function readState(secret: string, purpose: string, state: string, partCount: number, now: Date): string[] | null {
  const fields = state.split(".");
  if (fields.length !== partCount + 3) return null;
  const payload = fields.slice(0, -1).join(".");
  const expected = Buffer.from(hmac(secret, `${purpose}:${payload}`));
  const given = Buffer.from(fields[fields.length - 1]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (!(Number(fields[partCount]) > now.getTime())) return null;
  return fields.slice(0, partCount);
}
