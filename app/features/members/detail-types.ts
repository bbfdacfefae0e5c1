import type { AnswerOf } from "../../lib/api-contract";

/** GET /api/members/{id}: the member, and what the signed-in user may do with them. */
export type MemberDetail = AnswerOf<"get", "/members/:id">;
export type PaymentsPage = AnswerOf<"get", "/users/:id/payments">;
export type VisitsPage = AnswerOf<"get", "/users/:id/visits">;
export type Credential = AnswerOf<"get", "/members/:id/access-control-credentials">["data"][number];
export type PriceChange = AnswerOf<"get", "/users/:id/price-change-history">["data"][number];
/** The status card's reading of a membership: what staff's member page and the member's own page both show. */
export type StatusCardData = AnswerOf<"get", "/me/membership">["membership"];
