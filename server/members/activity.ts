import { and, asc, eq, gte } from "drizzle-orm";
import { addCalendarDays, localWeekStart, startOfLocalDay } from "../../domain/dates";
import { termShorthand, type BillingFrequency, type TermUnit } from "../../domain/billing";
import { STATE_LABELS, subscriptionState } from "../../domain/subscription";
import { offerings, payments, prices, subscriptions, visits } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/** The last `count` Auckland weeks (Monday starts), oldest first, each with its start and end instants. */
export function lastWeeks(at: Date, count: number) {
  const thisMonday = localWeekStart(at);
  return Array.from({ length: count }, (_, i) => {
    const monday = addCalendarDays(thisMonday, (i - count + 1) * 7);
    return { week_start: monday, from: startOfLocalDay(monday), to: startOfLocalDay(addCalendarDays(monday, 7)) };
  });
}

async function successfulVisitsSince(t: Tenant, userId: number, from: Date) {
  return t.db
    .select({ visited_at: visits.visited_at })
    .from(visits)
    .where(t.where(visits, eq(visits.user_id, userId), eq(visits.successful, true), gte(visits.visited_at, from)));
}

/** GET /api/members/{id}/weekly-visits: successful visits in each of the last weeks (the current one so far). */
export async function weeklyVisits(t: Tenant, userId: number, at: Date, count: number) {
  const weeks = lastWeeks(at, count);
  const rows = await successfulVisitsSince(t, userId, weeks[0].from);
  return weeks.map((w) => ({ week_start: w.week_start, visits: rows.filter((r) => r.visited_at >= w.from && r.visited_at < w.to).length }));
}

/**
 * GET /api/members/{id}/weekly-cost-per-visit: what the membership cost in each week, spread evenly over
 * the days each successful payment paid for (a monthly payment counts about a quarter in each week), divided
 * by that week's visits; null for a week without visits.
 */
export async function weeklyCostPerVisit(t: Tenant, userId: number, at: Date, count: number) {
  const weeks = lastWeeks(at, count);
  const [paid, seen] = await Promise.all([
    t.db
      .select({ amount: payments.amount, from: payments.period_start_at, to: payments.period_end_at })
      .from(payments)
      .where(t.where(payments, eq(payments.user_id, userId), eq(payments.status, "sent"))),
    successfulVisitsSince(t, userId, weeks[0].from),
  ]);
  return weeks.map((w) => {
    let cost = 0;
    for (const p of paid) {
      if (!p.from || !p.to || p.to <= p.from) continue;
      const overlap = Math.min(p.to.getTime(), w.to.getTime()) - Math.max(p.from.getTime(), w.from.getTime());
      if (overlap > 0) cost += (p.amount * overlap) / (p.to.getTime() - p.from.getTime());
    }
    const n = seen.filter((r) => r.visited_at >= w.from && r.visited_at < w.to).length;
    return { week_start: w.week_start, cost: Math.round(cost), visits: n, cost_per_visit: n > 0 ? Math.round(cost / n) : null };
  });
}

/** GET /api/members/{id}/subscription-periods: each subscription, oldest first, with the periods it was paid for. */
export async function subscriptionPeriods(t: Tenant, userId: number, at: Date) {
  const [subs, paid] = await Promise.all([
    t.db
      .select({ s: subscriptions, offering: offerings.name, frequency: prices.billing_frequency, amount: prices.amount, term_amount: prices.term_amount, term_unit: prices.term_unit })
      .from(subscriptions)
      .innerJoin(prices, eq(prices.id, subscriptions.price_id))
      .innerJoin(offerings, eq(offerings.id, prices.offering_id))
      .where(t.where(subscriptions, eq(subscriptions.user_id, userId)))
      .orderBy(asc(subscriptions.created_at), asc(subscriptions.id)),
    t.db
      .select({ subscription_id: payments.subscription_id, from: payments.period_start_at, to: payments.period_end_at, amount: payments.amount, status: payments.status })
      .from(payments)
      .where(and(t.where(payments, eq(payments.user_id, userId))))
      .orderBy(asc(payments.period_start_at)),
  ]);
  return subs.map(({ s, offering, frequency, amount, term_amount, term_unit }) => {
    const state = subscriptionState(s, at);
    return {
      id: s.id,
      offering,
      amount: s.force_price_amount ?? amount,
      billing_frequency: frequency as BillingFrequency,
      term: termShorthand({ billing_frequency: frequency as BillingFrequency, term_amount, term_unit: term_unit as TermUnit | null }),
      state,
      label: STATE_LABELS[state],
      started_at: s.created_at.toISOString(),
      ended_at: s.cancelled_at ? (s.current_period_end && s.current_period_end > s.cancelled_at ? s.current_period_end : s.cancelled_at).toISOString() : null,
      periods: paid
        .filter((p) => p.subscription_id === s.id && p.from && p.to && p.status === "sent")
        .map((p) => ({ from: p.from!.toISOString(), to: p.to!.toISOString(), amount: p.amount })),
    };
  });
}
