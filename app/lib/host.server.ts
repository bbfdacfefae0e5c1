import { data } from "@remix-run/node";
import { config } from "../../server/core/config";

/** Which app a request gets is decided by its host name (BACKOFFICE_HOSTS / SIGNUP_HOSTS). */
export type AppKind = "backoffice" | "signup";

export function appFor(request: Request): AppKind | null {
  const host = new URL(request.url).hostname.toLowerCase();
  const cfg = config();
  if (cfg.BACKOFFICE_HOSTS.includes(host)) return "backoffice";
  if (cfg.SIGNUP_HOSTS.includes(host)) return "signup";
  return null;
}

/** A route of the other app (or an unknown host) answers 404. */
export function requireApp(request: Request, ...kinds: AppKind[]): AppKind {
  const kind = appFor(request);
  if (!kind || !kinds.includes(kind)) throw data({ message: "Not found" }, { status: 404 });
  return kind;
}

/** The origin of the other app, on the same scheme and port as this request. */
export function originOf(request: Request, kind: AppKind) {
  const url = new URL(request.url);
  if (appFor(request) === kind) return url.origin;
  const host = (kind === "signup" ? config().SIGNUP_HOSTS : config().BACKOFFICE_HOSTS)[0];
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}`;
}
