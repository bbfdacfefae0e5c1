import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi, localJobs } from "../../server/api/app";
import { hashPassword } from "../../server/core/auth/password";
import { organisation_invitations, organisation_users, users } from "../../server/core/db/schema";
import { outboxMailer } from "../../server/core/mail/mailer";
import { addMember, addStaff, makeGym, makeOrganisation, makeUser } from "../../server/seed/factories";
import { browser, lastMail, setup, signedIn } from "./harness";

/**
 * A person's data belongs to them and their gym (issue 29, H1 and M1; decision 0048). Bravo holds Bea (a member) and
 * Tom (a trainer), who have accounts of their own. Alpha's admin tries every way the probe found to take them over:
 * importing their addresses, inviting them to the staff, editing a shared member, reading them. None may add them,
 * show Alpha their details or change what Bravo sees; each becomes an invitation, and only the person's acceptance
 * makes them Alpha's. Roles stay with the organisation: staff at Alpha is nothing at Bravo.
 */
const PASSWORD = "people across organisations";
let env: Awaited<ReturnType<typeof setup>>;
let api: ReturnType<typeof createApi>;
let jobs: ReturnType<typeof localJobs>;
let alphaAdmin: Awaited<ReturnType<typeof signedIn>>;
const ids = {} as Record<"alpha" | "alphaGym" | "bravo" | "bravoGym" | "bea" | "tom" | "shared", number>;

const personRow = async (id: number) => (await env.db.select().from(users).where(eq(users.id, id)))[0];
const membershipAt = async (org: number, id: number) =>
  (await env.db.select().from(organisation_users).where(and(eq(organisation_users.organisation_id, org), eq(organisation_users.user_id, id))))[0];
const tokenIn = (text: string) => text.match(/invitation\?token=([\w-]+)/)![1];

beforeAll(async () => {
  env = await setup();
  const mailer = outboxMailer(env.db);
  jobs = localJobs({ db: env.db, mailer, config: env.config });
  api = createApi({ db: env.db, mailer, config: env.config, jobs });
  const hash = await hashPassword(PASSWORD);
  const alpha = await makeOrganisation(env.db, { name: "Alpha" });
  const alphaGym = await makeGym(env.db, alpha.id, "Alpha Gym");
  const bravo = await makeOrganisation(env.db, { name: "Bravo" });
  const bravoGym = await makeGym(env.db, bravo.id, "Bravo Gym");
  Object.assign(ids, { alpha: alpha.id, alphaGym: alphaGym.id, bravo: bravo.id, bravoGym: bravoGym.id });
  const admin = await makeUser(env.db, { name: "Alpha Admin", email: "admin@alpha.example", password_hash: hash, current_organisation_id: alpha.id });
  await addStaff(env.db, admin.id, alpha.id, "admin");
  const bea = await makeUser(env.db, {
    name: "Bea Bravo",
    email: "bea@bravo.example",
    password_hash: hash,
    dob: "1990-05-01",
    address: "1 Bravo Street",
    emergency_contact_name: "Bravo Mum",
    current_organisation_id: bravo.id,
    current_gym_id: bravoGym.id,
  });
  await addMember(env.db, bea.id, bravo.id, bravoGym.id);
  const tom = await makeUser(env.db, { name: "Tom Trainer", email: "tom@bravo.example", password_hash: hash, current_organisation_id: bravo.id });
  await addStaff(env.db, tom.id, bravo.id, "personal_trainer", [{ gymId: bravoGym.id, role: "personal_trainer" }]);
  // Someone who joined both gyms herself: each sees her, neither may change her details.
  const shared = await makeUser(env.db, { name: "Sal Shared", email: "sal@both.example", mobile_number: "021 000 0001" });
  await addMember(env.db, shared.id, alpha.id, alphaGym.id);
  await addMember(env.db, shared.id, bravo.id, bravoGym.id);
  Object.assign(ids, { bea: bea.id, tom: tom.id, shared: shared.id });
  alphaAdmin = await signedIn(api, env.db, "admin@alpha.example", PASSWORD);
});
afterAll(() => env?.close?.());

