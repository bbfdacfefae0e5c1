import type { NextFunction, Request, Response } from "express";
import { buildRouteMatcher, type BuildRoutes } from "../route-tree";
import { noteRequest, requestIdFrom, runInRequest, type RequestContext } from "./context";
import { log } from "./log";
import { startRequestSpan } from "./report";

/**
 * A page's route pattern (/members/:id) from the build's route tree, for logs and traces: the pattern, never the
 * path itself (which may hold ids and tokens) and never the query string.
 */
export function pagePatterns(routes: BuildRoutes): (pathname: string) => string | undefined {
  const match = buildRouteMatcher(routes);
  return (pathname) => {
    const matches = match(pathname);
    if (!matches) return undefined;
    const parts = matches.map((m) => m.path).filter((p): p is string => Boolean(p));
    return `/${parts.join("/")}`.replace(/\/+/g, "/");
  };
}

/**
 * The first thing every request meets (issue 19): an id (X-Request-Id, kept from a proxy in front or made here, sent
 * back), a context the API, loaders and error reports read it from, a sampled trace span, and one log line when the
 * answer has gone: id, method, route pattern, status, duration, and who (ids only).
 */
export function requestObservability(patternOf: (pathname: string) => string | undefined) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    // A page's pattern is known now; an API request's is noted by the API's router (server/api/app.ts).
    const page = req.path.startsWith("/api/") ? undefined : req.path.startsWith("/build/") ? "/build/*" : patternOf(req.path);
    const context: RequestContext = { id: requestIdFrom(req.get("x-request-id")), method: req.method, route: page };
    res.setHeader("X-Request-Id", context.id);
    const route = () => context.route;
    // Scripts, styles and the load balancer's health checks are neither traced nor logged: they would drown the rest.
    const quiet = req.path.startsWith("/build/") || req.path === "/healthz" || req.path === "/readyz";
    const endSpan = quiet ? null : startRequestSpan(req.method, route);
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      endSpan?.(res.statusCode);
      if (quiet) return;
      log.info({ method: req.method, route: route() ?? "unmatched", status: res.statusCode, ms: Math.round(ms * 10) / 10, user_id: context.user_id, organisation_id: context.organisation_id }, "request");
    });
    runInRequest(context, next);
  };
}

export { noteRequest };
