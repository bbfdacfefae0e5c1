import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { TOO_LONG } from "../../domain/schemas/messaging";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

/**
 * Messaging (issue 16): staff and members write to each other; the unread count goes up with a member's message and
 * down as staff read it; only organisations with calendar and messaging on have it; another organisation's
 * conversation is 404.
 */
const PASSWORD = "messaging passphrase";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let member: Awaited<ReturnType<typeof signedIn>>;
let quietId: number;
let elsewhereAdmin: Awaited<ReturnType<typeof signedIn>>;
let trainer: Awaited<ReturnType<typeof signedIn>>;
let harbourMember: Awaited<ReturnType<typeof signedIn>>;
let harbourMemberId: number;

beforeAll(async () => {
  env = await setup();
  api = createApi({ db: env.db, mailer: outboxMailer(env.db), config: env.config });
  const hash = await hashPassword(PASSWORD);
  const org = await makeOrganisation(env.db, { name: "Chatty Gyms", calendar_and_messaging: true });
  const gym = await makeGym(env.db, org.id, "Chatty Central");
  const a = await makeUser(env.db, { name: "Chat Admin", email: "chat.admin@example.com", password_hash: hash });
  await addStaff(env.db, a.id, org.id, "admin");
  const m = await makeUser(env.db, { name: "Mel Member", email: "mel@example.com", password_hash: hash, email_verified_at: new Date() });
  await addMember(env.db, m.id, org.id, gym.id);
  const q = await makeUser(env.db, { name: "Quinn Quiet", email: "quinn@example.com" });
  await addMember(env.db, q.id, org.id, gym.id);
  quietId = q.id;
  // A trainer of Chatty Central only, and a member of the organisation's other gym.
  const harbour = await makeGym(env.db, org.id, "Chatty Harbour");
  const t = await makeUser(env.db, { name: "Tia Trainer", email: "tia.trainer@example.com", password_hash: hash });
  await addStaff(env.db, t.id, org.id, "personal_trainer", [{ gymId: gym.id, role: "personal_trainer" }]);
  const h = await makeUser(env.db, { name: "Hana Harbour", email: "hana@example.com", password_hash: hash, email_verified_at: new Date() });
  await addMember(env.db, h.id, org.id, harbour.id);
  harbourMemberId = h.id;
  const other = await makeOrganisation(env.db, { name: "Silent Gyms" });
  await makeGym(env.db, other.id, "Silent");
  const o = await makeUser(env.db, { name: "Silent Admin", email: "silent.admin@example.com", password_hash: hash });
  await addStaff(env.db, o.id, other.id, "admin");
  admin = await signedIn(api, env.db, "chat.admin@example.com", PASSWORD);
  member = await signedIn(api, env.db, "mel@example.com", PASSWORD);
  elsewhereAdmin = await signedIn(api, env.db, "silent.admin@example.com", PASSWORD);
  trainer = await signedIn(api, env.db, "tia.trainer@example.com", PASSWORD);
  harbourMember = await signedIn(api, env.db, "hana@example.com", PASSWORD);
});
afterAll(() => env?.close?.());

const unread = async () => (await admin.call("GET", "/api/messaging/unread-messages")).json.unread_messages;

