import * as Sentry from "@sentry/node";
import { currentRequest } from "./context";
import { logError } from "./log";
import { scrubEvent } from "./redact";

/**
 * Error reporting and tracing (issue 19) through Sentry's Node SDK: on with SENTRY_DSN, off without (errors are then
 * only logged). Traces are sampled at SENTRY_TRACES_SAMPLE_RATE, 0.5 by default (SPEC §9). Every event is scrubbed
 * before it leaves (./redact.ts): no cookies, headers, query strings or bodies; user and organisation by id only.
 */
let enabled = false;

export interface ReportingSettings {
  dsn?: string;
  environment: string;
  release?: string;
  tracesSampleRate: number;
  /** Where events go instead of Sentry's servers, with none of the SDK's instrumentation (tests). */
  transport?: Sentry.NodeOptions["transport"];
}

export { scrubEvent };

export function startErrorReporting(s: ReportingSettings): boolean {
  if (!s.dsn || enabled) return enabled;
  Sentry.init({
    dsn: s.dsn,
    environment: s.environment,
    release: s.release,
    tracesSampleRate: s.tracesSampleRate,
    // Traces as transactions, so beforeSendTransaction scrubs them: with the SDK's default span streaming that
    // callback is never called and spans would leave unscrubbed.
    traceLifecycle: "static",
    ...(s.transport ? { transport: s.transport, defaultIntegrations: false } : {}),
    beforeSend: (event) => scrubEvent(event),
    beforeSendTransaction: (event) => scrubEvent(event),
    beforeBreadcrumb: (b) => (b.category === "console" ? null : b),
  });
  enabled = true;
  return true;
}

/** An unhandled error in a loader, action, API call or job: logged, and reported with the request it broke. */
export function reportError(what: string, err: unknown, fields: { status?: number; job?: string; route?: string; method?: string } = {}) {
  const r = currentRequest();
  const route = fields.route ?? r?.route;
  logError(what, err, { ...fields, route, method: fields.method ?? r?.method, user_id: r?.user_id, organisation_id: r?.organisation_id });
  if (!enabled) return;
  Sentry.withScope((scope) => {
    if (r) {
      scope.setTag("request_id", r.id);
      scope.setTag("route", route ?? "unknown");
      scope.setTag("method", r.method);
      if (r.organisation_id) scope.setTag("organisation_id", String(r.organisation_id));
      if (r.user_id) scope.setUser({ id: String(r.user_id) });
    }
    if (fields.status) scope.setTag("status", String(fields.status));
    if (fields.job) scope.setTag("job", fields.job);
    scope.setTag("where", what);
    Sentry.captureException(err);
  });
}

/** A request's trace span (sampled): started when it arrives, ended with its status. */
export function startRequestSpan(method: string, route: () => string | undefined) {
  if (!enabled) return null;
  const span = Sentry.startInactiveSpan({ name: `${method} request`, op: "http.server", forceTransaction: true });
  return (status: number) => {
    span.updateName(`${method} ${route() ?? "unmatched"}`);
    span.setAttribute("http.response.status_code", status);
    span.setStatus({ code: status >= 500 ? 2 : 1 });
    span.end();
  };
}

/** Sends what is queued (at shutdown). */
export const flushReports = (ms = 2000) => (enabled ? Sentry.flush(ms) : Promise.resolve(true));
