import pino from "pino";
import { currentRequest } from "./context";
import { REDACTED, safeError } from "./redact";

/**
 * Structured JSON logs (issue 19), one object a line on standard output, with the request's id on every line written
 * while serving it. LOG_LEVEL sets the level (info by default; silent in tests). Errors go through safeError: a
 * failed query keeps its SQL and loses its parameters, so no member's details reach the logs.
 */
export const log = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" || process.env.VITEST ? "silent" : "info"),
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  messageKey: "msg",
  mixin: () => {
    const r = currentRequest();
    return r ? { req_id: r.id } : {};
  },
  // Not "*.code": an error's `code` is the database's (23505, 40001), which a person needs to find the fault.
  redact: { paths: ["password", "*.password", "token", "*.token", "code", "body.code", "query.code", "headers.cookie", "headers.authorization", "email", "*.email"], censor: REDACTED },
});

/** An error worth a person's attention, with what it was doing (`what`, e.g. "[jobs] billing-run"). */
export function logError(what: string, err: unknown, fields: Record<string, unknown> = {}) {
  log.error({ ...fields, err: safeError(err) }, what);
}

/** A failure the process carries on past (a push not sent, a door not updated), with what it was doing. */
export function logWarning(what: string, err: unknown, fields: Record<string, unknown> = {}) {
  log.warn({ ...fields, err: safeError(err) }, what);
}
