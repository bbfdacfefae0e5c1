import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

/**
 * Remix's browser entry, but hydration starts only once the page's data (single fetch's stream) is decoded.
 * RemixBrowser suspends at the root until it is, and in React 18 a click or keystroke arriving while the root's
 * hydration is suspended makes React try to finish it at once, which it cannot: it throws its error #345 ("Root did
 * not complete") and the page stays without its scripts. A person typing while the scripts arrive hits exactly that
 * (on the sign-up pages, whose scripts come after the first paint, about 1 load in 25 in tests). Decisions 0036, 0054.
 */
function dataDecoded(): Promise<unknown> {
  try {
    // The first call starts the decoding and throws the promise it suspends on, before any hook runs.
    RemixBrowser({});
  } catch (thrown) {
    if (thrown && typeof (thrown as PromiseLike<unknown>).then === "function") return Promise.resolve(thrown).catch(() => undefined);
  }
  return Promise.resolve();
}

void dataDecoded().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  }),
);
