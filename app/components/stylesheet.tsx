import { createContext, useContext } from "react";
import styles from "../tailwind.css";

/**
 * The stylesheet's text, given by the server (entry.server.tsx) to pages it inlines it into; empty in the browser,
 * which never needs it: the page it hydrates already carries the <style> (React leaves an element's inner HTML as
 * the server wrote it when hydrating).
 */
export const InlineStylesContext = createContext("");

/**
 * The app's one stylesheet. The sign-up host inlines it (about 7 KB gzipped): its people are mostly first-time
 * visitors on phones, for whom a render-blocking stylesheet request is a whole round trip on a slow network before
 * anything shows (issue 13's LCP budget). The back-office links it, cached across the many pages staff open.
 */
export function Stylesheet({ inline, nonce }: { inline: boolean; nonce: string }) {
  const css = useContext(InlineStylesContext);
  if (!inline) return <link rel="stylesheet" href={styles} />;
  return <style nonce={nonce || undefined} data-inline-stylesheet={styles} dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}

export const stylesheetHref = styles;
