import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../server/core/auth/password";
import { conversations, messages } from "../../server/core/db/schema";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { setup, signedIn } from "./harness";

let env: Awaited<ReturnType<typeof setup>>;
const PASSWORD = "switch test passphrase";
const ids: Record<string, number> = {};

const staff = (email: string) => signedIn(env.api, env.db, email, PASSWORD);

beforeAll(async () => {
  env = await setup();
  const hash = await hashPassword(PASSWORD);
  const chat = await makeOrganisation(env.db, { name: "Chatty", multi_gym: true, calendar_and_messaging: true });
  const quiet = await makeOrganisation(env.db, { name: "Quiet" });
  const other = await makeOrganisation(env.db, { name: "Other" });
  ids.chat = chat.id;
  ids.quiet = quiet.id;
  ids.other = other.id;
  ids.gymA = (await makeGym(env.db, chat.id, "A gym")).id;
  ids.gymB = (await makeGym(env.db, chat.id, "B gym")).id;
  ids.quietGym = (await makeGym(env.db, quiet.id, "Quiet gym")).id;
  ids.otherGym = (await makeGym(env.db, other.id, "Other gym")).id;
  const admin = await makeUser(env.db, { name: "ada", email: "ada@example.com", password_hash: hash, current_organisation_id: chat.id });
  await addStaff(env.db, admin.id, chat.id, "admin");
  await addStaff(env.db, admin.id, quiet.id, "admin");
  const trainer = await makeUser(env.db, { name: "tim", email: "tim@example.com", password_hash: hash });
  await addStaff(env.db, trainer.id, chat.id, "personal_trainer", [{ gymId: ids.gymB, role: "personal_trainer" }]);

  // Two unread member messages in Chatty, one read, one from staff; one unread in Other.
  const member = await makeUser(env.db, { name: "mo", email: "mo@example.com" });
  await addMember(env.db, member.id, chat.id, ids.gymA);
  const [conv] = await env.db.insert(conversations).values({ organisation_id: chat.id, member_id: member.id }).returning();
  const msg = (from_member: boolean, read: boolean, orgId = chat.id, convId = conv.id) => ({
    organisation_id: orgId, conversation_id: convId, sender_id: from_member ? member.id : admin.id, from_member, body: "hi", read_at: read ? new Date() : null,
  });
  await env.db.insert(messages).values([msg(true, false), msg(true, false), msg(true, true), msg(false, false)]);
  const [otherConv] = await env.db.insert(conversations).values({ organisation_id: other.id, member_id: member.id }).returning();
  await env.db.insert(messages).values(msg(true, false, other.id, otherConv.id));

  // Bo works in Banter and Chatty and has never chosen: Banter, first by name, is current. One unread there.
  const banter = await makeOrganisation(env.db, { name: "Banter", calendar_and_messaging: true });
  ids.banter = banter.id;
  await makeGym(env.db, banter.id, "Banter gym");
  const bo = await makeUser(env.db, { name: "bo", email: "bo@example.com", password_hash: hash });
  await addStaff(env.db, bo.id, banter.id, "admin");
  await addStaff(env.db, bo.id, chat.id, "admin");
  const [banterConv] = await env.db.insert(conversations).values({ organisation_id: banter.id, member_id: member.id }).returning();
  await env.db.insert(messages).values([msg(true, false, banter.id, banterConv.id), msg(false, false, banter.id, banterConv.id)]);
});
afterAll(() => env.close());

describe("switching organisation and gym", () => {
  it("switches organisation, picking its first gym, and keeps it for the next sign-in", async () => {
    const b = await staff("ada@example.com");
    expect((await b.call("GET", "/api/me")).json.data.current_organisation.name).toBe("Chatty");
    const res = await b.call("POST", `/api/organisations/${ids.quiet}/switch`);
    expect(res.status).toBe(200);
    const me = (await b.call("GET", "/api/me")).json.data;
    expect(me.current_organisation.name).toBe("Quiet");
    expect(me.current_gym.name).toBe("Quiet gym");
    const again = await staff("ada@example.com");
    expect((await again.call("GET", "/api/me")).json.data.current_organisation.name).toBe("Quiet");
    await b.call("POST", `/api/organisations/${ids.chat}/switch`);
  });

  it("refuses an organisation or gym the user does not belong to, as not found", async () => {
    const b = await staff("ada@example.com");
    expect((await b.call("POST", `/api/organisations/${ids.other}/switch`)).status).toBe(404);
    expect((await b.call("POST", `/api/gyms/${ids.otherGym}/switch`)).status).toBe(404);
    expect((await b.call("POST", `/api/gyms/not-a-number/switch`)).status).toBe(404);
  });

  it("switches gym within the organisation; a trainer only to their own gyms", async () => {
    const b = await staff("ada@example.com");
    expect((await b.call("POST", `/api/gyms/${ids.gymB}/switch`)).status).toBe(200);
    expect((await b.call("GET", "/api/me")).json.data.current_gym.name).toBe("B gym");
    const t = await staff("tim@example.com");
    expect((await t.call("POST", `/api/gyms/${ids.gymA}/switch`)).status).toBe(404);
    expect((await t.call("GET", "/api/me")).json.data.gyms.map((g: { name: string }) => g.name)).toEqual(["B gym"]);
  });

  it("needs a same-origin or scripted request", async () => {
    const b = await staff("ada@example.com");
    const res = await b.call("POST", `/api/gyms/${ids.gymA}/switch`, undefined, { "x-requested-with": "", "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
  });
});

describe("GET /api/messaging/unread-messages", () => {
  it("counts members' unread messages in the current organisation only", async () => {
    const b = await staff("ada@example.com");
    expect((await b.call("GET", "/api/messaging/unread-messages")).json).toEqual({ unread_messages: 2 });
    // An organisation without calendar and messaging has no such call (SPEC §6).
    await b.call("POST", `/api/organisations/${ids.quiet}/switch`);
    expect((await b.call("GET", "/api/messaging/unread-messages")).status).toBe(404);
    await b.call("POST", `/api/organisations/${ids.chat}/switch`);
  });

  it("counts for the organisation the user works in when they have never chosen one (the first by name)", async () => {
    const b = await staff("bo@example.com");
    expect((await b.call("GET", "/api/me")).json.data.current_organisation.name).toBe("Banter");
    expect((await b.call("GET", "/api/messaging/unread-messages")).json).toEqual({ unread_messages: 1 });
    await b.call("POST", `/api/organisations/${ids.chat}/switch`);
    expect((await b.call("GET", "/api/messaging/unread-messages")).json).toEqual({ unread_messages: 2 });
  });
});
