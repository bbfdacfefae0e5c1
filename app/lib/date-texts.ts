import { useMatches } from "@remix-run/react";
import { useMemo } from "react";
import { dateWriters, type DateTexts } from "../../domain/date-writers";

/**
 * The Auckland dates and times of the instants in the matched routes' loader data (`withDateTexts`), written on the
 * server: this module holds no time zone and no date library (decision 0053).
 */
export function useDates() {
  const matches = useMatches();
  return useMemo(() => {
    const texts: DateTexts = {};
    for (const m of matches) Object.assign(texts, (m.data as { dateTexts?: DateTexts } | undefined)?.dateTexts);
    return dateWriters(texts);
  }, [matches]);
}