describe("messaging", () => {
  let conversationId: number;

  it("takes a member's message, and the unread count goes up", async () => {
    expect(await unread()).toBe(0);
    const sent = await member.call("POST", "/api/member/messages", { body: "Is the pool open on Sunday? <b>thanks</b>" });
    expect(sent.status).toBe(201);
    conversationId = sent.json.data.conversation_id;
    await member.call("POST", "/api/member/messages", { body: "And the sauna?" });
    expect(await unread()).toBe(2);
    const list = (await admin.call("GET", "/api/messaging/conversations")).json.data;
    expect(list.data[0]).toMatchObject({ id: conversationId, member: { name: "Mel Member" }, unread_count: 2, last_message: { body: "And the sauna?", from_member: true } });
    expect((await admin.call("GET", "/api/messaging/conversations?unread=1")).json.data.data).toHaveLength(1);
    expect((await admin.call("GET", "/api/messaging/conversations?search=nobody")).json.data.data).toHaveLength(0);
  });

  it("shows the thread as plain text, and reading it brings the count down", async () => {
    const thread = (await admin.call("GET", `/api/messaging/conversation-messages?conversation_id=${conversationId}`)).json.data;
    expect(thread.conversation.member.name).toBe("Mel Member");
    expect(thread.data.map((m: { body: string }) => m.body)).toEqual(["Is the pool open on Sunday? <b>thanks</b>", "And the sauna?"]);
    const read = await admin.call("PUT", `/api/messaging/conversations/${conversationId}/read`);
    expect(read.json.data.unread_messages).toBe(0);
    expect(await unread()).toBe(0);
  });

  it("lets staff answer, and start a conversation with any member", async () => {
    const reply = await admin.call("POST", "/api/messaging/send", { conversation_id: conversationId, body: "Yes, 8 till 6." });
    expect(reply.status).toBe(201);
    const mine = (await member.call("GET", "/api/member/messages")).json.data;
    expect(mine.data.at(-1)).toMatchObject({ body: "Yes, 8 till 6.", from_member: false, sender: { name: "Chat Admin" } });
    const started = await admin.call("POST", "/api/messaging/send", { member_id: quietId, body: "Welcome to Chatty Central!" });
    expect(started.status).toBe(201);
    expect(started.json.data.conversation_id).not.toBe(conversationId);
  });

  it("checks what is sent", async () => {
    expect((await admin.call("POST", "/api/messaging/send", { conversation_id: conversationId, body: "   " })).json.errors).toEqual({ body: ["Value is required"] });
    expect((await admin.call("POST", "/api/messaging/send", { conversation_id: conversationId, body: "x".repeat(2001) })).json.errors).toEqual({ body: [TOO_LONG] });
    expect((await admin.call("POST", "/api/messaging/send", { body: "hello" })).json.errors).toEqual({ member_id: ["Choose who the message is for"] });
    expect((await member.call("POST", "/api/member/messages", {})).json.errors).toEqual({ body: ["Value is required"] });
  });

  it("is only for organisations with messaging, and their own conversations", async () => {
    expect((await elsewhereAdmin.call("GET", "/api/messaging/conversations")).status).toBe(404);
    expect((await elsewhereAdmin.call("GET", `/api/messaging/conversation-messages?conversation_id=${conversationId}`)).status).toBe(404);
    expect((await elsewhereAdmin.call("GET", "/api/messaging/unread-messages")).status).toBe(404);
    expect((await admin.call("POST", "/api/messaging/send", { member_id: 999999, body: "hi" })).json.errors).toEqual({ member_id: ["Choose one of your members"] });
    expect((await admin.call("PUT", "/api/messaging/conversations/999999/read")).status).toBe(404);
  });

  it("counts and shows gym staff only the conversations of their own gyms' members", async () => {
    const trainerUnread = async () => (await trainer.call("GET", "/api/messaging/unread-messages")).json.unread_messages;
    const before = { admin: await unread(), trainer: await trainerUnread() };
    const sent = await harbourMember.call("POST", "/api/member/messages", { body: "Can I freeze my membership?" });
    expect(sent.status).toBe(201);
    const harbourConversation = sent.json.data.conversation_id;
    // The organisation admin sees it; Chatty Central's trainer neither counts nor sees it.
    expect(await unread()).toBe(before.admin + 1);
    expect(await trainerUnread()).toBe(before.trainer);
    const listed = (await trainer.call("GET", "/api/messaging/conversations")).json.data.data.map((c: { id: number }) => c.id);
    expect(listed).not.toContain(harbourConversation);
    expect((await trainer.call("GET", `/api/messaging/conversation-messages?conversation_id=${harbourConversation}`)).status).toBe(404);
    expect((await trainer.call("PUT", `/api/messaging/conversations/${harbourConversation}/read`)).status).toBe(404);
    expect((await trainer.call("POST", "/api/messaging/send", { member_id: harbourMemberId, body: "hello" })).status).toBe(403);
    // A Central member's message counts for the trainer; reading it answers the trainer's own count.
    const mel = await member.call("POST", "/api/member/messages", { body: "Running late, 10 minutes" });
    expect(await trainerUnread()).toBe(before.trainer + 1);
    const read = await trainer.call("PUT", `/api/messaging/conversations/${mel.json.data.conversation_id}/read`);
    expect(read.json.data.unread_messages).toBe(0);
    expect(await unread()).toBe(before.admin + 1);
  });
});
