import { randomBytes, timingSafeEqual } from "node:crypto";
import { hmac } from "./crypto";

/**
 * The `state` of an OAuth-style round trip to a provider's page (a member's bank consent, a gym connecting its card
 * or direct-debit account): what it is for, signed with the server's secret, with an expiry and a nonce. A forged,
 * someone else's or stale return is refused. `purpose` keeps one round trip's state from being replayed in another.
 */
export function signState(secret: string, purpose: string, parts: (string | number)[], now: Date, lifetimeMs: number): string {
  const payload = [...parts, now.getTime() + lifetimeMs, randomBytes(9).toString("base64url")].join(".");
  return `${payload}.${hmac(secret, `${purpose}:${payload}`)}`;
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
