import { useMatches } from "@remix-run/react";
import { createContext, createElement, useContext, useMemo, type ReactNode } from "react";
import { dateWriters, type DateTexts } from "../../domain/date-writers";

/** Texts of loader data that is no longer among the matches (a page kept on screen behind a dialog). */
const KeptTexts = createContext<DateTexts | null>(null);

/**
 * The Auckland dates and times of the instants in the matched routes' loader data (`withDateTexts`), written on the
 * server: this module holds no time zone and no date library (decision 0053). A page shown from data its route
 * loaded earlier (the member page behind an action's dialog) brings that data's texts with `KeepDateTexts`.
 */
export function useDates() {
  const matches = useMatches();
  const kept = useContext(KeptTexts);
  return useMemo(() => {
    const texts: DateTexts = { ...kept };
    for (const m of matches) Object.assign(texts, (m.data as { dateTexts?: DateTexts } | undefined)?.dateTexts);
    return dateWriters(texts);
  }, [matches, kept]);
}

export function KeepDateTexts({ data, children }: { data: { dateTexts?: DateTexts } | undefined; children: ReactNode }) {
  return createElement(KeptTexts.Provider, { value: data?.dateTexts ?? null }, children);
}
