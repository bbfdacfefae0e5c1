import { useEffect, useState } from "react";

/** Severities of SPEC §4. */
export type ToastSeverity = "info" | "success" | "warn" | "error" | "secondary" | "contrast";

/**
 * How long a toast stays, in milliseconds: one of a few lives the stylesheet knows (tailwind.css), because
 * the Content-Security-Policy refuses style attributes, so a life cannot be written into the element.
 */
export type ToastLife = 5000 | 10_000;
export const toastLife = (ms: number | undefined): ToastLife | undefined => (ms === undefined ? undefined : ms > 5000 ? 10_000 : 5000);

export interface ToastData {
  id: string;
  severity: ToastSeverity;
  summary: string;
  detail?: string;
  /** Milliseconds until it closes by itself; none means it stays. */
  life?: ToastLife;
  /** Closable unless flagged otherwise. */
  closable?: boolean;
}

const STYLES: Record<ToastSeverity, string> = {
  info: "border-sky-300 bg-sky-50 text-sky-900",
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
  warn: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
  secondary: "border-slate-300 bg-slate-100 text-slate-900",
  contrast: "border-slate-900 bg-slate-900 text-white",
};

/**
 * Top-right toasts, just below the back-office top bar so they never cover its switchers. The life timer is a CSS animation, so it runs, and pauses while hovered, without
 * JavaScript too; closing without JavaScript is a checkbox the close label ticks. With JavaScript a closed
 * or expired toast also leaves the DOM.
 */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const [toasts, setToasts] = useState<ToastData[]>(toast ? [toast] : []);
  useEffect(() => {
    if (toast) setToasts((list) => (list.some((t) => t.id === toast.id) ? list : [...list, toast]));
  }, [toast]);
  const remove = (id: string) => setToasts((list) => list.filter((t) => t.id !== id));

  return (
    <div aria-live="polite" className="pointer-events-none fixed right-4 top-16 z-50 flex w-[calc(100%-2rem)] max-w-sm flex-col gap-2">
      {toasts.map((t) => (
        <div key={t.id} className="toast-wrap">
          {t.closable !== false && (
            <input type="checkbox" id={`toast-${t.id}`} className="toast-dismiss sr-only" aria-label="Dismiss notification" onChange={() => remove(t.id)} />
          )}
          <div
            role={t.severity === "error" ? "alert" : "status"}
            data-severity={t.severity}
            className={`toast pointer-events-auto rounded-lg border p-4 shadow-lg ${STYLES[t.severity] ?? STYLES.info}`}
            data-life={t.life}
            onAnimationEnd={(e) => e.animationName === "toast-life" && remove(t.id)}
          >
            <div className="flex items-start gap-3">
              <div className="flex-1">
                <p className="font-semibold">{t.summary}</p>
                {t.detail ? <p className="mt-1 text-sm opacity-90">{t.detail}</p> : null}
              </div>
              {t.closable !== false && (
                <label htmlFor={`toast-${t.id}`} className="cursor-pointer rounded px-1 text-lg leading-none opacity-70 hover:opacity-100" title="Close">
                  <span aria-hidden="true">×</span>
                  <span className="sr-only">Close</span>
                </label>
              )}
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}
