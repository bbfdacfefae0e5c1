import type { UserBreakdown as BreakdownFigures } from "../../../server/api/dashboard/member-summary";
import type { ActiveUsersWeek, CostAndVisitMonth } from "../../../server/api/dashboard/queries";
import type { HeadlineStats } from "../../../server/api/stats/queries";

/** The API's answers the dashboard reads (types only: the API may be remote, this is its contract). */
export type Stats = HeadlineStats;
export type UserBreakdown = BreakdownFigures & { as_of: string };
export type { ActiveUsersWeek, CostAndVisitMonth };

export interface DashboardData {
  stats: Stats;
  activeUsers: ActiveUsersWeek[];
  breakdown: UserBreakdown;
  costs: CostAndVisitMonth[];
}
