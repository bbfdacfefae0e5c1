import { generateKeyPairSync, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { installation_secrets } from "../db/schema";

/**
 * What the providers' webhooks are signed with (issue 29 H3). A secret is never a constant in the source: it is the
 * provider's, set in the environment (STRIPE_WEBHOOK_SECRET, GOCARDLESS_WEBHOOK_SECRET, KISI_WEBHOOK_SECRET), or, where
 * the sandboxes may run (outside production, or a demo), this installation's own, made at random at its first start
 * and kept in the database (installation_secrets), which the sandboxes sign with too. Anyone can read the source; only
 * this installation knows its secrets. A production server without a provider's secret has none (every call refused),
 * and one configured with a provider's key but not its webhook secret does not start (server/core/config.ts).
 */
export type SecretProvider = "stripe" | "gocardless" | "kisi";

export interface SigningSecret {
  secret: string;
  source: "environment" | "installation";
}

export interface WebhookSecrets {
  stripe: SigningSecret | null;
  gocardless: SigningSecret | null;
  kisi: SigningSecret | null;
  /**
   * The sandbox Akahu's private signing key (PEM) where the sandbox may run: it signs the sandbox's calls, and its
   * public half checks them. Akahu's own calls are checked against the keys Akahu publishes.
   */
  akahuSandboxKey: string | null;
}

export const WEBHOOK_SECRET_VARIABLES: Record<SecretProvider, "STRIPE_WEBHOOK_SECRET" | "GOCARDLESS_WEBHOOK_SECRET" | "KISI_WEBHOOK_SECRET"> = {
  stripe: "STRIPE_WEBHOOK_SECRET",
  gocardless: "GOCARDLESS_WEBHOOK_SECRET",
  kisi: "KISI_WEBHOOK_SECRET",
};

/** How each installation secret is made: in the shape its provider's are (Stripe's start whsec_). */
const MAKE: Record<string, () => string> = {
  "webhook:stripe": () => `whsec_${randomBytes(32).toString("base64url")}`,
  "webhook:gocardless": () => randomBytes(32).toString("hex"),
  "webhook:kisi": () => randomBytes(32).toString("hex"),
  "sandbox:akahu-signing-key": () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
};

export const sandboxAllowed = (config: Config) => config.NODE_ENV !== "production" || config.DEMO_MODE;

/**
 * The installation's secret `name`: made at random the first time it is asked for, then the same for ever (across
 * restarts, and for every process on the database: the first to write it wins, the others read it).
 */
export async function installationSecret(db: Db, name: keyof typeof MAKE): Promise<string> {
  const [kept] = await db.select({ secret: installation_secrets.secret }).from(installation_secrets).where(eq(installation_secrets.name, name));
  if (kept) return kept.secret;
  await db.insert(installation_secrets).values({ name, secret: MAKE[name]() }).onConflictDoNothing();
  const [made] = await db.select({ secret: installation_secrets.secret }).from(installation_secrets).where(eq(installation_secrets.name, name));
  return made.secret;
}

/** The sandbox Akahu's signing key: the environment's, else the installation's own. */
export const sandboxAkahuKey = async (db: Db, set: string | undefined) => set ?? installationSecret(db, "sandbox:akahu-signing-key");

/** Every webhook secret of this installation, made where missing: at start-up (server/runtime.ts), once per API. */
export async function loadWebhookSecrets(db: Db, config: Config): Promise<WebhookSecrets> {
  const sandbox = sandboxAllowed(config);
  const one = async (provider: SecretProvider): Promise<SigningSecret | null> => {
    const set = config[WEBHOOK_SECRET_VARIABLES[provider]];
    if (set) return { secret: set, source: "environment" };
    return sandbox ? { secret: await installationSecret(db, `webhook:${provider}`), source: "installation" } : null;
  };
  return {
    stripe: await one("stripe"),
    gocardless: await one("gocardless"),
    kisi: await one("kisi"),
    akahuSandboxKey: sandbox ? await sandboxAkahuKey(db, config.AKAHU_SANDBOX_SIGNING_KEY) : null,
  };
}
