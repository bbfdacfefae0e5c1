import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";

/**
 * Markup of pure page pieces, kept per distinct input (see app/components/server-memo.tsx).
 * A least-recently-used map: a hit moves to the back, a miss past the limit drops the oldest. 500 entries
 * of a few KB each: a handful of dashboards per gym and organisation, each pane with its own figures.
 */
const MAX_ENTRIES = 500;
const cache = new Map<string, string>();

export function renderMemoized<T>(name: string, input: T, render: (input: T) => ReactElement): string {
  const key = `${name}\u0000${JSON.stringify(input)}`;
  let html = cache.get(key);
  if (html === undefined) {
    // Called while the page itself renders (renderToPipeableStream): renderToString is react-dom's other
    // server bundle (react-dom-server-legacy) with state of its own, and restores the shared dispatcher when
    // done; tests/unit/render-memo.test.ts renders a piece inside a streaming render to keep that true.
    html = renderToString(render(input), { identifierPrefix: `${name}-` });
    if (process.env.NODE_ENV !== "production" && html.includes(`:${name}-R`)) {
      throw new Error(`${name}: a memoised piece used useId; its ids would differ from the browser's. Give it ids of its own.`);
    }
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  } else {
    cache.delete(key);
  }
  cache.set(key, html);
  return html;
}

/** Entries kept now (for tests). */
export const renderMemoSize = () => cache.size;
