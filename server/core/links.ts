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
