import type { MemberListRow } from "../../../server/api/members/list";
import type { OfferingSummary } from "../../../server/api/offerings/routes";

/** The API's answers the members pages read (types only: the API may be remote, this is its contract). */
export type { MemberListRow, OfferingSummary };
export interface MemberListPage {
  data: MemberListRow[];
  meta: { page: number; per_page: number; total: number; pages: number; sort: "name" | "joined" | "last_visit"; dir: "asc" | "desc" };
}
