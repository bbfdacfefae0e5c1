import type { AnswerOf } from "../../lib/api-contract";

/** SPEC §9: the global search waits this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 600;

/** One hit of POST /api/search, which the search calls from the browser. */
export type MemberHit = AnswerOf<"post", "/search">["data"][number];

export interface MemberSearchProps {
  onSelect?: (member: MemberHit) => void;
  pageQuery?: string;
  /** The box's id: a page that shows a picker beside the header's search gives it another. */
  id?: string;
  /** A visible label (a picker in a page's form); the header's search has none. */
  label?: string;
}
