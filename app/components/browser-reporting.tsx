import { useEffect } from "react";

export interface BrowserReporting {
  dsn: string;
  environment: string;
  tracesSampleRate: number;
}

type SentryBrowser = typeof import("@sentry/browser");
let started = false;
let sdk: SentryBrowser | null = null;
/** Errors caught before the SDK arrived (a few at most), sent once it has. */
const early: unknown[] = [];

/**
 * Loads Sentry's browser SDK once the page is interactive and idle (its own chunk, fetched only when a DSN is set),
 * so it never competes with the page's own script. Events are scrubbed as the server's are
 * (server/core/observability/redact.ts): no query strings, cookies, user details or personal-looking text.
 */
export function useBrowserReporting(settings: BrowserReporting | null | undefined) {
  useEffect(() => {
    if (!settings || started) return;
    started = true;
    const load = () =>
      Promise.all([import("@sentry/browser"), import("../../server/core/observability/redact")]).then(([Sentry, { scrubEvent }]) => {
        Sentry.init({
          dsn: settings.dsn,
          environment: settings.environment,
          tracesSampleRate: settings.tracesSampleRate,
          integrations: [Sentry.browserTracingIntegration()],
          beforeSend(event) {
            const clean = scrubEvent(event);
            delete clean.user;
            return clean;
          },
          beforeSendTransaction: (event) => scrubEvent(event),
          beforeBreadcrumb: (b) => (b.category === "console" || b.category === "ui.input" ? null : b),
        });
        sdk = Sentry;
        for (const error of early.splice(0)) Sentry.captureException(error);
      });
    const idle = (window as Window & { requestIdleCallback?: (cb: () => void) => number }).requestIdleCallback;
    if (idle) idle(() => void load());
    else setTimeout(() => void load(), 1000);
  }, [settings]);
}

/**
 * An error a page's error boundary caught in the browser (a render or a client-side failure), reported where
 * reporting is on (back-office pages with PUBLIC_SENTRY_DSN); a no-op elsewhere. Errors from loaders and actions are
 * the server's to report: in production they reach the browser as Remix's "Unexpected Server Error", skipped here.
 */
export function reportBrowserError(error: unknown) {
  if (!started || (error instanceof Error && error.message === "Unexpected Server Error")) return;
  if (sdk) sdk.captureException(error);
  else if (early.length < 5) early.push(error);
}
