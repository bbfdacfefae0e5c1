import { and, eq, gt, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { nextSignupStep, type SignupStep } from "../../domain/signup";
import type { Db } from "../core/db/client";
import { billing_notices, organisation_users, organisations, users } from "../core/db/schema";
import type { Mailer } from "../core/mail/mailer";
import { brandFor, type MailSite } from "../member-mail/brand";
import { signupReminderMail } from "../member-mail/templates";

/**
 * The one reminder to a person who stopped part way through joining (issue 31), where their organisation turned
 * reminders on (off by default): a day after they last did anything, once (billing_notices' key per person and
 * organisation), to a confirmed address with e-mails on. The link is the sign-in page with their address filled
 * in: signing in lands them on the step they reached (the step guards know it). Nobody imported by staff, and
 * nobody with a membership, is reminded; a window of two days lets a server that was down catch up without
 * reminding anyone weeks later.
 */
export const REMIND_AFTER_HOURS = 24;
const WINDOW_HOURS = 48;

const STEP_WORDS: Record<SignupStep, string> = {
  "take-photo": "taking your photo",
  "choose-payment-method": "choosing how to pay",
  "confirm-subscription": "choosing your membership",
  "welcome-to-gym": "the last step",
};

export async function sendSignupReminders(db: Db, mailer: Mailer, now: Date, site: MailSite) {
  const report = { reminded: 0 };
  const lastActive = sql<Date>`greatest(${organisation_users.updated_at}, ${users.updated_at})`;
  const due = await db
    .select({
      organisation_id: organisation_users.organisation_id,
      user_id: users.id,
      gym_id: organisation_users.home_gym_id,
      email: users.email,
      name: users.name,
      profile_picture: users.profile_picture,
      has_method: sql<boolean>`exists (select 1 from payment_types pt where pt.user_id = ${users.id} and pt.organisation_id = ${organisation_users.organisation_id})`,
    })
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .innerJoin(organisations, eq(organisations.id, organisation_users.organisation_id))
    .where(
      and(
        eq(organisations.signup_reminders, true),
        eq(organisation_users.role, "member"),
        isNull(organisation_users.deleted_at),
        isNull(organisation_users.latest_subscription_id),
        isNull(organisation_users.import_id),
        isNotNull(organisation_users.home_gym_id),
        isNotNull(users.email_verified_at),
        eq(users.email_notifications, true),
        isNull(users.deleted_at),
        lte(lastActive, new Date(now.getTime() - REMIND_AFTER_HOURS * 3_600_000)),
        gt(lastActive, new Date(now.getTime() - (REMIND_AFTER_HOURS + WINDOW_HOURS) * 3_600_000)),
        sql`not exists (select 1 from ${billing_notices} n where n.key = 'signup_reminder:' || ${organisation_users.organisation_id} || ':' || ${users.id})`,
      ),
    );
  const { origin } = site;
  for (const r of due) {
    const [written] = await db
      .insert(billing_notices)
      .values({
        organisation_id: r.organisation_id,
        user_id: r.user_id,
        kind: "signup_reminder",
        key: `signup_reminder:${r.organisation_id}:${r.user_id}`,
        emailed: true,
      })
      .onConflictDoNothing()
      .returning({ id: billing_notices.id });
    if (!written) continue;
    const step = nextSignupStep({ membership_confirmed: false, profile_picture: r.profile_picture, payment_types: r.has_method ? [true] : [] });
    const brand = await brandFor(db, r.gym_id!, r.user_id, site);
    await mailer.send(signupReminderMail(brand, r.email, r.name, { step: STEP_WORDS[step], url: `${origin}/sign-in?email=${encodeURIComponent(r.email)}` }));
    report.reminded++;
  }
  return report;
}
