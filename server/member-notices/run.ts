import type { Db } from "../core/db/client";
import type { Mailer } from "../core/mail/mailer";
import type { Providers } from "../core/providers/registry";
import type { MailSite } from "../member-mail/brand";
import { sendPaymentMail } from "./payment-mail";
import { sendSignupReminders } from "./signup-reminders";

/** The `member-mail` job (server/jobs/scheduler.ts): receipts and welcomes, then the sign-up reminders that are due. */
export async function runMemberNotices(db: Db, mailer: Mailer, providers: Providers, now: Date, site: MailSite) {
  const payments = await sendPaymentMail(db, mailer, providers, now, site);
  const reminders = await sendSignupReminders(db, mailer, now, site);
  return { ...payments, ...reminders };
}
