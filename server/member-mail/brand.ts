import { eq } from "drizzle-orm";
import { signupUrl, type Config } from "../core/config";
import type { Db } from "../core/db/client";
import type { Mailer } from "../core/mail/mailer";
import { gyms } from "../core/db/schema";
import type { Brand } from "./layout";
import { unsubscribeToken } from "./unsubscribe";

/** Where members' e-mails link to (the sign-up app's origin) and what signs their unsubscribe links. */
export interface MailSite {
  origin: string;
  secret: string;
}

export const mailSite = (config: Config): MailSite => ({ origin: signupUrl(config).replace(/\/+$/, ""), secret: config.SESSION_SECRET });

/**
 * The gym a member's e-mail speaks for (issue 31): its name, its logo (served by the API, so an absolute address on
 * the sign-up host), and its reply-to: the address the gym gave for members' answers (SPEC's
 * price_change_notification_reply_to, the one address SPEC gives a gym), else our no-reply sender. `db` may be a
 * request's tenant handle or the system's.
 */
export async function brandFor(db: Db, gymId: number, userId: number, site: MailSite): Promise<Brand> {
  const [gym] = await db.select({ name: gyms.name, logo: gyms.logo, replyTo: gyms.price_change_notification_reply_to }).from(gyms).where(eq(gyms.id, gymId));
  const { origin } = site;
  const token = encodeURIComponent(unsubscribeToken(site.secret, userId));
  return {
    gym: gym?.name ?? "Your gym",
    logo: gym?.logo ? new URL(gym.logo, `${origin}/`).toString() : null,
    replyTo: gym?.replyTo ?? null,
    links: {
      signIn: `${origin}/sign-in`,
      membership: `${origin}/membership`,
      preferences: `${origin}/membership/details#notifications`,
      unsubscribe: `${origin}/unsubscribe?token=${token}`,
      oneClick: `${origin}/api/public/unsubscribe?token=${token}`,
    },
  };
}

/** A mailer with the site its members' e-mails link to: what a job or a webhook needs to tell a member something. */
export interface MemberMailer {
  mailer: Mailer;
  site: MailSite;
}