describe("an organisation cannot take over another's people", () => {
  it("import: a row naming someone Bravo holds invites them; nothing of theirs is added, read or changed", async () => {
    const before = await personRow(ids.bea);
    const csv = ["email,name,mobile,dob,address", "bea@bravo.example,Renamed By Alpha,029 999 9999,02/02/1999,9 Alpha Road", "new.person@alpha.example,New Person,,,"].join("\n");
    const created = (await alphaAdmin.call("POST", `/api/gyms/${ids.alphaGym}/imports`, { csv, filename: "takeover.csv" })).json.data;
    const mapped = await alphaAdmin.call("PUT", `/api/imports/${created.id}`, { mapping: ["email", "name", "mobile_number", "dob", "address"], date_order: "dmy", plans: {} });
    expect(mapped.status).toBe(200);
    expect(mapped.json.data.summary).toMatchObject({ create: 1, invite: 1 });
    expect((await alphaAdmin.call("POST", `/api/imports/${created.id}/confirm`)).status).toBe(202);
    await jobs.idle();
    const done = (await alphaAdmin.call("GET", `/api/imports/${created.id}`)).json.data;
    expect(done).toMatchObject({ status: "done", created_count: 1, invited_to_join_count: 1 });

    expect(await membershipAt(ids.alpha, ids.bea)).toBeUndefined();
    expect(await personRow(ids.bea)).toEqual(before);
    expect((await alphaAdmin.call("GET", `/api/members/${ids.bea}`)).status).toBe(404);
    const listed = (await alphaAdmin.call("GET", "/api/members?q=bea")).json.data.data;
    expect(listed).toEqual([]);
    const mail = (await lastMail(env.db, "bea@bravo.example"))!;
    expect(mail.subject).toBe("Alpha has invited you to join");
    expect(mail.text).not.toContain("Renamed By Alpha");

    // Bea says yes: now she is Alpha's member too, with Alpha's side from the file, and her own details unchanged.
    const bea = browser(api);
    const asked = await bea.call("POST", "/api/invitations/describe", { token: tokenIn(mail.text) });
    expect(asked.json.data).toMatchObject({ organisation: "Alpha", role: "member", email: "bea@bravo.example" });
    expect((await bea.call("POST", "/api/invitations/accept", { token: tokenIn(mail.text) })).json.data).toEqual({ organisation: "Alpha", role: "member" });
    expect(await membershipAt(ids.alpha, ids.bea)).toMatchObject({ role: "member", home_gym_id: ids.alphaGym, import_id: created.id });
    expect(await personRow(ids.bea)).toEqual(before);
    // Used once: a second click joins nobody twice.
    expect((await bea.call("POST", "/api/invitations/accept", { token: tokenIn(mail.text) })).status).toBe(404);
  });

  it("staff invitation: someone Bravo holds becomes an invitation; their account and roles stay theirs", async () => {
    const before = await personRow(ids.tom);
    // The question before an invitation says nothing about accounts other organisations hold (L3).
    const exists = await alphaAdmin.call("POST", `/api/organisations/${ids.alpha}/staff-exists`, { email: "tom@bravo.example" });
    expect(exists.json.data).toEqual({ exists: false, staff: false, member: false, removed: false, name: null });
    const res = await alphaAdmin.call("POST", `/api/organisations/${ids.alpha}/staff`, { email: "tom@bravo.example", name: "Alpha Calls Him This", role: "admin", gyms: [], invite: true });
    expect(res.status).toBe(202);
    expect(res.json.data).toMatchObject({ awaiting_acceptance: true, email: "tom@bravo.example" });
    expect(JSON.stringify(res.json)).not.toContain("Tom Trainer");
    expect(await membershipAt(ids.alpha, ids.tom)).toBeUndefined();
    expect(await personRow(ids.tom)).toEqual(before);
    expect((await alphaAdmin.call("GET", `/api/staff/${ids.tom}`)).status).toBe(404);
    const waiting = (await alphaAdmin.call("GET", `/api/organisations/${ids.alpha}/invitations?kind=staff`)).json.data.data;
    expect(waiting).toMatchObject([{ email: "tom@bravo.example", name: "Alpha Calls Him This", role: "admin" }]);
    const token = tokenIn((await lastMail(env.db, "tom@bravo.example"))!.text);

    // Tom at Bravo is untouched: signed in there he is Bravo's trainer, not an admin of anything.
    const tom = await signedIn(api, env.db, "tom@bravo.example", PASSWORD);
    expect((await tom.call("GET", "/api/me")).json.data).toMatchObject({ current_organisation: { id: ids.bravo, role: "personal_trainer" } });

    // Withdrawn, the link stops working.
    expect((await alphaAdmin.call("DELETE", `/api/invitations/${waiting[0].id}?kind=staff`)).status).toBe(200);
    expect((await browser(api).call("POST", "/api/invitations/accept", { token })).status).toBe(404);
    expect(await membershipAt(ids.alpha, ids.tom)).toBeUndefined();
  });

  it("edit: a member both organisations hold keeps her details; Alpha changes only its own side", async () => {
    const before = await personRow(ids.shared);
    const member = (await alphaAdmin.call("GET", `/api/members/${ids.shared}`)).json.data;
    const form = { name: member.name, email: member.email, mobile_number: member.mobile_number, email_notifications: true, push_notifications: true, payment_reminders: true, tags: [] };
    const renamed = await alphaAdmin.call("PUT", `/api/members/${ids.shared}`, { ...form, name: "Renamed By Alpha", mobile_number: "029 999 9999" });
    expect(renamed.status).toBe(422);
    expect(Object.keys(renamed.json.errors).sort()).toEqual(["mobile_number", "name"]);
    expect(renamed.json.errors.name[0]).toMatch(/only they can change/);
    expect(await personRow(ids.shared)).toEqual(before);
    // The same details sent back with Alpha's own notes save, and the person's row is not written.
    const noted = await alphaAdmin.call("PUT", `/api/members/${ids.shared}`, { ...form, notes: "Alpha's own note" });
    expect(noted.status).toBe(200);
    expect(await personRow(ids.shared)).toEqual(before);
    expect((await membershipAt(ids.alpha, ids.shared)).notes).toBe("Alpha's own note");
    expect((await membershipAt(ids.bravo, ids.shared)).notes).toBeNull();
  });
});

