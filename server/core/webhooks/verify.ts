import { createHmac, timingSafeEqual } from "node:crypto";
import Stripe from "stripe";
import type { Config } from "../config";
import type { SigningSecret, WebhookSecrets } from "./secrets";

/**
 * Webhook signatures, as each provider specifies them (issue 11). A call whose signature fails is stored as
 * rejected and never processed.
 * - Stripe: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, checked by the official SDK
 *   (`webhooks.constructEventAsync`), with t within 300 s of now either way (the SDK bounds only the past).
 * - GoCardless: `Webhook-Signature: <hex HMAC-SHA256 of the body>` with the endpoint's secret.
 * - Akahu: `X-Akahu-Signature: <base64 RSA-SHA256 of the body>` by Akahu's private key `X-Akahu-Signing-Key`, whose
 *   public half Akahu publishes (checked by the official SDK, ../providers/bank/akahu-live.ts; the sandbox's key pair,
 *   the installation's own, outside production or in a demo, ../providers/bank/sandbox.ts).
 * The secrets are the provider's from the environment, else the installation's own (./secrets.ts): never the source's.
 */
export type WebhookProvider = "stripe" | "gocardless" | "akahu";
export const WEBHOOK_PROVIDERS: WebhookProvider[] = ["stripe", "gocardless", "akahu"];

export const STRIPE_TOLERANCE_SECONDS = 300;

/**
 * How a provider's calls are checked, for staff (GET /api/webhooks): with a secret from the environment, the
 * installation's own (./secrets.ts), or not at all ("missing": every call refused). Akahu signs with its own RSA key:
 * "environment" when an Akahu app is configured to fetch Akahu's public keys, "installation" when the sandbox Akahu's
 * key (the installation's own) is accepted.
 */
export function secretSource(secrets: WebhookSecrets, config: Config, provider: WebhookProvider): SigningSecret["source"] | null {
  if (provider === "akahu") return config.AKAHU_APP_TOKEN ? "environment" : secrets.akahuSandboxKey ? "installation" : null;
  return secrets[provider]?.source ?? null;
}

// Only its webhooks helper is used: it makes no request, so no real key is needed.
const stripe = new Stripe("sk_webhooks_only");

export async function verifyStripe(body: string, header: string | undefined, secret: string, now: Date): Promise<Stripe.Event> {
  if (!header) throw new Error("No Stripe-Signature header.");
  // The SDK reads the clock itself; our clock is passed so tests (and replays of old calls) are exact.
  const cryptoProvider = Stripe.createNodeCryptoProvider();
  const event = await stripe.webhooks.constructEventAsync(body, header, secret, STRIPE_TOLERANCE_SECONDS, cryptoProvider, now.getTime());
  // The SDK bounds only the past (now - t > tolerance): a signature stamped ahead of our clock would stay good for
  // as long as its stamp is ahead, so the future is bounded the same here.
  const signedAt = signedTimestamp(header);
  if (signedAt - Math.floor(now.getTime() / 1000) > STRIPE_TOLERANCE_SECONDS) {
    throw new Error(`The Stripe-Signature is timestamped ${signedAt - Math.floor(now.getTime() / 1000)} s ahead of our clock (tolerance ${STRIPE_TOLERANCE_SECONDS} s).`);
  }
  return event;
}

/** The header's t= as the SDK reads it (the last one given): the timestamp the checked signature covers. */
function signedTimestamp(header: string): number {
  let t = Number.NaN;
  for (const part of header.split(",")) {
    const [key, value] = part.split("=");
    if (key === "t") t = Number.parseInt(value, 10);
  }
  return t;
}

/** Stripe's header for a body, as Stripe makes it: for the sandbox's deliveries and the tests. */
export function stripeSignature(body: string, secret: string, now: Date): string {
  return stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: Math.floor(now.getTime() / 1000) });
}

export function gocardlessSignature(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

export function verifyGoCardless(body: string, header: string | undefined, secret: string): void {
  if (!header) throw new Error("No Webhook-Signature header.");
  const expected = Buffer.from(gocardlessSignature(body, secret), "hex");
  const given = Buffer.from(header, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error("The Webhook-Signature does not match the body.");
}
