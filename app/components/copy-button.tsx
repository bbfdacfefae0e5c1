import { useEffect, useState } from "react";

/**
 * Copies text to the clipboard. It shows only once scripts run (the text beside it is plain and selectable
 * without them), and says when it worked.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setReady(typeof navigator !== "undefined" && Boolean(navigator.clipboard)), []);
  if (!ready) return null;
  return (
    <button
      type="button"
      aria-label={label}
      onClick={async () => {
        await navigator.clipboard.writeText(text);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
      className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium hover:bg-slate-50"
    >
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </button>
  );
}
