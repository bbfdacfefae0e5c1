import type { SubscriptionState } from "./subscription";

/** The members list's sorts and filters, without the schemas (./schemas/members.ts), so list pages load no zod. */
export const MEMBERS_PER_PAGE = 50;
export const MEMBER_SORTS = ["name", "joined", "last_visit"] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];
/** "none": members without any subscription in the organisation. */
export const MEMBER_STATUS_FILTERS = ["active", "paused", "cancelled", "grace_period", "upcoming", "none"] as const satisfies readonly (
  | SubscriptionState
  | "none"
)[];
export type MemberStatusFilter = (typeof MEMBER_STATUS_FILTERS)[number];

export const defaultDirection = (sort: MemberSort): "asc" | "desc" => (sort === "name" ? "asc" : "desc");
