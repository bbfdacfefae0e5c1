import type { ReactElement } from "react";
import { renderMemoized } from "../lib/render-memo.server";

/**
 * A pure piece of a page, whose markup depends on `input` alone (no context, clock or locale of its own),
 * rendered on the server once per distinct input and reused: the dashboard's charts are a third of its
 * markup and most of its rendering, and their figures change a few times a minute at most.
 * In the browser it renders its children as usual, so hydration meets the same markup and a client-side
 * navigation draws them itself. `name` tells pieces apart (and prefixes their useId ids); `input` must be
 * JSON, everything the piece shows.
 */
export function ServerMemo({ name, input, className, children }: { name: string; input: unknown; className?: string; children: ReactElement }) {
  // On the server `document` is undefined and the .server module is there; in the browser it is not bundled.
  if (typeof document === "undefined") {
    return <div className={className} dangerouslySetInnerHTML={{ __html: renderMemoized(name, input, children) }} />;
  }
  return <div className={className}>{children}</div>;
}
