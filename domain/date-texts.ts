import { formatLocal } from "./dates";
import type { DateTexts } from "./date-writers";

export type { DateTexts };

/** An instant as the API writes it (ISO 8601 with a time): the values a page shows as Auckland dates and times. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * A loader's data with every instant in it written out in Auckland time, under `dateTexts`: the browser never
 * converts a time zone, so no page ships date-fns (decision 0053). Components read them with `useDates()`.
 */
export function withDateTexts<T extends object>(data: T): T & { dateTexts: DateTexts } {
  const texts: DateTexts = {};
  const seen = new Set<unknown>();
  const walk = (value: unknown) => {
    if (typeof value === "string") {
      const at = INSTANT.test(value) ? new Date(value) : null;
      // Keyed as Date#toISOString writes it, which the browser does without a time zone.
      if (at && !Number.isNaN(at.getTime())) texts[at.toISOString()] ??= [formatLocal(at, "EEE"), formatLocal(at, "d MMM yyyy"), formatLocal(at, "h:mm a")];
    } else if (value instanceof Date) {
      walk(value.toISOString());
    } else if (value && typeof value === "object" && !seen.has(value)) {
      seen.add(value);
      for (const v of Object.values(value)) walk(v);
    }
  };
  walk(data);
  return { ...data, dateTexts: texts };
}
