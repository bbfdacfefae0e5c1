import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { ApiEnv } from "../core/context";
import { conversations, organisation_users, users } from "../core/db/schema";
import { brandFor, mailSite } from "../member-mail/brand";
import { tellMember } from "../member-mail/notify";
import { messageReplyMail } from "../member-mail/templates";

/**
 * A staff reply reaches the member (issue 31): by e-mail unless they turned e-mails off, and as a push where they
 * allow it, each with the link to their messages on the sign-up app. Once the reply is committed.
 */
export function tellReplyAfterCommit(c: Context<ApiEnv>, conversationId: number, message: { id: number; body: string }) {
  const deps = c.var.deps;
  const from = c.var.user!.row.name.split(" ")[0];
  const organisationId = c.var.tenant.organisationId;
  c.var.afterCommit(async () => {
    const [row] = await deps.db
      .select({ member: { id: users.id, name: users.name, email: users.email }, gym: conversations.gym_id, home: organisation_users.home_gym_id })
      .from(conversations)
      .innerJoin(users, eq(users.id, conversations.member_id))
      .leftJoin(
        organisation_users,
        and(eq(organisation_users.user_id, conversations.member_id), eq(organisation_users.organisation_id, conversations.organisation_id)),
      )
      .where(eq(conversations.id, conversationId));
    const gymId = row?.gym ?? row?.home;
    if (!row || !gymId) return;
    const site = mailSite(deps.config);
    const url = `${site.origin}/membership/messages`;
    const mail = messageReplyMail(await brandFor(deps.db, gymId, row.member.id, site), row.member.email, row.member.name, { from, body: message.body, url });
    await tellMember(deps, row.member.id, gymId, mail, `message:${message.id}`, {
      url,
      channel: "push",
      feature: "messages",
      data: { organisation_id: String(organisationId) },
    });
  });
}
