import { z } from "zod";
import type { SubscriptionState } from "../subscription";

export const MEMBERS_PER_PAGE = 50;
export const MEMBER_SORTS = ["name", "joined", "last_visit"] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];
/** "none": members without any subscription in the organisation. */
export const MEMBER_STATUS_FILTERS = ["active", "paused", "cancelled", "grace_period", "upcoming", "none"] as const satisfies readonly (
  | SubscriptionState
  | "none"
)[];
export type MemberStatusFilter = (typeof MEMBER_STATUS_FILTERS)[number];

/** A GET form sends every field, empty ones as "": those mean "no filter". */
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());
const id = (what: string) => {
  const message = `Choose ${/^[aeiou]/.test(what) ? "an" : "a"} ${what} from the list`;
  return z.coerce.number({ invalid_type_error: message }).int(message).positive(message);
};

/**
 * The members list's filters, sort and page (GET /api/members, POST /api/members/export, and the /members
 * page's query string, so a filtered list is a link anyone can share). Unknown parameters are ignored.
 */
export const memberListQuery = z.object({
  page: optional(z.coerce.number().int().min(1).max(1_000_000)).transform((v) => v ?? 1),
  status: optional(z.enum(MEMBER_STATUS_FILTERS, { errorMap: () => ({ message: "Choose a status from the list" }) })),
  offering: optional(id("offering")),
  price: optional(id("price")),
  tag: optional(z.string().trim().max(50, "Tags are at most 50 characters")),
  /** A gym of the organisation, or "all" (organisation admins only); the current gym when absent. */
  gym: optional(z.union([z.literal("all"), id("gym")])),
  q: optional(z.string().trim().max(100, "Search for at most 100 characters")),
  sort: optional(z.enum(MEMBER_SORTS, { errorMap: () => ({ message: "Sort by name, joined or last visit" }) })).transform((v) => v ?? "name"),
  dir: optional(z.enum(["asc", "desc"], { errorMap: () => ({ message: "Sort ascending or descending" }) })),
});
export type MemberListQuery = z.infer<typeof memberListQuery>;

/** Name A→Z; joined and last visit newest first, unless the link says otherwise. */
export const defaultDirection = (sort: MemberSort): "asc" | "desc" => (sort === "name" ? "asc" : "desc");
