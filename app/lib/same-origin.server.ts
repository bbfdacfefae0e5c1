import { fromOwnOrigin } from "../../server/api/middleware";
import { appFor } from "./host.server";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Form posts to pages are accepted only from this origin (Origin / Sec-Fetch-Site). The gym API checks
 * its own requests; the public register form on the sign-up host may be posted from integrators' sites,
 * guarded by its honeypot and rate limit instead. Runs in the HTTP server before Remix sees the request.
 */
export type PostPolicy = "pass" | "refuse" | "open-form";

export function crossSitePolicy(request: Request): PostPolicy {
  if (!STATE_CHANGING.has(request.method)) return "pass";
  const { pathname } = new URL(request.url);
  if (pathname.startsWith("/api/")) return "pass";
  if (appFor(request) === "signup" && (pathname === "/" || pathname === "/_root.data")) {
    // Remix refuses (with a 500) any action whose Origin differs from Host; for this one public form the
    // server drops the Origin header instead, on purpose.
    return fromOwnOrigin(request) ? "pass" : "open-form";
  }
  return fromOwnOrigin(request) ? "pass" : "refuse";
}
