import type { AnswerOf } from "../../lib/api-contract";

/** The API's answers the dashboard reads (types only: the API may be remote, this is its contract). */
type Dashboard = AnswerOf<"get", "/dashboard">;
export type Stats = Dashboard["stats"];
export type ActiveUsersWeek = Dashboard["active_users"][number];
export type UserBreakdown = Dashboard["breakdown"];
export type CostAndVisitMonth = NonNullable<Dashboard["costs"]>[number];
export type ClassOccupancyWeek = NonNullable<Dashboard["class_occupancy"]>[number];

export interface DashboardData {
  stats: Stats;
  activeUsers: ActiveUsersWeek[];
  breakdown: UserBreakdown;
  /** Null for staff who may not see money in this gym. */
  costs: CostAndVisitMonth[] | null;
  /** Differences with the payment providers left for a person (organisation admins; null for others). */
  reconciliationOpen: number | null;
  /** Group classes' places taken per week (issue 34); null for staff who may not read classes here. */
  classOccupancy: ClassOccupancyWeek[] | null;
}
