import { randomBytes } from "node:crypto";
import { sha256 } from "./crypto";

/**
 * An API key as integrators hold it: `gym_live_` and 32 characters of Crockford base 32 (160 random bits). The prefix
 * makes a leaked key recognisable to secret scanners and to people; only its SHA-256 is stored (a key is long and
 * random, so a fast hash is enough, as for session tokens), with its first characters to tell keys apart in lists.
 */
export const KEY_PREFIX = "gym_live_";
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const SHOWN = KEY_PREFIX.length + 8;

export function newKeySecret(): string {
  const bytes = randomBytes(32);
  let out = "";
  for (let i = 0; i < 32; i++) out += ALPHABET[bytes[i] & 31];
  return KEY_PREFIX + out;
}

export const keyHash = (secret: string) => sha256(secret);
export const shownPrefix = (secret: string) => secret.slice(0, SHOWN);

/** Whether a bearer token looks like one of our keys (anything else is refused without a query). */
export const looksLikeKey = (token: string) => token.length === KEY_PREFIX.length + 32 && token.startsWith(KEY_PREFIX);
