import { randomBytes } from "node:crypto";
import type { Config } from "../core/config";

export const API_DOCS_PAGE = "/api/docs";

/** A fresh nonce for one response's inline scripts (Remix's hydration data and route modules). */
export const cspNonce = () => randomBytes(16).toString("base64");

/** The providers' hosted pages a sign-up form may redirect to (Stripe Checkout, GoCardless, Akahu's consent). */
const PROVIDER_PAGES = [
  "https://checkout.stripe.com",
  "https://pay.gocardless.com",
  "https://pay-sandbox.gocardless.com",
  "https://oauth.akahu.nz",
  // Gyms connecting their own accounts (issue 15).
  "https://connect.stripe.com",
  "https://connect.gocardless.com",
  "https://connect-sandbox.gocardless.com",
];

/**
 * The headers every response carries. The Content-Security-Policy allows scripts only from our origin or
 * with this request's nonce (no inline handlers, no eval), styles only from our stylesheet or the
 * sign-up pages' nonce'd copy of it (no style attributes: the pages use classes only; styles set from scripts are
 * not affected), workers from blob:
 * URLs (canvas-confetti draws in one), images from blob: URLs too (a photo's preview before it is sent), and form
 * posts only to our own hosts — the back-office hands a session over to the sign-up app with a form post. Ports are
 * left open (`:*`): behind a proxy the server does not know the public one. HSTS only on a real deployment: a demo
 * may run over plain http.
 */
export function securityHeaders(
  config: Pick<Config, "NODE_ENV" | "DEMO_MODE" | "BACKOFFICE_HOSTS" | "SIGNUP_HOSTS"> & { PUBLIC_SENTRY_DSN?: string },
  nonce: string,
  path = "",
) {
  const ourHosts = [...config.BACKOFFICE_HOSTS, ...config.SIGNUP_HOSTS].map((host) => `${host}:*`);
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // The sign-up pages carry the stylesheet inline, under this response's nonce (app/components/stylesheet.tsx).
    `style-src 'self' 'nonce-${nonce}'`,
    // A photo chosen on the photo pages is previewed before it is sent from a blob: URL (URL.createObjectURL: the
    // file stays in the browser); no data: and no other site's images.
    // The API reference (/api/docs, issue 33) is Swagger UI, whose stylesheet draws its icons as data: SVGs; that page
    // shows no one's content, only the API's own description.
    path === API_DOCS_PAGE ? "img-src 'self' blob: data:" : "img-src 'self' blob:",
    // The back-office's error reports go to Sentry's ingest host (issue 19), when there is one.
    ...(config.PUBLIC_SENTRY_DSN ? [`connect-src 'self' ${new URL(config.PUBLIC_SENTRY_DSN).origin}`] : []),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    // A form post may be answered with a redirect to a provider's hosted page (card, direct debit, bank consent):
    // browsers hold the redirect to form-action too.
    `form-action 'self' ${ourHosts.join(" ")} ${PROVIDER_PAGES.join(" ")}`,
  ].join("; ");
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
  };
  if (config.NODE_ENV === "production" && !config.DEMO_MODE) headers["Strict-Transport-Security"] = "max-age=31536000";
  return headers;
}
