import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { routePath } from "hono/route";
import { noteRequest } from "../core/observability/context";
import { reportError } from "../core/observability/report";
import { ApiError } from "../core/errors";

/**
 * The API's answer to an error: an ApiError as its own status and `{ message, errors }`; anything else a 500 that says
 * nothing of the cause, reported with its request (server/core/observability/report.ts). Apart from ../core/errors.ts so the
 * error classes stay free of the reporting SDK (pages' browser bundles reach them through shared modules).
 */
export function onError(err: Error, c: Context) {
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
    return c.json({ message: err.message, error: err.error, errors: err.errors }, err.status);
  }
  if (err instanceof HTTPException) {
    return c.json({ message: err.message || "Bad request.", error: "bad_request" }, err.status);
  }
  noteRequest({ route: routePath(c, -1) });
  reportError("[api] unhandled error", err, { status: 500, route: routePath(c, -1), method: c.req.method });
  return c.json({ message: "Something went wrong on our side. Please try again.", error: "server_error" }, 500);
}
