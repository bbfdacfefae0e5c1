import { Hono } from "hono";
import { and, count, eq, isNull } from "drizzle-orm";
import { conversations, messages } from "../../db/schema";
import type { ApiEnv } from "../context";
import { requireStaff } from "../middleware";

/** Messaging exists only in organisations that have it switched on. */
export const messagingRoutes = new Hono<ApiEnv>().get("/messaging/unread-messages", requireStaff, async (c) => {
  const u = c.var.user!;
  if (!u.organisation?.calendar_and_messaging) return c.json({ unread_messages: 0 });
  const t = c.var.tenant;
  // Unread means a member's message no staff member has read yet.
  const [row] = await t.db
    .select({ n: count() })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversation_id))
    .where(and(t.where(messages, eq(messages.from_member, true), isNull(messages.read_at)), t.where(conversations)));
  return c.json({ unread_messages: row.n });
});
