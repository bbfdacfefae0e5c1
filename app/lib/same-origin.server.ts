import { fromOwnOrigin } from "../../server/core/middleware";
import { config } from "../../server/core/config";
import { appFor } from "./host.server";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Form posts to pages are accepted only from this origin (Origin / Sec-Fetch-Site), with two exceptions, both
 * decided here: the public register form on the sign-up host, which integrators may post from their own sites
 * (guarded by its honeypot and rate limit instead), and the sign-up host's /session-handoff, which accepts the
 * back-office's handoff form from a back-office origin only. The gym API checks its own requests. Runs in the
 * HTTP server before Remix sees the request.
 *
 * "pass-cross-origin": accepted from another origin on purpose. Remix refuses (with a 500) any action whose
 * Origin differs from Host, so for these the server drops the Origin header once it has been checked here.
 */
export type PostPolicy = "pass" | "refuse" | "pass-cross-origin";

export function crossSitePolicy(request: Request): PostPolicy {
  if (!STATE_CHANGING.has(request.method)) return "pass";
  const { pathname } = new URL(request.url);
  if (pathname.startsWith("/api/")) return "pass";
  if (appFor(request) === "signup" && (pathname === "/" || pathname === "/_root.data")) {
    return fromOwnOrigin(request) ? "pass" : "pass-cross-origin";
  }
  if (appFor(request) === "signup" && pathname === "/session-handoff") {
    // Signs the browser in: from anywhere else it would be login CSRF (a victim signed into someone else's account).
    return fromBackOffice(request) ? "pass-cross-origin" : "refuse";
  }
  return fromOwnOrigin(request) ? "pass" : "refuse";
}

/** Origin is one of our back-office hosts, on this request's port (as originOf in host.server.ts links them). */
function fromBackOffice(request: Request) {
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  try {
    const from = new URL(origin);
    return config().BACKOFFICE_HOSTS.includes(from.hostname.toLowerCase()) && from.port === new URL(request.url).port;
  } catch {
    return false;
  }
}
