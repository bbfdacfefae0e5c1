import { and, desc, eq, sql } from "drizzle-orm";
import { formatDay, localDay } from "../../domain/dates";
import type { OnboardPifRequest } from "../../domain/schemas/subscriptions";
import { invalid } from "../core/errors";
import { createLink } from "../core/auth/password-links";
import { gyms, offerings, organisation_users, prices, subscriptions, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";
import { pifInviteMail } from "../core/mail/templates";
import { applyPif, pifEffect } from "./pif";
import { isUniqueViolation } from "../core/db/errors";
import { recordWebhookEvent } from "../outgoing-webhooks/events";

/**
 * A new member who paid in full at the desk (issue 12, /members/pif): their account (no password yet), their
 * membership of the organisation, the paid-in-full membership and its payment, all in one transaction; then an
 * invitation to set a password (invited_at, should_onboard), e-mailed after the commit. An address that already has
 * an account is refused: this organisation's member is added from their own page; anyone else's account joins only
 * by the person's own act (decision 0048), and the answer does not say whether or where it exists (issue 29, L3).
 */
export const YOUR_MEMBER = "They are already your member: open their page and add paid in full there";
export const ADDRESS_UNAVAILABLE = "This e-mail address can't be used for a new member here. If it is theirs, ask them to join online with it; otherwise use another address";

async function gymOf(t: Tenant, gymId: number) {
  const [gym] = await t.db.select({ id: gyms.id, name: gyms.name }).from(gyms).where(t.where(gyms, eq(gyms.id, gymId)));
  if (!gym) throw invalid({ gym_id: ["Choose a gym from the list"] });
  return gym;
}

export async function onboardEffect(t: Tenant, req: OnboardPifRequest, now: Date) {
  const gym = await gymOf(t, req.gym_id);
  const [taken] = await t.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${req.email.toLowerCase()}`);
  if (taken) {
    const [ours] = await t.db.select({ role: organisation_users.role }).from(organisation_users).where(t.where(organisation_users, eq(organisation_users.user_id, taken.id), eq(organisation_users.role, "member")));
    throw invalid({ email: [ours ? YOUR_MEMBER : ADDRESS_UNAVAILABLE] });
  }
  // Nobody yet: the paid-in-full rules as for a member without a membership.
  const effect = await pifEffect(t, -1, gym.id, req, now);
  return { ...effect, gym: gym.name, member: { name: req.name, email: req.email } };
}

export async function onboardPif(t: Tenant, req: OnboardPifRequest, actorId: number, now: Date, inviteUrl: (token: string) => string) {
  const effect = await onboardEffect(t, req, now);
  let user;
  try {
    [user] = await t.db
      .insert(users)
      .values({ name: req.name, email: req.email, mobile_number: req.mobile_number ?? null, should_onboard: true, invited_at: now, current_organisation_id: t.organisationId, current_gym_id: req.gym_id, created_at: now, updated_at: now })
      .returning();
  } catch (err) {
    if (isUniqueViolation(err)) throw invalid({ email: [ADDRESS_UNAVAILABLE] });
    throw err;
  }
  await t.db.insert(organisation_users).values(t.owned({ user_id: user.id, role: "member" as const, home_gym_id: req.gym_id, created_at: now }));
  await recordWebhookEvent(t, "member.created", user.id, now);
  const done = await applyPif(t, user.id, req.gym_id, req, actorId, now);
  const mail = pifInviteMail(user.email, user.name, { gym: effect.gym, offering: effect.price.offering, from: formatDay(effect.start), until: effect.ends ? formatDay(effect.ends) : null, url: inviteUrl(await createLink(t.db, user.id, "invite", now)) });
  return { effect, userId: user.id, subscriptionId: done.subscriptionId, mail };
}

/** POST /api/members/{id}/resend-pif-invite: a fresh link (the old ones still work until they expire or are used). */
export async function resendInvite(t: Tenant, member: { id: number; email: string; name: string; password_hash: string | null }, now: Date, inviteUrl: (token: string) => string) {
  if (member.password_hash) throw invalid({ _: ["The member has set a password already: they sign in, or reset it from the sign-in page"] });
  const [latest] = await t.db
    .select({ gym: gyms.name, offering: offerings.name, start: subscriptions.current_period_start, ends: subscriptions.pif_ends_at })
    .from(subscriptions)
    .innerJoin(prices, eq(prices.id, subscriptions.price_id))
    .innerJoin(offerings, eq(offerings.id, prices.offering_id))
    .innerJoin(gyms, eq(gyms.id, subscriptions.gym_id))
    .where(t.where(subscriptions, and(eq(subscriptions.user_id, member.id), eq(prices.billing_frequency, "one_off"))))
    .orderBy(desc(subscriptions.created_at))
    .limit(1);
  if (!latest) throw invalid({ _: ["The member has no paid-in-full membership to be invited for"] });
  await t.db.update(users).set({ invited_at: now, should_onboard: true }).where(eq(users.id, member.id));
  return pifInviteMail(member.email, member.name, {
    gym: latest.gym,
    offering: latest.offering,
    from: latest.start ? formatDay(localDay(latest.start)) : "today",
    until: latest.ends ? formatDay(localDay(latest.ends)) : null,
    url: inviteUrl(await createLink(t.db, member.id, "invite", now)),
  });
}
