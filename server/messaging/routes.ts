import { Hono, type Context } from "hono";
import { conversationsQuery, memberSendRequest, sendRequest, threadQuery } from "../../domain/schemas/messaging";
import { tellReplyAfterCommit } from "./tell";
import { addMessage, conversationWith, existingConversation, findConversation, listConversations, markRead, threadOf } from "./conversations";
import { pathId, readBody, readQuery } from "../core/body";
import type { ApiEnv } from "../core/context";
import { calendarAndMessaging } from "../core/guards";
import { now, requireMember, requireStaff, requireStaffSession } from "../core/middleware";
import { assertCan, gymsWhere, requireCan } from "../core/permissions";

/**
 * Messaging (issue 16; SPEC §7 Messaging): staff and members of organisations that have calendar and messaging
 * switched on; for anyone else these calls do not exist (404, SPEC §6: gated by the organisation, not by role).
 */
const messagingOn = calendarAndMessaging;
const staff = [requireStaff, messagingOn, requireCan("members.read")] as const;
const scope = (c: Context<ApiEnv>) => gymsWhere(c.var.user!, "members.read");

export const messagingRoutes = new Hono<ApiEnv>()
  /**
   * GET /api/messaging/unread-messages: members' messages no staff member has read yet, in the conversations this
   * user may open in the current organisation. Every back-office page shows it (the sidebar's badge), so the session
   * read brings it (server/core/db/memberships.ts): this call costs no query of its own.
   */
  .get("/messaging/unread-messages", requireStaffSession, messagingOn, (c) => c.json({ unread_messages: c.var.user!.unreadMessages }))
  /** GET /api/messaging/conversations?search=&unread=1&page=: newest first, each with its last message and unread count. */
  .get("/messaging/conversations", ...staff, async (c) => c.json({ data: await listConversations(c.var.tenant, scope(c), readQuery(c, conversationsQuery)) }))
  /** GET /api/messaging/conversation-messages?conversation_id=: the conversation, its member and its latest messages. */
  .get("/messaging/conversation-messages", ...staff, async (c) => {
    const { conversation_id } = readQuery(c, threadQuery);
    const conversation = await findConversation(c.var.tenant, scope(c), conversation_id);
    return c.json({ data: { conversation, data: await threadOf(c.var.tenant, conversation.id) } });
  })
  /** POST /api/messaging/send { conversation_id | member_id, body }: from the gym to the member. */
  .post("/messaging/send", ...staff, async (c) => {
    const req = await readBody(c, sendRequest);
    let conversation: { id: number; gym_id: number | null };
    if (req.conversation_id !== undefined) conversation = await findConversation(c.var.tenant, scope(c), req.conversation_id);
    else {
      conversation = await conversationWith(c.var.tenant, req.member_id!, now(c));
      assertCan(c.var.user!, "members.read", conversation.gym_id);
    }
    const message = await addMessage(c.var.tenant, conversation.id, c.var.user!.row.id, false, req.body, now(c));
    tellReplyAfterCommit(c, conversation.id, message);
    // Answering a conversation reads it: what the member said is no longer waiting.
    const unread = await markRead(c.var.tenant, scope(c), conversation.id, now(c));
    return c.json({ data: { conversation_id: conversation.id, message, unread_messages: unread } }, 201);
  })
  .put("/messaging/conversations/:id{[0-9]+}/read", ...staff, async (c) => {
    const conversation = await findConversation(c.var.tenant, scope(c), pathId(c, "No such conversation."));
    return c.json({ data: { unread_messages: await markRead(c.var.tenant, scope(c), conversation.id, now(c)) } });
  })
  /** The member's side (the member app): their conversation with the gym, and sending to it. */
  .get("/member/messages", requireMember, messagingOn, async (c) => {
    const conversation = await existingConversation(c.var.tenant, c.var.user!.row.id);
    return c.json({ data: { conversation_id: conversation?.id ?? null, data: conversation ? await threadOf(c.var.tenant, conversation.id) : [] } });
  })
  .post("/member/messages", requireMember, messagingOn, async (c) => {
    const { body } = await readBody(c, memberSendRequest);
    const conversation = await conversationWith(c.var.tenant, c.var.user!.row.id, now(c));
    const message = await addMessage(c.var.tenant, conversation.id, c.var.user!.row.id, true, body, now(c));
    return c.json({ data: { conversation_id: conversation.id, message } }, 201);
  });
