import { and, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import { dateWriters } from "../../domain/date-writers";
import { withDateTexts } from "../../domain/date-texts";
import { receiptRows } from "../../domain/receipt";
import { formatCalendarDay } from "../../domain/calendar-day";
import { formatCents } from "../../domain/money";
import { doorInWords, membershipInWords } from "../../domain/welcome-words";
import type { Db } from "../core/db/client";
import { billing_notices, gyms, organisations, payments, subscriptions, users } from "../core/db/schema";
import { withTenant } from "../core/db/tenant";
import type { Mailer } from "../core/mail/mailer";
import { deepLinkOr } from "../core/providers/links/link-provider";
import type { Providers } from "../core/providers/registry";
import { myReceipt } from "../self-service/membership";
import { activeSubscription } from "../signup/active";
import { brandFor, type MailSite } from "../member-mail/brand";
import { receiptMail, welcomeMail } from "../member-mail/templates";

/**
 * The e-mails a successful payment sends (issue 31), each once (billing_notices' key), from the moment it was paid
 * (payments.paid_at, kept by a trigger whatever wrote it: drizzle/0042):
 * - the first payment of a membership joined online: the welcome, with its receipt, the door and the app;
 * - every other one: a receipt, when the organisation sends receipts (on by default).
 * Run after the charges a request made (its afterCommit starts the job) and every minute as a catch-up; a payment paid more than
 * RECENT_HOURS ago is history, not news. Members with e-mails off get nothing (the notice is still written, so
 * turning e-mails on later does not send old receipts).
 */
export const RECENT_HOURS = 48;

export async function sendPaymentMail(db: Db, mailer: Mailer, providers: Providers, now: Date, site: MailSite) {
  const report = { receipts: 0, welcomes: 0, skipped: 0 };
  const due = await db
    .select({
      id: payments.id,
      organisation_id: payments.organisation_id,
      user_id: payments.user_id,
      gym_id: payments.gym_id,
      subscription_id: payments.subscription_id,
      joinedOnline: isNotNull(subscriptions.signup_key).mapWith(Boolean),
      receipts: organisations.payment_receipts,
      user: { email: users.email, name: users.name, on: users.email_notifications, deleted_at: users.deleted_at },
    })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.user_id))
    .innerJoin(organisations, eq(organisations.id, payments.organisation_id))
    .leftJoin(subscriptions, eq(subscriptions.id, payments.subscription_id))
    .where(
      and(
        eq(payments.status, "sent"),
        gt(payments.paid_at, new Date(now.getTime() - RECENT_HOURS * 3_600_000)),
        lte(payments.paid_at, now),
        sql`not exists (select 1 from ${billing_notices} n where n.key = 'receipt:' || ${payments.id})`,
      ),
    )
    .orderBy(payments.id);

  const { origin } = site;
  for (const p of due) {
    const welcome =
      p.joinedOnline &&
      p.subscription_id !== null &&
      !(
        await db
          .select({ id: billing_notices.id })
          .from(billing_notices)
          .where(eq(billing_notices.key, `welcome:${p.subscription_id}`))
      )[0];
    if (!welcome && !p.receipts) continue;
    const wants = p.user.on && !p.user.deleted_at;
    // The notice is written first and the mail sent after: a crash in between loses one e-mail, never sends two.
    const notices = [
      {
        organisation_id: p.organisation_id,
        user_id: p.user_id,
        kind: "receipt" as const,
        key: `receipt:${p.id}`,
        payment_id: p.id,
        subscription_id: p.subscription_id,
        emailed: wants,
      },
      ...(welcome
        ? [
            {
              organisation_id: p.organisation_id,
              user_id: p.user_id,
              kind: "welcome" as const,
              key: `welcome:${p.subscription_id}`,
              payment_id: p.id,
              subscription_id: p.subscription_id,
              emailed: wants,
            },
          ]
        : []),
    ];
    const written = await db.insert(billing_notices).values(notices).onConflictDoNothing().returning({ key: billing_notices.key });
    if (written.length !== notices.length || !wants) {
      report.skipped++;
      continue;
    }
    const brand = await brandFor(db, p.gym_id, p.user_id, site);
    const facts = await withTenant(db, p.organisation_id, null, async (t) => ({
      receipt: await myReceipt(t, p.user_id, p.id),
      joined: welcome ? await activeSubscription(t, p.user_id, now) : null,
    }));
    const dates = dateWriters(withDateTexts(facts.receipt).dateTexts);
    const rows = receiptRows(facts.receipt, dates);
    const receiptUrl = `${origin}/membership/receipts/${p.id}`;
    if (welcome && facts.joined) {
      const m = facts.joined;
      const [gym] = await db.select().from(gyms).where(eq(gyms.id, p.gym_id));
      const appUrl = await deepLinkOr(providers.links(gym), {
        url: `${origin}/membership`,
        channel: "email",
        feature: "welcome",
        data: { gym_id: String(gym.id) },
      });
      await mailer.send(
        welcomeMail(brand, p.user.email, p.user.name, {
          membership: membershipInWords(m),
          receipt: { number: facts.receipt.number, rows },
          nextCharge: m.next_charge?.amount ? `Your next payment: ${formatCents(m.next_charge.amount)} on ${formatCalendarDay(m.next_charge.date)}.` : null,
          door: doorInWords(m.access, m.state, m.start_date),
          appUrl,
          membershipUrl: `${origin}/membership`,
        }),
      );
      report.welcomes++;
    } else {
      await mailer.send(
        receiptMail(brand, p.user.email, p.user.name, { number: facts.receipt.number, total: formatCents(facts.receipt.total), rows, url: receiptUrl }),
      );
      report.receipts++;
    }
  }
  return report;
}
