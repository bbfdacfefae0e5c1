import { desc } from "drizzle-orm";
import type { Db } from "../db/client";
import { mail_outbox, push_outbox } from "../db/schema";

/** The newest mail first, for /dev/mail and /dev/mail.json. */
export async function listOutbox(db: Db, limit = 50) {
  return db
    .select({ to: mail_outbox.to, subject: mail_outbox.subject, text: mail_outbox.text, html: mail_outbox.html, reply_to: mail_outbox.reply_to, headers: mail_outbox.headers, sent_at: mail_outbox.sent_at })
    .from(mail_outbox)
    .orderBy(desc(mail_outbox.id))
    .limit(limit);
}

/** The sandbox OneSignal's push notifications, newest first, shown on /dev/mail beside the e-mails. */
export async function listPushOutbox(db: Db, limit = 50) {
  return db
    .select({ to: push_outbox.external_id, heading: push_outbox.heading, content: push_outbox.content, url: push_outbox.url, sent_at: push_outbox.created_at })
    .from(push_outbox)
    .orderBy(desc(push_outbox.id))
    .limit(limit);
}
