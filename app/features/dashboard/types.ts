import type { ActiveUsersWeek, CostAndVisitMonth, UserBreakdown } from "../../../server/api/dashboard/queries";
import type { headlineStats } from "../../../server/api/stats/queries";

/** The API's answers the dashboard reads (types only: the API may be remote, this is its contract). */
export type Stats = Awaited<ReturnType<typeof headlineStats>>;
export type { ActiveUsersWeek, CostAndVisitMonth, UserBreakdown };

export interface DashboardData {
  stats: Stats;
  activeUsers: ActiveUsersWeek[];
  breakdown: UserBreakdown;
  costs: CostAndVisitMonth[];
}
