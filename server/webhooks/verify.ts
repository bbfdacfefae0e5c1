import { createHmac, timingSafeEqual } from "node:crypto";
import Stripe from "stripe";
import type { Config } from "../config";

/**
 * Webhook signatures, as each provider specifies them (issue 11). A call whose signature fails is stored as
 * rejected and never processed.
 * - Stripe: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, within 300 s of now, checked by
 *   the official SDK (`webhooks.constructEventAsync`).
 * - GoCardless: `Webhook-Signature: <hex HMAC-SHA256 of the body>` with the endpoint's secret.
 */
export type WebhookProvider = "stripe" | "gocardless";
export const WEBHOOK_PROVIDERS: WebhookProvider[] = ["stripe", "gocardless"];

export const STRIPE_TOLERANCE_SECONDS = 300;

/**
 * The sandbox's signing secrets: what the offline providers sign with, and what we check against when no secret
 * is set. Published here, so only outside production (or in a demo): a live server without its secret refuses
 * every delivery rather than accept calls anyone could sign.
 */
export const SANDBOX_SECRETS: Record<WebhookProvider, string> = {
  stripe: "whsec_sandbox_gym_membership_0123456789",
  gocardless: "gocardless_sandbox_gym_membership_0123",
};

export interface SigningSecret {
  secret: string;
  source: "environment" | "sandbox";
}

export function signingSecret(config: Config, provider: WebhookProvider): SigningSecret | null {
  const set = provider === "stripe" ? config.STRIPE_WEBHOOK_SECRET : config.GOCARDLESS_WEBHOOK_SECRET;
  if (set) return { secret: set, source: "environment" };
  if (config.NODE_ENV !== "production" || config.DEMO_MODE) return { secret: SANDBOX_SECRETS[provider], source: "sandbox" };
  return null;
}

// Only its webhooks helper is used: it makes no request, so no real key is needed.
const stripe = new Stripe("sk_webhooks_only");

export async function verifyStripe(body: string, header: string | undefined, secret: string, now: Date): Promise<Stripe.Event> {
  if (!header) throw new Error("No Stripe-Signature header.");
  // The SDK reads the clock itself; our clock is passed so tests (and replays of old calls) are exact.
  const cryptoProvider = Stripe.createNodeCryptoProvider();
  return stripe.webhooks.constructEventAsync(body, header, secret, STRIPE_TOLERANCE_SECONDS, cryptoProvider, now.getTime());
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
