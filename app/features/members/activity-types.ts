import type { subscriptionPeriods, weeklyCostPerVisit, weeklyVisits } from "../../../server/api/members/activity";

export type VisitWeek = Awaited<ReturnType<typeof weeklyVisits>>[number];
export type CostWeek = Awaited<ReturnType<typeof weeklyCostPerVisit>>[number];
export type SubscriptionPeriod = Awaited<ReturnType<typeof subscriptionPeriods>>[number];
