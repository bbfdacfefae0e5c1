import { fromOwnOrigin } from "../../server/api/middleware";
import { appFor } from "./host.server";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Form posts to pages are accepted only from this origin (Origin / Sec-Fetch-Site). The gym API checks
 * its own requests; the public register form on the sign-up host may be posted from integrators' sites,
 * guarded by its honeypot and rate limit instead. Runs in the HTTP server before Remix sees the request.
 */
export function crossSitePostRefused(request: Request): boolean {
  if (!STATE_CHANGING.has(request.method)) return false;
  const { pathname } = new URL(request.url);
  if (pathname.startsWith("/api/")) return false;
  if (appFor(request) === "signup" && (pathname === "/" || pathname === "/_root.data")) return false;
  return !fromOwnOrigin(request);
}
