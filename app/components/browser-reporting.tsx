import { useEffect } from "react";

export interface BrowserReporting {
  dsn: string;
  environment: string;
  tracesSampleRate: number;
}

let started = false;

/**
 * Loads Sentry's browser SDK once the page is interactive and idle (its own chunk, fetched only when a DSN is set),
 * so it never competes with the page's own script. Events carry no query strings, cookies or user details.
 */
export function useBrowserReporting(settings: BrowserReporting | null | undefined) {
  useEffect(() => {
    if (!settings || started) return;
    started = true;
    const load = () =>
      import("@sentry/browser").then((Sentry) =>
        Sentry.init({
          dsn: settings.dsn,
          environment: settings.environment,
          tracesSampleRate: settings.tracesSampleRate,
          integrations: [Sentry.browserTracingIntegration()],
          beforeSend(event) {
            if (event.request) event.request = { url: event.request.url?.split("?")[0] };
            delete event.user;
            return event;
          },
          beforeBreadcrumb: (b) => (b.category === "console" || b.category === "ui.input" ? null : b),
        }),
      );
    const idle = (window as Window & { requestIdleCallback?: (cb: () => void) => number }).requestIdleCallback;
    if (idle) idle(() => void load());
    else setTimeout(() => void load(), 1000);
  }, [settings]);
}
