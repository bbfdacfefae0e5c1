import { statusLabel } from "../../domain/status-label";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { accessAt } from "../../domain/access";
import { formatMemberCode } from "../../domain/member-code";
import { statusColour, subscriptionState } from "../../domain/subscription";
import { organisation_users, payments, subscriptions, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { latestAttempt } from "../billing/plan";

/**
 * What the desk sees of a member (issue 32): photo, name, code, the membership's state in words and whether the
 * access rule lets them in now, with its reason (domain/access.ts, the door's own rule), and what is owing. For the
 * few members a check-in search finds, in the order given.
 */
export async function checkInCards(t: Tenant, userIds: number[], now: Date) {
  if (!userIds.length) return [];
  const rows = await t.db
    .select({
      user: { id: users.id, name: users.name, email: users.email, profile_picture: users.profile_picture },
      code: organisation_users.member_code,
      homeGymId: organisation_users.home_gym_id,
      s: subscriptions,
    })
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .leftJoin(subscriptions, eq(subscriptions.id, organisation_users.latest_subscription_id))
    .where(
      t.where(organisation_users, inArray(organisation_users.user_id, userIds), eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at)),
    );
  const subscriptionIds = rows.flatMap((r) => (r.s ? [r.s.id] : []));
  const owed = subscriptionIds.length
    ? await t.db
        .select({ subscription: payments.subscription_id, amount: payments.amount, surcharge: payments.surcharge })
        .from(payments)
        .where(t.where(payments, inArray(payments.subscription_id, subscriptionIds), eq(payments.status, "failed"), latestAttempt))
    : [];
  const owing = new Map<number, number>();
  for (const p of owed) owing.set(p.subscription!, (owing.get(p.subscription!) ?? 0) + p.amount + p.surcharge);
  const byId = new Map(rows.map((r) => [r.user.id, r]));
  return userIds.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const door = accessAt(r.s, now);
    const state = r.s ? subscriptionState(r.s, now) : null;
    return [
      {
        id: r.user.id,
        name: r.user.name,
        email: r.user.email,
        home_gym_id: r.homeGymId,
        code: formatMemberCode(r.code),
        photo: r.user.profile_picture ? `/api/members/${r.user.id}/profile-picture?v=${encodeURIComponent(r.user.profile_picture)}` : null,
        membership: r.s && state ? { id: r.s.id, state, label: statusLabel(r.s, now), colour: statusColour(r.s, now) } : null,
        allowed: door.allowed,
        reason: door.reason,
        owing: r.s ? owing.get(r.s.id) ?? 0 : 0,
      },
    ];
  });
}
export type CheckInCard = Awaited<ReturnType<typeof checkInCards>>[number];

/** The member whose code this is (already read: domain/member-code.ts), in the tenant's organisation. */
export async function memberByCode(t: Tenant, code: string) {
  const [m] = await t.db
    .select({ id: organisation_users.user_id })
    .from(organisation_users)
    .where(
      t.where(organisation_users, and(eq(organisation_users.member_code, code), eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at))),
    );
  return m?.id ?? null;
}