describe("roles belong to an organisation membership, never to the account (M1)", () => {
  it("Bea, Alpha's trainer by invitation and then removed, is still simply Bravo's member", async () => {
    const invited = await alphaAdmin.call("POST", `/api/organisations/${ids.alpha}/staff`, {
      email: "bea@bravo.example",
      role: "personal_trainer",
      gyms: [{ id: ids.alphaGym, role: "personal_trainer" }],
      invite: true,
    });
    // She is Alpha's member now (the import's invitation), so she cannot also be its staff.
    expect(invited.status).toBe(422);
    await env.db.update(organisation_users).set({ deleted_at: new Date() }).where(and(eq(organisation_users.organisation_id, ids.alpha), eq(organisation_users.user_id, ids.bea)));
    const again = await alphaAdmin.call("POST", `/api/organisations/${ids.alpha}/staff`, {
      email: "bea@bravo.example",
      role: "personal_trainer",
      gyms: [{ id: ids.alphaGym, role: "personal_trainer" }],
      invite: true,
    });
    // A removed member stays a removed member: staff is never made out of one silently.
    expect(again.status).toBe(422);
    const [inv] = await env.db.select().from(organisation_invitations).where(eq(organisation_invitations.user_id, ids.bea));
    expect(inv.role).toBe("member");

    const bea = await signedIn(api, env.db, "bea@bravo.example", PASSWORD);
    const me = (await bea.call("GET", "/api/me")).json.data;
    expect(me).toMatchObject({ current_organisation: { id: ids.bravo, role: "member" } });
    expect((await bea.call("GET", "/api/me/signup")).status).toBe(200);
  });

  it("a trainer of one organisation and member of another signs in where they are staff", async () => {
    // Tom joins Alpha as a member by accepting; his account has no staff flag to flip either way.
    await env.db.insert(organisation_users).values({ organisation_id: ids.alpha, user_id: ids.tom, role: "member", home_gym_id: ids.alphaGym });
    await env.db.update(users).set({ current_organisation_id: ids.alpha }).where(eq(users.id, ids.tom));
    const tom = await signedIn(api, env.db, "tom@bravo.example", PASSWORD);
    expect((await tom.call("GET", "/api/me")).json.data).toMatchObject({ current_organisation: { id: ids.bravo } });
    // Removed from Bravo's staff, he is Alpha's member, with the member's pages open to him.
    await env.db.update(organisation_users).set({ deleted_at: new Date() }).where(and(eq(organisation_users.organisation_id, ids.bravo), eq(organisation_users.user_id, ids.tom)));
    await env.db.update(users).set({ current_organisation_id: ids.alpha }).where(eq(users.id, ids.tom));
    const member = await signedIn(api, env.db, "tom@bravo.example", PASSWORD);
    expect((await member.call("GET", "/api/me")).json.data).toMatchObject({ current_organisation: { id: ids.alpha, role: "member" } });
    expect((await member.call("GET", "/api/me/signup")).status).toBe(200);
  });
});
