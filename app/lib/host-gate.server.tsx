import type { NextFunction, Request, Response } from "express";
import { renderToStaticMarkup } from "react-dom/server";
import { NotFoundDocument } from "../components/not-found-page";
import { stylesheetHref } from "../components/stylesheet";
import { buildRouteMatcher, type BuildRoutes } from "../../server/core/route-tree";
import { appKindOfHost, type AppKind } from "./host.server";

/**
 * The host split in one place (issue 30). Each route file sits in the folder of the app it belongs to
 * (remix.config.js): app/routes/backoffice/, app/routes/signup/, or app/routes/shared/ for the few both hosts
 * serve (the start page, sign-out, the API, the providers' sandbox pages). A route's group is the folder in its id.
 */
export type RouteGroup = AppKind | "shared";

export function routeGroup(routeId: string): RouteGroup | null {
  const group = /^routes\/(backoffice|signup|shared)\//.exec(routeId)?.[1];
  return (group as RouteGroup | undefined) ?? null;
}

/** The page path a request is for: a data request (/members.data, /_root.data) names the page it loads for. */
export function pagePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

/**
 * May this host's app serve this path? The deepest route the path matches decides: a route of the app the host
 * serves, or a shared one. An unknown host is served nothing (but the API and Remix's own route discovery, which
 * answer for themselves).
 */
export function hostAllows(match: ReturnType<typeof buildRouteMatcher>, app: AppKind | null, pathname: string): boolean {
  if (pathname.startsWith("/api/") || pathname === "/__manifest") return true;
  if (!app) return false;
  const leaf = match(pagePathOf(pathname))?.at(-1);
  const group = leaf ? routeGroup(leaf.id) : null;
  return group === "shared" || group === app;
}

/**
 * Addresses a person may type on the other app's host, sent to that host's page for the same thing: members who
 * try the sign-up host's /login get its member sign-in (issue 31).
 */
const SAME_THING_HERE: Record<AppKind, Record<string, string>> = { signup: { "/login": "/sign-in" }, backoffice: {} };

/**
 * The one check, run by the HTTP server for every request before Remix runs any loader or action: a route of the
 * other app, or any page on an unknown host, answers 404. A page gets the bare "Page not found" document (no
 * scripts: nothing to hydrate), a data request a plain 404. The host's app is handed on to the root loader.
 */
export function hostGate(routes: BuildRoutes) {
  const match = buildRouteMatcher(routes);
  const document = `<!DOCTYPE html>${renderToStaticMarkup(<NotFoundDocument stylesheet={stylesheetHref} />)}`;
  return (req: Request, res: Response, next: NextFunction) => {
    const app = appKindOfHost(req.hostname);
    const here = app && (req.method === "GET" || req.method === "HEAD") ? SAME_THING_HERE[app][req.path] : undefined;
    if (here) return res.redirect(302, here + req.originalUrl.slice(req.path.length));
    if (hostAllows(match, app, req.path)) {
      res.locals.app = app;
      return next();
    }
    res.status(404).set("Cache-Control", "no-store");
    if (req.path.endsWith(".data")) res.type("text/plain").send("Not found");
    else res.type("html").send(document);
  };
}
