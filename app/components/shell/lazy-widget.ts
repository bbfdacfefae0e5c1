import { startTransition, useCallback, useEffect, useState, type RefObject } from "react";

/**
 * Decision 0052 ("load a widget only where it is shown"): a Headless UI widget's module is imported on the first sign
 * that the person is about to use the plain control standing in for it — a pointer over it, a touch, focus — and
 * never by the route chain. The swap is a transition, so the plain control stays (no fallback flash) until the chunk
 * has arrived. A pointer or focus already on the control when the page hydrates counts too: those events came
 * before React listened.
 */
export function useWanted(plain: RefObject<HTMLElement>, load: () => Promise<unknown>) {
  const [wanted, setWanted] = useState(false);
  const want = useCallback(() => {
    void load();
    startTransition(() => setWanted(true));
  }, [load]);
  useEffect(() => {
    if (plain.current?.matches(":hover, :focus-within")) want();
  }, [plain, want]);
  /** The plain control's handlers that ask for the widget. */
  const triggers = { onPointerEnter: want, onTouchStart: want, onFocus: want };
  return { wanted, triggers };
}

/** What a plain text box hands to the widget's box replacing it: the text typed, and focus and caret if it had them. */
export interface BoxHandoff {
  value: string;
  focused: boolean;
  start: number | null;
  end: number | null;
}

/** Read while the plain box is still in the page (the widget's first render, before the swap is committed). */
export function readHandoff(box: HTMLInputElement | null | undefined): BoxHandoff | null {
  if (!box) return null;
  return { value: box.value, focused: document.activeElement === box, start: box.selectionStart, end: box.selectionEnd };
}

/** Put focus and caret back, in the widget's box, once it is in the page. */
export function applyHandoff(box: HTMLInputElement | null, handoff: BoxHandoff | null) {
  if (!box || !handoff?.focused) return;
  box.focus();
  const end = box.value.length;
  box.setSelectionRange(Math.min(handoff.start ?? end, end), Math.min(handoff.end ?? end, end));
}
