import { and, eq, isNull } from "drizzle-orm";
import { backofficeUrl, type Config } from "../core/config";
import type { Db } from "../core/db/client";
import { organisation_users, organisations, users } from "../core/db/schema";
import type { Mailer } from "../core/mail/mailer";
import { webhookEndpointDisabledMail } from "../core/mail/templates";

/** The page of an endpoint, for links in e-mails. */
export const endpointPageUrl = (config: Config, id: number) => `${backofficeUrl(config)}/organisation/developers/webhooks/${id}`;

/**
 * An endpoint the delivery job disabled (./deliver.ts): each admin of its organisation who can sign in is told, once,
 * as it happens. Sent after the transaction that disabled it, on the system's handle (a job, no request).
 */
export async function tellAdminsOfDisabled(
  deps: { db: Db; mailer: Mailer; config: Config },
  endpoint: { id: number; organisation_id: number; url: string; disabled_reason: string },
) {
  const admins = await deps.db
    .select({ email: users.email, name: users.name, organisation: organisations.name })
    .from(organisation_users)
    .innerJoin(users, eq(users.id, organisation_users.user_id))
    .innerJoin(organisations, eq(organisations.id, organisation_users.organisation_id))
    .where(
      and(
        eq(organisation_users.organisation_id, endpoint.organisation_id),
        eq(organisation_users.role, "admin"),
        isNull(organisation_users.deleted_at),
        isNull(organisation_users.deactivated_at),
        isNull(users.deleted_at),
      ),
    );
  for (const a of admins) {
    await deps.mailer.send(
      webhookEndpointDisabledMail(a.email, a.name, {
        organisation: a.organisation,
        url: endpoint.url,
        reason: endpoint.disabled_reason,
        pageUrl: endpointPageUrl(deps.config, endpoint.id),
      }),
    );
  }
  return admins.length;
}
