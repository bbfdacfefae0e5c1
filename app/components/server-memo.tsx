import type { ReactElement } from "react";
import { renderMemoized } from "../lib/render-memo.server";

/**
 * A pure piece of a page, drawn from `input` alone by `render`, rendered on the server once per distinct
 * input and reused: the dashboard's chart panes were a third of its markup and most of its rendering, and
 * their figures change a few times a minute at most. In the browser it renders as usual, so hydration meets
 * the same markup and a client-side navigation draws the piece itself.
 * - `name` tells pieces apart; `input` must be JSON, and everything the piece shows must come from it (the
 *   markup kept for one input is served to whoever has the same input, whatever their organisation).
 * - No React context, clock or locale of its own inside, and no useId: the server renders the piece apart
 *   from the page, so its ids would not be the browser's. Give elements ids from `name` or the input.
 */
export function ServerMemo<T>({ name, input, render, className }: { name: string; input: T; render: (input: T) => ReactElement; className?: string }) {
  // On the server `document` is undefined and the .server module is there; in the browser it is not bundled.
  if (typeof document === "undefined") {
    return <div className={className} dangerouslySetInnerHTML={{ __html: renderMemoized(name, input, render) }} />;
  }
  return <div className={className}>{render(input)}</div>;
}
