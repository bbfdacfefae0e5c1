import { useId, useSyncExternalStore } from "react";

/** Where the photo being sent has got: scaled in the browser first, then sent (with a percent), then kept by the server. */
export type UploadStep = { step: "preparing" } | { step: "sending"; percent: number } | { step: "saving" };

// One photo is sent at a time, by a client action (send-photo.ts) the page's components cannot hand props to.
let current: UploadStep | null = null;
const listeners = new Set<() => void>();

export function setUploadStep(next: UploadStep | null) {
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

const LABELS = { preparing: "Preparing the photo…", sending: "Sending the photo…", saving: "Saving the photo…" } as const;

/** The photo's progress while one is being sent, as a <progress> with the percent; nothing otherwise (and without JavaScript). */
export function UploadProgress({ className = "" }: { className?: string }) {
  const step = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  const labelId = useId();
  if (!step) return null;
  // Preparing has no measure yet: the bar moves without a value (indeterminate).
  const percent = step.step === "sending" ? step.percent : step.step === "saving" ? 100 : undefined;
  return (
    <div className={`space-y-1 ${className}`}>
      <div className="flex items-baseline justify-between gap-2 text-sm text-slate-700">
        <span id={labelId} role="status">
          {LABELS[step.step]}
        </span>
        {percent === undefined ? null : <span className="tabular-nums">{percent}%</span>}
      </div>
      <progress max={100} value={percent} aria-labelledby={labelId} className="block h-2 w-full accent-brand-600" />
    </div>
  );
}
