import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import { matchRoutes } from "@remix-run/react";
import { noteRequest, requestIdFrom, runInRequest, type RequestContext } from "./context";
import { log } from "./log";
import { startRequestSpan } from "./report";

type RouteObject = Parameters<typeof matchRoutes>[0][number];
type BuildRoutes = Record<string, { id: string; parentId?: string; path?: string; index?: boolean }>;

/**
 * A page's route pattern (/members/:id) from the build's route tree, for logs and traces: the pattern, never the
 * path itself (which may hold ids and tokens) and never the query string.
 */
export function pagePatterns(routes: BuildRoutes): (pathname: string) => string | undefined {
  const children = (parentId: string | undefined): RouteObject[] =>
    Object.values(routes)
      .filter((r) => r.parentId === parentId)
      .map((r) => (r.index ? { id: r.id, index: true as const, path: r.path } : { id: r.id, path: r.path, children: children(r.id) }));
  const tree = children(undefined);
  const match = (pathname: string) => {
    const matches = matchRoutes(tree, pathname);
    if (!matches) return "";
    const parts = matches.map((m) => m.route.path).filter((p): p is string => Boolean(p));
    return `/${parts.join("/")}`.replace(/\/+/g, "/");
  };
  // matchRoutes flattens, ranks and compiles all ~90 routes on every call (0.4 ms a request, as much as Remix's own
  // match): patterns are remembered by the path's shape, its ids written as one stand-in, so /members/12 and
  // /members/13 share one. A stand-in matches wherever the id did, as no route has an all-digit segment of its own.
  const known = new LRUCache<string, string>({ max: 2000 });
  return (pathname) => {
    const shape = pathname.replace(ID_SEGMENT, "/0");
    let pattern = known.get(shape);
    if (pattern === undefined) known.set(shape, (pattern = match(shape)));
    return pattern || undefined;
  };
}
/** A path segment that is an id: digits, or a uuid. */
const ID_SEGMENT = /\/(?:\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?=\/|$)/gi;

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
