import type { Context } from "hono";
import type { ApiEnv } from "./context";

/**
 * The origin for links in e-mails. Only a configured host is trusted from the request, so a forged
 * Host header cannot point a reset link at someone else's site.
 */
export function publicOrigin(c: Context<ApiEnv>, app: "backoffice" | "signup" = "backoffice") {
  const { config } = c.var.deps;
  const url = new URL(c.req.url);
  const hosts = app === "signup" ? config.SIGNUP_HOSTS : config.BACKOFFICE_HOSTS;
  if (hosts.includes(url.hostname)) return url.origin;
  const proto = config.NODE_ENV === "production" && !config.DEMO_MODE ? "https" : "http";
  const port = proto === "http" && config.PORT !== 80 ? `:${config.PORT}` : "";
  return `${proto}://${hosts[0]}${port}`;
}

export function isSignupHost(c: Context<ApiEnv>) {
  return c.var.deps.config.SIGNUP_HOSTS.includes(new URL(c.req.url).hostname);
}

/**
 * Join links (issue 32): the sign-up host's address for a gym (`/?gym=uuid`), with a price (`&price=id`) or a private
 * link's token (`&link=`). The one place these addresses are made, for the gym's page, the offering's page and the
 * private links.
 */
export function signupAddress(base: string, gymUuid: string, extra: { price?: number; link?: string } = {}) {
  const url = new URL(base);
  url.searchParams.set("gym", gymUuid);
  if (extra.price !== undefined) url.searchParams.set("price", String(extra.price));
  if (extra.link !== undefined) url.searchParams.set("link", extra.link);
  return url.toString();
}
