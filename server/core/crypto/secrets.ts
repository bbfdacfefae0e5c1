import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { config } from "../config";

/**
 * Secrets at rest (issue 15: gyms' provider credentials): AES-256-GCM under a key from the environment
 * (CREDENTIALS_KEY), each value with its own random nonce and an authentication tag, stored as
 * `v1:<nonce>:<tag>:<ciphertext>` in base64url. A value changed in the database, or read under another key, does not
 * open (null) rather than turning into a wrong secret. Node's own crypto: nothing to add for one cipher.
 */
const PREFIX = "v1";
/** Development and demo only (config refuses production without CREDENTIALS_KEY): a fixed key, so a restart keeps data readable. */
const DEVELOPMENT_KEY = "gym-membership development credentials key: not a secret";

const keyFrom = (material: string) => createHash("sha256").update(material, "utf8").digest();

export function sealSecret(plain: string, material = config().CREDENTIALS_KEY ?? DEVELOPMENT_KEY): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFrom(material), nonce);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [PREFIX, nonce.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(":");
}

/** The secret, or null when the value is not one we sealed under this key. */
export function openSecret(sealed: string, material = config().CREDENTIALS_KEY ?? DEVELOPMENT_KEY): string | null {
  const [prefix, nonce, tag, body] = sealed.split(":");
  if (prefix !== PREFIX || !nonce || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFrom(material), Buffer.from(nonce, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
