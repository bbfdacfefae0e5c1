import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { invalid, notFound } from "../core/errors";
import { conversations, messages, organisation_users, users } from "../core/db/schema";
import type { Tenant } from "../core/db/tenant";

/**
 * Conversations between the organisation's staff and its members (issue 16; SPEC §7 Messaging). One conversation per
 * member per organisation; a staff message is from the gym (any staff member may answer), a member's is theirs.
 * Staff see the conversations of members in gyms they may see (`gyms`: "all" or a list), as with the members list.
 */
export type GymScope = "all" | number[];
const PAGE = 30;

function visible(t: Tenant, gyms: GymScope, ...more: (SQL | undefined)[]) {
  return t.where(conversations, gyms === "all" ? undefined : gyms.length ? inArray(conversations.gym_id, gyms) : sql`false`, ...more);
}

const unreadCount = sql<number>`(select count(*)::int from ${messages} m where m.conversation_id = ${conversations.id} and m.from_member and m.read_at is null)`;

/** GET /api/messaging/conversations?search=&unread=&page=: newest first. */
export async function listConversations(t: Tenant, gyms: GymScope, q: { search?: string; unread: boolean; page: number }) {
  const like = q.search ? `%${q.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
  const rows = await t.db
    .select({
      id: conversations.id,
      gym_id: conversations.gym_id,
      last_message_at: conversations.last_message_at,
      member: { id: users.id, name: users.name, email: users.email, profile_picture: users.profile_picture },
      unread_count: unreadCount,
      last_message: sql<{ body: string; from_member: boolean; created_at: string } | null>`(select json_build_object('body', left(m.body, 140), 'from_member', m.from_member, 'created_at', m.created_at)
        from ${messages} m where m.conversation_id = ${conversations.id} order by m.created_at desc, m.id desc limit 1)`,
    })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.member_id))
    .where(
      visible(
        t,
        gyms,
        like ? sql`(${users.name} ilike ${like} or ${users.email} ilike ${like})` : undefined,
        q.unread ? sql`exists (select 1 from ${messages} m where m.conversation_id = ${conversations.id} and m.from_member and m.read_at is null)` : undefined,
      ),
    )
    .orderBy(sql`${conversations.last_message_at} desc nulls last`, desc(conversations.id))
    .limit(PAGE + 1)
    .offset((q.page - 1) * PAGE);
  return { data: rows.slice(0, PAGE), page: q.page, has_more: rows.length > PAGE };
}

/** A conversation staff may see, with its member; 404 otherwise. */
export async function findConversation(t: Tenant, gyms: GymScope, id: number) {
  const [row] = await t.db
    .select({ id: conversations.id, gym_id: conversations.gym_id, member: { id: users.id, name: users.name, email: users.email, profile_picture: users.profile_picture } })
    .from(conversations)
    .innerJoin(users, eq(users.id, conversations.member_id))
    .where(visible(t, gyms, eq(conversations.id, id)));
  if (!row) throw notFound("No such conversation.");
  return row;
}

/** GET /api/messaging/conversation-messages?conversation_id=: the latest 200, oldest first. */
export async function threadOf(t: Tenant, conversationId: number) {
  const rows = await t.db
    .select({ id: messages.id, body: messages.body, from_member: messages.from_member, created_at: messages.created_at, read_at: messages.read_at, sender: { id: users.id, name: users.name } })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.sender_id))
    .where(t.where(messages, eq(messages.conversation_id, conversationId)))
    .orderBy(desc(messages.created_at), desc(messages.id))
    .limit(200);
  return rows.reverse();
}

/** The member's conversation here, if they have one. */
export async function existingConversation(t: Tenant, memberId: number) {
  const [found] = await t.db.select({ id: conversations.id, gym_id: conversations.gym_id }).from(conversations).where(t.where(conversations, eq(conversations.member_id, memberId))).orderBy(asc(conversations.id)).limit(1);
  return found ?? null;
}

/** The member's conversation here, started if they have none (one per member per organisation). */
export async function conversationWith(t: Tenant, memberId: number, now: Date) {
  const [member] = await t.db
    .select({ home_gym_id: organisation_users.home_gym_id })
    .from(organisation_users)
    .where(t.where(organisation_users, eq(organisation_users.user_id, memberId), eq(organisation_users.role, "member"), isNull(organisation_users.deleted_at)));
  if (!member) throw invalid({ member_id: ["Choose one of your members"] });
  const found = await existingConversation(t, memberId);
  if (found) return found;
  const [made] = await t.db.insert(conversations).values(t.owned({ member_id: memberId, gym_id: member.home_gym_id, created_at: now })).returning({ id: conversations.id, gym_id: conversations.gym_id });
  return made;
}

/** Adds a message and moves the conversation to the top. */
export async function addMessage(t: Tenant, conversationId: number, senderId: number, fromMember: boolean, body: string, now: Date) {
  const [m] = await t.db.insert(messages).values(t.owned({ conversation_id: conversationId, sender_id: senderId, from_member: fromMember, body, created_at: now })).returning();
  await t.db.update(conversations).set({ last_message_at: now }).where(t.where(conversations, eq(conversations.id, conversationId)));
  return m;
}

/**
 * PUT /api/messaging/conversations/{id}/read: the member's messages in it, read. Answers the unread count left in the
 * conversations this user may open (the sidebar's badge; server/core/db/memberships.ts counts the same for the session).
 */
export async function markRead(t: Tenant, gyms: GymScope, conversationId: number, now: Date) {
  await t.db
    .update(messages)
    .set({ read_at: now })
    .where(t.where(messages, and(eq(messages.conversation_id, conversationId), eq(messages.from_member, true), isNull(messages.read_at))));
  const [{ n }] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversation_id))
    .where(and(t.where(messages, eq(messages.from_member, true), isNull(messages.read_at)), visible(t, gyms)));
  return n;
}
