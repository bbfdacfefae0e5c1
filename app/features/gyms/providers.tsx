import type { GymList } from "./types";

const NAMES = { stripe: "Cards", gocardless: "Direct debit", akahu: "Open banking", onesignal: "Push", branch: "Deep links" } as const;

/** Which outside services a gym has connected, as small labels (each says connected or not in words, not colour alone). */
export function ProviderBadges({ providers }: { providers: GymList[number]["providers"] }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Connected services">
      {(Object.keys(NAMES) as (keyof typeof NAMES)[]).map((k) => (
        <li key={k} className={`rounded px-1.5 py-0.5 text-xs ${providers[k] ? "bg-green-100 text-green-900" : "bg-slate-100 text-slate-600"}`}>
          {NAMES[k]}
          <span className="sr-only">{providers[k] ? ": connected" : ": not connected"}</span>
          {providers[k] ? " ✓" : ""}
        </li>
      ))}
    </ul>
  );
}
