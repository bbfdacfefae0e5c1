import type { AnswerOf } from "../../lib/api-contract";

/** The API's answers the members pages read (types only: the API may be remote, this is its contract). */
export type MemberListPage = AnswerOf<"get", "/members">;
export type MemberListRow = MemberListPage["data"][number];
export type OfferingSummary = AnswerOf<"get", "/offerings">["data"][number];
