import { useEffect, useState } from "react";

/** SPEC §9: unread messages are fetched on load, then every 60 s while the view is open. */
export const UNREAD_POLL_MS = 60_000;

export function useUnreadCount(initial: number, enabled: boolean) {
  const [count, setCount] = useState(initial);
  useEffect(() => setCount(initial), [initial]);
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    const load = async () => {
      try {
        const res = await fetch("/api/messaging/unread-messages", { headers: { "x-requested-with": "XMLHttpRequest" } });
        if (res.ok && !stopped) setCount(((await res.json()) as { unread_messages: number }).unread_messages);
      } catch {
        /* keep the last count; the next tick tries again */
      }
    };
    void load();
    const timer = setInterval(load, UNREAD_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [enabled]);
  return count;
}
