import { and, eq, gt, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { formatDate, localDay } from "../../domain/dates";
import { declineKind, nextRetryDay } from "../../domain/failures";
import { formatCents } from "../../domain/money";
import type { Db } from "../core/db/client";
import { billing_notices, gyms, payments, subscriptions, users } from "../core/db/schema";
import type { Mail, Mailer } from "../core/mail/mailer";
import { cardUnusableMail, graceEndingMail, paymentFailedMail } from "../member-mail/templates";
import { brandFor, type MailSite } from "../member-mail/brand";
import type { Brand } from "../member-mail/layout";
import { ProviderError } from "../core/providers/errors";
import type { GymAccounts } from "../core/providers/gym-accounts";
import { deepLinkOr } from "../core/providers/links/link-provider";
import { pushExternalId } from "../core/providers/push/push-provider";
import type { Providers } from "../core/providers/registry";
import { latestAttempt, owingBySubscription } from "./plan";
import { logWarning } from "../core/observability/log";

/**
 * The billing e-mails (issue 11), sent by the billing job after each run, each once (billing_notices' key):
 * - a failed payment (a soft decline): when it is tried again, and until when access lasts;
 * - a card that cannot be charged again (a hard decline): please update it; it is not retried;
 * - a grace period ending within GRACE_WARNING_DAYS: what is owed and the day access stops.
 * Only a period's first failure is told (its retries are not news), only for failures of the last few days (an
 * old one is history, not a notice), and only to members with e-mail notifications on (SPEC: payment_reminders
 * and email_notifications). Every link goes to the sign-up app, where the member signs in and updates it: a deep
 * link (Branch) that opens the member app where it is installed. Members who allow push (push_notifications) get
 * the same news as a push notification (OneSignal), once per notice too (its key is the push's idempotency key).
 */
export const GRACE_WARNING_DAYS = 2;

const gymColumns = { id: gyms.id, name: gyms.name, stripe_id: gyms.stripe_id, gocardless_organisation_id: gyms.gocardless_organisation_id, integrations: gyms.integrations };

/** A push says what the e-mail's first paragraph after the greeting says. */
const firstParagraph = (text: string) => text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean)[1] ?? text.slice(0, 200);
const RECENT_DAYS = 3;

const HARD_REASONS: Record<string, string> = {
  lost_card: "the card was reported lost",
  stolen_card: "the card was reported stolen",
  expired_card: "the card has expired",
  no_payment_method: "no payment method is saved",
  mandate_cancelled: "the direct debit authority was cancelled at your bank",
  bank_account_closed: "the bank account is closed",
  invalid_account: "the bank account cannot make payments",
  authentication_failed: "your bank connection needs to be renewed",
  no_bank_connection: "your bank is not connected",
  no_mandate: "no direct debit authority is set up",
  charged_back: "your bank took the payment back",
};

type Kind = "payment_failed" | "card_unusable" | "grace_ending";

const PUSH_HEADINGS: Record<Kind, string> = {
  payment_failed: "Your membership payment didn't go through",
  card_unusable: "Please update your payment method",
  grace_ending: "Your membership access ends soon",
};

export async function sendBillingNotices(db: Db, mailer: Mailer, providers: Providers, now: Date, site: MailSite): Promise<{ sent: number; skipped: number; pushed: number }> {
  const report = { sent: 0, skipped: 0, pushed: 0 };
  const give = async (
    n: { organisation_id: number; user_id: number; kind: Kind; key: string; payment_id?: number; subscription_id?: number },
    member: { email_notifications: boolean; push_notifications: boolean; payment_reminders: boolean; deleted_at: Date | null },
    gym: GymAccounts,
    mail: (url: string, brand: Brand) => Mail,
  ) => {
    const wants = member.email_notifications && member.payment_reminders && !member.deleted_at;
    const push = member.push_notifications && member.payment_reminders && !member.deleted_at;
    // The notice is written first and the mail sent after: a crash in between loses one e-mail, never sends two.
    const [written] = await db.insert(billing_notices).values({ ...n, emailed: wants }).onConflictDoNothing().returning({ id: billing_notices.id });
    if (!written || (!wants && !push)) {
      if (written) report.skipped++;
      return;
    }
    const url = await deepLinkOr(providers.links(gym), { url: `${site.origin}/membership/payment`, channel: "email", feature: "billing", data: { notice: n.kind } });
    const message = mail(url, await brandFor(db, gym.id, n.user_id, site));
    if (wants) {
      await mailer.send(message);
      report.sent++;
    } else report.skipped++;
    if (push) {
      try {
        const { id } = await providers.push(gym).send({ externalId: pushExternalId(n.user_id), heading: PUSH_HEADINGS[n.kind], content: firstParagraph(message.text), url, idempotencyKey: n.key });
        if (id) report.pushed++;
      } catch (err) {
        // A push is a courtesy beside the e-mail: a failure is logged, and the notice stands.
        if (!(err instanceof ProviderError)) throw err;
        logWarning("[notices] push not sent", err, { notice: n.key });
      }
    }
  };

  const failures = await db
    .select({ p: payments, user: users, gym: gymColumns, grace: subscriptions.grace_period_ends_at })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.user_id))
    .innerJoin(gyms, eq(gyms.id, payments.gym_id))
    .leftJoin(subscriptions, eq(subscriptions.id, payments.subscription_id))
    .where(
      and(
        eq(payments.status, "failed"),
        eq(payments.attempt, 0),
        isNotNull(payments.idempotency_key),
        // When it failed, not when its row was made: a first charge converted from an `upcoming` row is weeks old.
        gt(payments.failed_at, new Date(now.getTime() - RECENT_DAYS * 86_400_000)),
        sql`not exists (select 1 from ${billing_notices} n where n.key in ('payment_failed:' || ${payments.id}, 'card_unusable:' || ${payments.id}))`,
        latestAttempt,
      ),
    );
  for (const { p, user, gym, grace } of failures) {
    const hard = declineKind(p.error_status) === "hard";
    const graceEnds = grace ? formatDate(grace) : null;
    const amount = formatCents(p.amount + p.surcharge);
    const base = { organisation_id: p.organisation_id, user_id: p.user_id, payment_id: p.id, subscription_id: p.subscription_id ?? undefined };
    if (hard) {
      const reason = HARD_REASONS[p.error_status ?? ""] ?? "it was refused";
      await give({ ...base, kind: "card_unusable", key: `card_unusable:${p.id}` }, user, gym, (url, brand) => cardUnusableMail(brand, user.email, user.name, { amount, reason, graceEnds, url }));
    } else {
      const retry = nextRetryDay(localDay(p.failed_at ?? p.created_at), 0, "soft", grace ? localDay(grace) : null);
      const retryOn = retry ? formatDate(`${retry}T00:00:00Z`) : null;
      await give({ ...base, kind: "payment_failed", key: `payment_failed:${p.id}` }, user, gym, (url, brand) => paymentFailedMail(brand, user.email, user.name, { amount, retryOn, graceEnds, url }));
    }
  }

  const ending = await db
    .select({ s: subscriptions, user: users, gym: gymColumns })
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
      user,
      gym,
      (url, brand) => graceEndingMail(brand, user.email, user.name, { owing: formatCents(debt.balance), ends, url }),
    );
  }
  return report;
}
