/**
 * Why a membership is cancelled: the list staff and members choose from. Its own module, without zod, so the
 * member's cancel page on the sign-up host shows the labels without the schema library (issue 30's page budget).
 */
export const CANCELLATION_REASONS = ["moving_away", "cost", "injury_or_health", "not_using_it", "joined_another_gym", "unhappy_with_service", "other"] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];
export const CANCELLATION_REASON_LABELS: Record<CancellationReason, string> = {
  moving_away: "Moving away",
  cost: "Cost",
  injury_or_health: "Injury or health",
  not_using_it: "Not using it enough",
  joined_another_gym: "Joined another gym",
  unhappy_with_service: "Unhappy with the service",
  other: "Other",
};
