import type { Db } from "../db/client";
import { mail_outbox } from "../db/schema";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Without SMTP_URL mail lands in the database outbox that /dev/mail shows. */
export function outboxMailer(db: Db): Mailer {
  return {
    async send(mail) {
      await db.insert(mail_outbox).values(mail);
    },
  };
}

export async function smtpMailer(url: string, from: string): Promise<Mailer> {
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
