import { and, eq, gt, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { formatDate, localDay } from "../../domain/dates";
import { declineKind, nextRetryDay } from "../../domain/failures";
import { formatCents } from "../../domain/money";
import type { Db } from "../db/client";
import { billing_notices, gyms, payments, subscriptions, users } from "../db/schema";
import type { Mail, Mailer } from "../mail/mailer";
import { cardUnusableMail, graceEndingMail, paymentFailedMail } from "../mail/templates";
import { latestAttempt, owingBySubscription } from "./plan";

/**
 * The billing e-mails (issue 11), sent by the billing job after each run, each once (billing_notices' key):
 * - a failed payment (a soft decline): when it is tried again, and until when access lasts;
 * - a card that cannot be charged again (a hard decline): please update it; it is not retried;
 * - a grace period ending within GRACE_WARNING_DAYS: what is owed and the day access stops.
 * Only a period's first failure is told (its retries are not news), only for failures of the last few days (an
 * old one is history, not a notice), and only to members with e-mail notifications on (SPEC: payment_reminders
 * and email_notifications). Every link goes to the sign-up app, where the member signs in and updates it.
 */
export const GRACE_WARNING_DAYS = 2;
const RECENT_DAYS = 3;

const HARD_REASONS: Record<string, string> = {
  lost_card: "the card was reported lost",
  stolen_card: "the card was reported stolen",
  expired_card: "the card has expired",
  no_payment_method: "no card is saved",
};

export async function sendBillingNotices(db: Db, mailer: Mailer, now: Date, signupUrl: string): Promise<{ sent: number; skipped: number }> {
  const report = { sent: 0, skipped: 0 };
  const give = async (n: { organisation_id: number; user_id: number; kind: "payment_failed" | "card_unusable" | "grace_ending"; key: string; payment_id?: number; subscription_id?: number }, wants: boolean, mail: () => Mail) => {
    // The notice is written first and the mail sent after: a crash in between loses one e-mail, never sends two.
    const [written] = await db.insert(billing_notices).values({ ...n, emailed: wants }).onConflictDoNothing().returning({ id: billing_notices.id });
    if (!written) return;
    if (wants) {
      await mailer.send(mail());
      report.sent++;
    } else report.skipped++;
  };

  const failures = await db
    .select({ p: payments, user: users, gym: gyms.name, grace: subscriptions.grace_period_ends_at })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.user_id))
    .innerJoin(gyms, eq(gyms.id, payments.gym_id))
    .leftJoin(subscriptions, eq(subscriptions.id, payments.subscription_id))
    .where(
      and(
        eq(payments.status, "failed"),
        eq(payments.attempt, 0),
        isNotNull(payments.idempotency_key),
        gt(payments.created_at, new Date(now.getTime() - RECENT_DAYS * 86_400_000)),
        sql`not exists (select 1 from ${billing_notices} n where n.key in ('payment_failed:' || ${payments.id}, 'card_unusable:' || ${payments.id}))`,
        latestAttempt,
      ),
    );
  for (const { p, user, gym, grace } of failures) {
    const hard = declineKind(p.error_status) === "hard";
    const wants = user.email_notifications && user.payment_reminders && !user.deleted_at;
    const graceEnds = grace ? formatDate(grace) : null;
    const amount = formatCents(p.amount + p.surcharge);
    const base = { organisation_id: p.organisation_id, user_id: p.user_id, payment_id: p.id, subscription_id: p.subscription_id ?? undefined };
    if (hard) {
      const reason = HARD_REASONS[p.error_status ?? ""] ?? "the card was refused";
      await give({ ...base, kind: "card_unusable", key: `card_unusable:${p.id}` }, wants, () => cardUnusableMail(user.email, user.name, { amount, gym, reason, graceEnds, url: signupUrl }));
    } else {
      const retry = nextRetryDay(localDay(p.created_at), 0, "soft");
      const retryOn = retry ? formatDate(`${retry}T00:00:00Z`) : null;
      await give({ ...base, kind: "payment_failed", key: `payment_failed:${p.id}` }, wants, () => paymentFailedMail(user.email, user.name, { amount, gym, retryOn, graceEnds, url: signupUrl }));
    }
  }

  const ending = await db
    .select({ s: subscriptions, user: users, gym: gyms.name })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.user_id))
    .innerJoin(gyms, eq(gyms.id, subscriptions.gym_id))
    .where(
      and(
        isNotNull(subscriptions.grace_period_ends_at),
        gt(subscriptions.grace_period_ends_at, now),
        lte(subscriptions.grace_period_ends_at, new Date(now.getTime() + GRACE_WARNING_DAYS * 86_400_000)),
        isNull(subscriptions.cancelled_at),
      ),
    );
  const owing = await owingBySubscription(db, ending.map((e) => e.s.id));
  for (const { s, user, gym } of ending) {
    const debt = owing.get(s.id);
    if (!debt) continue;
    const ends = formatDate(s.grace_period_ends_at!);
    await give(
      { organisation_id: s.organisation_id, user_id: s.user_id, subscription_id: s.id, kind: "grace_ending", key: `grace_ending:${s.id}:${s.grace_period_ends_at!.toISOString()}` },
      user.email_notifications && user.payment_reminders && !user.deleted_at,
      () => graceEndingMail(user.email, user.name, { gym, owing: formatCents(debt.balance), ends, url: signupUrl }),
    );
  }
  return report;
}
