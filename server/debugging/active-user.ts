import { desc, eq } from "drizzle-orm";
import { accessAt } from "../../domain/access";
import { activeConditions } from "../../domain/active";
import { addCalendarDays, localDay, startOfLocalDay } from "../../domain/dates";
import { STATE_LABELS, subscriptionState } from "../../domain/subscription";
import { offerings, prices, subscriptions } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { findMember } from "../members/find";
import { assertCan } from "../core/permissions";
import type { CurrentUser } from "../core/current-user";

/**
 * GET /api/active-user-debugging?member=&day=: whether the member counts as an active user at the end of that day
 * (now, for today), and the rule that decided it: each subscription's conditions (domain/active.ts, the
 * dashboard's rule) with their values, and what the door says (domain/access.ts).
 */
export async function activeUser(t: Tenant, staff: CurrentUser, memberId: number, day: string, now: Date) {
  const { user, membership } = await findMember(t, String(memberId));
  // A trainer looks at the members of their own gyms, as everywhere else.
  assertCan(staff, "members.read", membership.home_gym_id);
  const endOfDay = startOfLocalDay(addCalendarDays(day, 1));
  const at = day === localDay(now) ? now : endOfDay;
  const subs = await t.db
    .select({ s: subscriptions, offering: offerings.name, amount: prices.amount, frequency: prices.billing_frequency })
    .from(subscriptions)
    .innerJoin(prices, eq(prices.id, subscriptions.price_id))
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .where(t.where(subscriptions, eq(subscriptions.user_id, user.id)))
    .orderBy(desc(subscriptions.created_at), desc(subscriptions.id));
  const checked = subs.map(({ s, offering, amount, frequency }) => {
    const conditions = activeConditions({ ...s, removed_at: membership.deleted_at }, at);
    return {
      id: s.id,
      offering,
      amount,
      billing_frequency: frequency,
      state: STATE_LABELS[subscriptionState(s, at)],
      counts: conditions.every((c) => c.holds),
      conditions,
    };
  });
  const counting = checked.find((c) => c.counts);
  const latest = subs[0]?.s ?? null;
  const firstFailing = checked[0]?.conditions.find((c) => !c.holds);
  return {
    member: { id: user.id, name: user.name, email: user.email },
    day,
    at: at.toISOString(),
    counts_as_active: Boolean(counting),
    decided_by: counting
      ? `Subscription ${counting.id} (${counting.offering}) was running: every condition holds.`
      : !checked.length
        ? "No subscription at all."
        : `No subscription was running. The latest: ${firstFailing ? `${firstFailing.rule.toLowerCase()} fails (${firstFailing.detail}).` : "—"}`,
    subscriptions: checked,
    door: accessAt(latest, at),
  };
}
