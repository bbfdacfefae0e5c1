import { Hono } from "hono";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { preparedFor } from "../../db/prepared";
import { conversations, messages } from "../../db/schema";
import type { ApiEnv } from "../context";
import { requireStaff } from "../middleware";

// Unread means a member's message no staff member has read yet. Every back-office page asks (the sidebar's
// badge), so it is prepared once; the organisation is the session's (c.var.tenant), as everywhere.
const unreadCount = preparedFor((db) =>
  db
    .select({ n: count() })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversation_id))
    .where(
      and(
        eq(messages.organisation_id, sql.placeholder("org")),
        eq(messages.from_member, true),
        isNull(messages.read_at),
        eq(conversations.organisation_id, sql.placeholder("org")),
      ),
    )
    .prepare("unread_messages"),
);

/** Messaging exists only in organisations that have it switched on. */
export const messagingRoutes = new Hono<ApiEnv>().get("/messaging/unread-messages", requireStaff, async (c) => {
  const u = c.var.user!;
  if (!u.organisation?.calendar_and_messaging) return c.json({ unread_messages: 0 });
  const t = c.var.tenant;
  const [row] = await unreadCount(t.db).execute({ org: t.organisationId });
  return c.json({ unread_messages: row.n });
});
