import Stripe from "stripe";
import { ProviderError } from "../errors";
import type { ConnectProvider } from "./connect-provider";

/**
 * Stripe Connect's OAuth (Standard accounts): the admin signs in to or creates their Stripe account on Stripe's page,
 * and the code becomes the account's id (stripe_user_id). The platform's own secret key makes the exchange.
 */
export function stripeConnect(settings: { secretKey: string; clientId: string; host?: string; port?: number; protocol?: "http" | "https" }): ConnectProvider {
  const stripe = new Stripe(settings.secretKey, { host: settings.host, port: settings.port, protocol: settings.protocol, maxNetworkRetries: 2, timeout: 20_000 });
  return {
    service: "stripe",
    mode: "live",
    async authorizeUrl({ state, redirectUri, email }) {
      return stripe.oauth.authorizeUrl({ response_type: "code", client_id: settings.clientId, scope: "read_write", redirect_uri: redirectUri, state, stripe_user: { email } });
    },
    async exchange(code) {
      try {
        const token = await stripe.oauth.token({ grant_type: "authorization_code", code });
        if (!token.stripe_user_id) throw new ProviderError("Stripe did not name the connected account.", false);
        return { accountId: token.stripe_user_id };
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        const retryable = !(err instanceof Stripe.errors.StripeError) || err.type === "StripeConnectionError" || (err.statusCode ?? 0) >= 500;
        throw new ProviderError(`Stripe refused the connection: ${err instanceof Error ? err.message : "unknown error"}`, retryable);
      }
    },
  };
}

/**
 * GoCardless's OAuth for partners: the admin approves on GoCardless's page, and the code becomes an access token for
 * the gym's GoCardless organisation (and its id). gocardless-nodejs covers the API, not this flow, so it is two
 * documented HTTPS calls: the authorise address and the token exchange.
 */
export function gocardlessConnect(settings: { clientId: string; clientSecret: string; environment: "live" | "sandbox"; baseUrl?: string }): ConnectProvider {
  const base = settings.baseUrl ?? (settings.environment === "live" ? "https://connect.gocardless.com" : "https://connect-sandbox.gocardless.com");
  return {
    service: "gocardless",
    mode: "live",
    async authorizeUrl({ state, redirectUri, email }) {
      const q = new URLSearchParams({ response_type: "code", client_id: settings.clientId, scope: "read_write", redirect_uri: redirectUri, state, "prefill[email]": email });
      return `${base}/oauth/authorize?${q}`;
    },
    async exchange(code, redirectUri) {
      let res: Response;
      try {
        res = await fetch(`${base}/oauth/access_token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
          body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: settings.clientId, client_secret: settings.clientSecret }),
          signal: AbortSignal.timeout(20_000),
        });
      } catch (err) {
        throw new ProviderError(`GoCardless could not be reached: ${err instanceof Error ? err.message : "network error"}`, true);
      }
      const body = (await res.json().catch(() => ({}))) as { access_token?: string; organisation_id?: string; error?: string; error_description?: string };
      if (!res.ok || !body.access_token || !body.organisation_id) {
        throw new ProviderError(`GoCardless refused the connection: ${body.error_description ?? body.error ?? `HTTP ${res.status}`}`, res.status >= 500);
      }
      return { accountId: body.organisation_id, accessToken: body.access_token, environment: settings.environment };
    },
  };
}
