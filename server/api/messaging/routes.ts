import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { requireStaffSession } from "../middleware";

/**
 * GET /api/messaging/unread-messages: members' messages no staff member has read yet, in the current
 * organisation; 0 where calendar and messaging is off. Every back-office page shows it (the sidebar's badge),
 * so the session read brings it (server/db/memberships.ts): this call costs no query of its own.
 */
export const messagingRoutes = new Hono<ApiEnv>().get("/messaging/unread-messages", requireStaffSession, (c) =>
  c.json({ unread_messages: c.var.user!.unreadMessages }),
);
