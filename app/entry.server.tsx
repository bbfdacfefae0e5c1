import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "./components/nonce";
import { InlineStylesContext } from "./components/stylesheet";
import { appFor } from "./lib/host.server";
import { stylesheetText } from "./lib/stylesheet.server";
import { deferScripts } from "./lib/defer-scripts.server";
import { reportError } from "../server/core/observability/report";
import { ApiRequestError } from "./lib/api.server";

export { boot } from "../server/runtime";
export { ConfigError } from "../server/core/config";
export { crossSitePolicy } from "./lib/same-origin.server";
export { hostGate } from "./lib/host-gate.server";
export { createRequestHandler } from "../server/http/remix-handler";
export { cspNonce, securityHeaders } from "../server/http/security-headers";
export { pagePatterns, requestObservability } from "../server/core/observability/http";
export { log } from "../server/core/observability/log";

/** A loader's or action's unexpected error (not a thrown Response): logged and reported with its request (issue 19). */
export function handleError(error: unknown, { request }: { request: Request }) {
  // An API call that failed on our side was reported by the API already.
  if (request.signal.aborted || (error instanceof ApiRequestError && error.status >= 500)) return;
  // Remix's own 4xx (a GET to a page that only takes posts: 405) is the client's mistake, not a failure.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  reportError("[remix] loader or action failed", error);
}

const ABORT_DELAY = 5_000;

/**
 * Every page is sent whole, in one write with a Content-Length. Nothing here is deferred (no Suspense), so
 * streaming would only split the same bytes into React's 2 KB chunks: a socket write each, the dashboard's
 * largest cost after rendering on a busy server. Crawlers and no-JS clients get the same whole document.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The HTTP server made this request's nonce and names it in the Content-Security-Policy it sends.
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // The sign-up host inlines the stylesheet (components/stylesheet.tsx); the back-office links it.
    const signup = appFor(request) === "signup";
    const css = signup ? stylesheetText() : "";
    const app = (
      <NonceContext.Provider value={nonce}>
        <InlineStylesContext.Provider value={css}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </InlineStylesContext.Provider>
      </NonceContext.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      onAllReady() {
        shellRendered = true;
        const body = new PassThrough();
        const chunks: Buffer[] = [];
        body.on("data", (chunk: Buffer) => chunks.push(chunk));
        body.on("error", reject);
        body.on("end", () => {
          clearTimeout(timer);
          // The sign-up host fetches its scripts after the first paint (lib/defer-scripts.server.ts, decision 0054).
          const html = signup ? Buffer.from(deferScripts(Buffer.concat(chunks).toString("utf8"), nonce)) : Buffer.concat(chunks);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.set("Content-Length", String(html.length));
          resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
        });
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) reportError("[remix] render failed", error);
      },
    });
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}
