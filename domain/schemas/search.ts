import { z } from "zod";
import { MSG } from "./messages";

export const SEARCH_QUERY_MAX = 100;

/**
 * POST /api/search. A missing or blank query is not an error: it answers an empty list (SPEC §4:
 * an empty query just clears the results). Runs of whitespace collapse so "olivia  smith" finds "Olivia Smith".
 */
export const searchSchema = z.object({
  query: z
    .preprocess(
      // Control characters (a pasted tab, a NUL PostgreSQL would refuse) count as spaces.
      // eslint-disable-next-line no-control-regex
      (v) => (typeof v === "string" ? v.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim() : v ?? ""),
      z.string({ invalid_type_error: "Enter the text to search for" }).max(SEARCH_QUERY_MAX, MSG.max(SEARCH_QUERY_MAX)),
    ),
});
