import type { Db } from "../db/client";
import { mail_outbox } from "../db/schema";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where an answer goes, when not to the sender. */
  replyTo?: string | null;
  /** Extra headers: List-Unsubscribe on members' e-mails (server/member-mail/layout.ts). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Without SMTP_URL mail lands in the database outbox that /dev/mail shows. */
export function outboxMailer(db: Db): Mailer {
  return {
    async send(mail) {
      const { replyTo, headers, ...rest } = mail;
      await db.insert(mail_outbox).values({ ...rest, reply_to: replyTo ?? null, headers: headers ?? null });
    },
  };
}

export async function smtpMailer(url: string, from: string): Promise<Mailer> {
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      const { replyTo, headers, ...rest } = mail;
      await transport.sendMail({ from, ...rest, ...(replyTo ? { replyTo } : {}), ...(headers ? { headers } : {}) });
    },
  };
}
