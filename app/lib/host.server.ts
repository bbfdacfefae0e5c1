import { config } from "../../server/core/config";

/** Which app a request gets is decided by its host name (BACKOFFICE_HOSTS / SIGNUP_HOSTS). */
export type AppKind = "backoffice" | "signup";

export function appKindOfHost(hostname: string): AppKind | null {
  const host = hostname.toLowerCase();
  const cfg = config();
  if (cfg.BACKOFFICE_HOSTS.includes(host)) return "backoffice";
  if (cfg.SIGNUP_HOSTS.includes(host)) return "signup";
  return null;
}

/**
 * The app of this request's host. Which routes a host may reach is decided once, before any loader runs
 * (lib/host-gate.server.tsx); this is for the few places that behave differently per host (the start page, sign-out).
 */
export function appFor(request: Request): AppKind | null {
  return appKindOfHost(new URL(request.url).hostname);
}

/** The origin of the other app, on the same scheme and port as this request. */
export function originOf(request: Request, kind: AppKind) {
  const url = new URL(request.url);
  if (appFor(request) === kind) return url.origin;
  const host = (kind === "signup" ? config().SIGNUP_HOSTS : config().BACKOFFICE_HOSTS)[0];
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}`;
}
