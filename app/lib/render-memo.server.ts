import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";

/**
 * Markup of pure page pieces, kept per distinct input (see app/components/server-memo.tsx).
 * A least-recently-used map: a hit moves to the back, a miss past the limit drops the oldest. 500 entries
 * of a few KB each: a handful of dashboards per gym and organisation, each pane with its own figures.
 */
const MAX_ENTRIES = 500;
const cache = new Map<string, string>();

export function renderMemoized(name: string, input: unknown, element: ReactElement): string {
  const key = `${name}\u0000${JSON.stringify(input)}`;
  let html = cache.get(key);
  if (html === undefined) {
    // React supports a synchronous render inside another one (react-dom's performWork restores the outer
    // render's dispatcher and context); the pieces kept here use no context from the page around them.
    html = renderToString(element, { identifierPrefix: `${name}-` });
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  } else {
    cache.delete(key);
  }
  cache.set(key, html);
  return html;
}

/** Entries kept now (for tests). */
export const renderMemoSize = () => cache.size;
