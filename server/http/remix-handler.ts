import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import { createRequestHandler as createRemixRequestHandler, writeReadableStreamToWritable } from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { BodyTooLarge, bodyLimitFor, declaredTooLarge, limitedBody } from "./body-limits";

interface Options {
  build: ServerBuild;
  mode: "production" | "development";
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}

/**
 * Express → Remix, as @remix-run/express does (its 2.17 code, followed closely), except that the request
 * body is read through a size limit (server/http/body-limits.ts) and answers default to
 * `Cache-Control: private, no-store`. Our own adapter because @remix-run/express hands `req` itself to the
 * Request it builds: a limit in front of it would mean faking Express's request object.
 */
export function createRequestHandler({ build, mode, getLoadContext }: Options) {
  const handle = createRemixRequestHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const limit = bodyLimitFor(req.path);
      if (declaredTooLarge(req, limit)) return refuseTooLarge(req, res, limit);
      const controller = new AbortController();
      let refused = false;
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const body = hasBody
        ? limitedBody(req, limit, () => {
            refused = true;
            controller.abort(); // loaders and actions stop; Remix logs no error for an aborted request
            refuseTooLarge(req, res, limit);
          })
        : undefined;
      // Abort the loaders and actions once no answer can be written (the client went away).
      res.on("close", () => res.writableFinished || controller.abort());
      const request = new Request(requestUrl(req), {
        method: req.method,
        headers: requestHeaders(req),
        signal: controller.signal,
        ...(body ? { body, duplex: "half" } : {}),
      } as RequestInit);
      const response = await handle(request, getLoadContext(req, res));
      if (refused || res.headersSent) {
        await response.body?.cancel();
        return;
      }
      // Pages, their .data and the API speak of members: no shared or browser cache keeps them unless the
      // route says otherwise (a photo, the build's assets).
      if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "private, no-store");
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [name, value] of response.headers) res.append(name, value);
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (error) {
      next(error);
    }
  };
}

/** How long a refused client has to read our 413 before its connection is dropped. */
const LINGER_MS = 2_000;

/**
 * 413, then the connection is closed: the rest of the body is never read. Node closes a `Connection: close`
 * socket right after the answer, and closing with unread bytes waiting resets the connection, so a client
 * still sending could lose the 413. Instead we half-close (the answer, then FIN), read nothing more (the
 * client's sends stall once the window fills), and drop the socket a moment later.
 */
function refuseTooLarge(req: ExpressRequest, res: ExpressResponse, limit: number) {
  if (res.headersSent) return;
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.pause();
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  res.status(413).set({ Connection: "close", "Cache-Control": "no-store" });
  if (req.path.startsWith("/api/")) {
    const { message, error } = new BodyTooLarge(limit);
    res.json({ message, error });
  } else {
    res.type("html").send(tooLargePage(req, limit));
  }
}

/**
 * The page a browser shows when a form (a photo without JavaScript) sends too much: the limit, and a way back
 * to the page the form was on (same origin only), as the rest of the body is never read.
 */
function tooLargePage(req: ExpressRequest, limit: number): string {
  const size = limit >= 1024 * 1024 ? `${Math.round(limit / (1024 * 1024))} MB` : `${Math.round(limit / 1024)} KB`;
  let back = "/";
  try {
    const referer = new URL(req.get("referer") ?? "");
    if (referer.host === req.get("host")) back = referer.pathname + referer.search;
  } catch {
    // No or malformed Referer: back to the start page.
  }
  const href = back.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Too large</title>
<h1>Too large</h1><p>This form accepts up to ${size}, and what you sent is larger. Nothing was saved.</p>
<p>Choose a smaller file (a phone photo resized, or saved as JPEG) and try again.</p><p><a href="${href}">Go back</a></p></html>`;
}

/**
 * The URL the client asked for, host and port as @remix-run/express works them out, except that the port, like the
 * host (req.hostname), comes from X-Forwarded-Host only when the proxy is trusted (TRUST_PROXY, "trust proxy"):
 * otherwise anyone could send the header and move the port of the links we mail (issue 29 L7).
 */
export function requestUrl(req: ExpressRequest): string {
  const port = (value: string | undefined) => {
    const n = Number.parseInt(value?.split(",")[0]?.trim().split(":")[1] ?? "", 10);
    return Number.isSafeInteger(n) ? n : undefined;
  };
  const trusted = (req.app.get("trust proxy fn") as (addr: string | undefined, i: number) => boolean)(req.socket.remoteAddress, 0);
  const p = (trusted ? port(req.get("X-Forwarded-Host")) : undefined) ?? port(req.get("host"));
  return new URL(`${req.protocol}://${req.hostname}${p ? `:${p}` : ""}${req.originalUrl}`).href;
}

function requestHeaders(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value) headers.set(name, value);
  }
  return headers;
}
