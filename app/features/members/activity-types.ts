import type { AnswerOf } from "../../lib/api-contract";

export type VisitWeek = AnswerOf<"get", "/members/:id/weekly-visits">["data"][number];
export type CostWeek = AnswerOf<"get", "/members/:id/weekly-cost-per-visit">["data"][number];
export type SubscriptionPeriod = AnswerOf<"get", "/members/:id/subscription-periods">["data"][number];
