import { config } from "../../server/core/config";

/**
 * The browser's error reporting settings (issue 19; decision 0033): back-office pages only, and only with
 * PUBLIC_SENTRY_DSN. The sign-up pages never load it: members on slow phones keep their small script budget.
 */
export function browserReporting(app: "backoffice" | "signup") {
  const c = config();
  if (app !== "backoffice" || !c.PUBLIC_SENTRY_DSN) return null;
  return { dsn: c.PUBLIC_SENTRY_DSN, environment: c.SENTRY_ENVIRONMENT ?? c.NODE_ENV, tracesSampleRate: c.SENTRY_TRACES_SAMPLE_RATE };
}
