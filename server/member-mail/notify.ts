import { eq } from "drizzle-orm";
import type { Db } from "../core/db/client";
import { gyms, users } from "../core/db/schema";
import type { Mail, Mailer } from "../core/mail/mailer";
import { ProviderError } from "../core/providers/errors";
import { deepLinkOr, type DeepLinkRequest } from "../core/providers/links/link-provider";
import { pushExternalId } from "../core/providers/push/push-provider";
import { sandboxProviders, type Providers } from "../core/providers/registry";
import { logWarning } from "../core/observability/log";

/**
 * Tells a member something (their sessions changed, issue 16; a reply from the gym, issue 31): by e-mail unless they turned e-mails off (issue 31: every member
 * e-mail carries an unsubscribe link that must work), and as a push notification through the gym's push service when
 * the member allows push. Run once the change is committed, on the
 * system's handle (the push sandbox keeps its deliveries outside any organisation). A push that fails is logged: the
 * e-mail has gone, and the booking stands. The push opens the member app at the session (`link`, a deep link; the
 * member's web page without the app).
 */
export async function tellMember(
  deps: { db: Db; mailer: Mailer; providers?: Providers },
  memberId: number,
  gymId: number,
  mail: Mail,
  key: string,
  link: DeepLinkRequest,
) {
  const [member] = await deps.db
    .select({ email: users.email_notifications, push: users.push_notifications, deleted_at: users.deleted_at })
    .from(users)
    .where(eq(users.id, memberId));
  if (!member || member.deleted_at) return;
  // The e-mail carries an unsubscribe link (decision 0057): one who used it gets the push only, where they allow it.
  if (member.email) await deps.mailer.send(mail);
  if (!member.push) return;
  const [gym] = await deps.db
    .select({ id: gyms.id, stripe_id: gyms.stripe_id, gocardless_organisation_id: gyms.gocardless_organisation_id, integrations: gyms.integrations })
    .from(gyms)
    .where(eq(gyms.id, gymId));
  if (!gym) return;
  const providers = (deps.providers ?? sandboxProviders(deps.db)).on(deps.db);
  const url = await deepLinkOr(providers.links(gym), link);
  try {
    await providers
      .push(gym)
      .send({ externalId: pushExternalId(memberId), heading: mail.subject, content: mail.text.split(/\n\s*\n/)[1] ?? mail.subject, url, idempotencyKey: key });
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    logWarning("[member-mail] push not sent", err, { key });
  }
}
