import { useEffect } from "react";

/**
 * A burst of confetti on the welcome page (SPEC §1), once JavaScript runs: the library is loaded only here, after the
 * page is up, and not at all for a person who prefers reduced motion.
 */
export function Confetti() {
  useEffect(() => {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    let cancelled = false;
    void import("canvas-confetti").then(({ default: confetti }) => {
      if (!cancelled) void confetti({ particleCount: 120, spread: 75, origin: { y: 0.35 }, disableForReducedMotion: true });
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return null;
}
